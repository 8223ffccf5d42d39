// Pin names and roles the user set in MPLAB Code Configurator: the `.mc3`
// state file (Melody: escaped JSON of the pin grid; Classic: per-pin keys),
// the generated `pins.h` / `pin_manager.h` macros, and Harmony's
// `pin_configurations.csv` (which also carries package pin numbers).
import type { Finding, SourceRef } from '../types.js';
import { childNamed, descendantsNamed, parseXml } from './xml.js';

export interface PinAssignment {
  /** Port pin: `RA4`, `PB5`. */
  pad: string;
  /** The user's name for the pin: `LED_D2`. */
  userName?: string;
  /** Roles chosen in MCC: `GPIO output`, `TX1`, `CLCIN2`. */
  functions: string[];
  /** Package pin number, where the tool records it (Harmony). */
  pinNumber?: number;
  source: SourceRef;
}

const portPin = /^(R[A-Z]\d{1,2}|P[A-Z]\d{1,2})$/;

/** `configName`: the MPLAB X configuration the MCC state belongs to (`<config configName="free">`). */
export function readMc3(text: string, file: string): { pins: PinAssignment[]; warnings: Finding[]; configName?: string } {
  const doc = parseXml(text, file);
  const warnings = [...doc.problems];
  const pins = new Map<string, PinAssignment>();
  const pinFor = (pad: string, line: number): PinAssignment => {
    let pin = pins.get(pad);
    if (!pin) {
      pin = { pad, functions: [], source: { file, line } };
      pins.set(pad, pin);
    }
    return pin;
  };
  for (const entry of descendantsNamed(doc.root, 'entry')) {
    const key = childNamed(entry, 'key');
    const value = childNamed(entry, 'value');
    if (!key || !value) continue;
    // MCC Classic: <key moduleName="Pin Module" name="RA4custom_name"/><value>LED</value>
    const classic = /^(R[A-Z]\d{1,2}|P[A-Z]\d{1,2})custom_name$/.exec(key.attrs.name ?? '');
    if (classic && value.text) pinFor(classic[1], value.line).userName = value.text;
    if (key.attrs.name === 'state' && value.text.startsWith('{')) {
      let state: unknown;
      try {
        state = JSON.parse(value.text);
      } catch (error) {
        warnings.push({ severity: 'warning', code: 'mplabx-mc3', message: `${file}:${value.line}: MCC state is not valid JSON (${(error as Error).message})`, file, line: value.line });
        continue;
      }
      readMelodyState(state, (pad) => pinFor(pad, value.line));
    }
  }
  return { pins: [...pins.values()], warnings, configName: doc.root?.attrs.configName };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const objectAt = (v: unknown, ...path: string[]): Json => {
  let at: unknown = v;
  for (const key of path) at = isObject(at) ? at[key] : undefined;
  return isObject(at) ? at : {};
};

// Melody keeps the pin grid in the pin-content-processor module: rows keyed
// `PERIPHERAL$SIGNAL$direction` with the pins locked to them, the user's
// names under `cname.eview`, and PPS inputs per module.
function readMelodyState(state: unknown, pinFor: (pad: string) => PinAssignment): void {
  for (const module of Object.values(objectAt(state, 'modules'))) {
    const payload = objectAt(module, 'payload');
    for (const rows of Object.values(objectAt(payload, 'saved', 'rows'))) {
      for (const [row, detail] of Object.entries(isObject(rows) ? rows : {})) {
        const [peripheral = '', signal = '', direction = ''] = row.split('$');
        const label = peripheral === 'GPIO' ? `GPIO ${direction}`.trim() : /x$/.test(signal) ? `${peripheral} ${signal}` : signal;
        // "L" marks a pin locked to the row, the user's choice; other states are offers.
        for (const [pad, cell] of Object.entries(objectAt(detail, 'pins'))) {
          if (objectAt({ cell }, 'cell').state === 'L') addFunction(pinFor(pad), label);
        }
      }
    }
    const edited = { ...objectAt(payload, 'userEditedData'), ...objectAt(payload, 'saved', 'userEditedData') };
    for (const [pad, name] of Object.entries(objectAt(edited, 'cname', 'eview'))) {
      if (typeof name === 'string' && name) pinFor(pad).userName = name;
    }
    // The pin manager keeps the same names as `{ RA4: { value: "LED_D2" } }`.
    for (const [pad, entry] of Object.entries(objectAt(payload, 'cname', 'eview', 'dataMap'))) {
      const name = objectAt({ entry }, 'entry').value;
      if (typeof name === 'string' && name && portPin.test(pad)) pinFor(pad).userName = name;
    }
    for (const byPeripheral of Object.values(objectAt(edited, 'inputPPSState'))) {
      for (const signals of Object.values(isObject(byPeripheral) ? byPeripheral : {})) {
        for (const [signal, pad] of Object.entries(isObject(signals) ? signals : {})) {
          if (typeof pad === 'string' && portPin.test(pad)) addFunction(pinFor(pad), signal);
        }
      }
    }
  }
}

function addFunction(pin: PinAssignment, label: string): void {
  if (label && !pin.functions.includes(label)) pin.functions.push(label);
}

const macroSuffix = /^#define\s+(\w+?)_(SetHigh|SetLow|Toggle|GetValue|SetDigitalInput|SetDigitalOutput|SetAnalogMode|TRIS|LAT|PORT|ANS|WPU)\b(.*)$/;

/** `#define LED_SetHigh() do { LATAbits.LATA4 = 1; } while(0)` → LED on RA4. */
export function readPinsHeader(text: string, file: string): PinAssignment[] {
  const found = new Map<string, PinAssignment>();
  let aliasPad: string | undefined;
  text.split(/\r?\n/).forEach((line, index) => {
    const alias = /get\/set\s+(?:IO_)?(\w+)\s+aliases/i.exec(line);
    if (alias) aliasPad = portPin.test(alias[1]) ? alias[1] : undefined;
    const macro = macroSuffix.exec(line.trim());
    if (!macro) return;
    const [, name, , body] = macro;
    const pad = padInMacro(body) ?? aliasPad;
    if (!pad || found.has(name)) return;
    // MCC's default names (IO_RC6) are not the user's names.
    const userName = name === `IO_${pad}` || name === pad ? undefined : name;
    found.set(name, { pad, userName, functions: [], source: { file, line: index + 1 } });
  });
  return [...found.values()];
}

function padInMacro(body: string): string | undefined {
  const pic = /LAT([A-Z])bits\.LAT[A-Z](\d+)|PORT([A-Z])bits\.R[A-Z](\d+)|TRIS([A-Z])bits\.TRIS[A-Z](\d+)|_(?:LAT|TRIS|R)([A-Z])(\d+)\b/.exec(body);
  if (pic) {
    const [port, bit] = [pic[1] ?? pic[3] ?? pic[5] ?? pic[7], pic[2] ?? pic[4] ?? pic[6] ?? pic[8]];
    return `R${port}${bit}`;
  }
  return undefined;
}

/** Harmony's `pin_configurations.csv`: `Pin Number,Pin ID,Custom Name,Function,Mode,Direction,...`. */
export function readPinConfigurationsCsv(text: string, file: string): { pins: PinAssignment[]; warnings: Finding[] } {
  const lines = text.split(/\r?\n/);
  const header = splitCsv(lines[0] ?? '').map((h) => h.trim().toLowerCase());
  const column = (name: string): number => header.indexOf(name);
  const [numberAt, idAt, nameAt, functionAt, directionAt] = ['pin number', 'pin id', 'custom name', 'function', 'direction'].map(column);
  if (idAt < 0) {
    return { pins: [], warnings: [{ severity: 'warning', code: 'mplabx-pin-csv', message: `${file}:1: no "Pin ID" column; pin names not read`, file, line: 1 }] };
  }
  const pins: PinAssignment[] = [];
  lines.slice(1).forEach((line, index) => {
    if (line.trim() === '') return;
    const cells = splitCsv(line).map((c) => c.trim());
    const pad = cells[idAt];
    if (!pad) return;
    const fn = functionAt >= 0 ? cells[functionAt] : '';
    const direction = directionAt >= 0 ? cells[directionAt] : '';
    const userName = nameAt >= 0 && cells[nameAt] ? cells[nameAt] : undefined;
    // "Available" rows are pins the project leaves unused.
    if ((!fn || fn.toLowerCase() === 'available') && !userName) return;
    const functions = fn && fn.toLowerCase() !== 'available' ? [fn === 'GPIO' && direction ? `GPIO ${direction.toLowerCase()}` : fn] : [];
    const number = numberAt >= 0 ? Number.parseInt(cells[numberAt] ?? '', 10) : Number.NaN;
    pins.push({
      pad,
      userName,
      functions,
      pinNumber: Number.isFinite(number) ? number : undefined,
      source: { file, line: index + 2 },
    });
  });
  return { pins, warnings: [] };
}

function splitCsv(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') cells.push(cell), (cell = '');
    else cell += ch;
  }
  cells.push(cell);
  return cells;
}
