// Pins, their names and capabilities, and the buses: first from the variant header's own macros
// (digitalPinHasPWM, digitalPinToInterrupt, analogInputToDigitalPin) and constants, then from the
// core's own tables where a reader knows the core (core-tables/). A capability the files do not
// establish is unknown, with the reason, never "none".
import type { Bus, ContextNote, Finding, Knowledge, Pin, PinCapability, SourceRef } from '../types.js';
import { StampedCache } from './cache.js';
import { inOneCommandProcess } from '../../platform/one-command.js';
import { readCoreFacts, type CoreFacts } from './core-tables/index.js';
import { readAvrTimers } from './avr-timers.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import { portsOfMacros, readSerialObjects } from './serial-objects.js';
import { readVariantHeader, type VariantHeader } from './variant-header.js';

export type CapabilityKind = 'pwm' | 'interrupt' | 'analog' | 'dac' | 'serial';

export interface PinMap {
  header?: string;
  digitalPinCount?: number;
  analogInputCount?: number;
  /** Which kinds of fact the files establish; the sketch check raises errors only from known ones. */
  knowledge: Record<CapabilityKind, Knowledge>;
  pins: Pin[];
  buses: Bus[];
  /** Serial objects the board has (`Serial`, `Serial1`, …). */
  serialPorts: string[];
  /** Serial objects the core's headers name only under a condition not established here. */
  serialUncertain: string[];
  /** Every integer name a sketch may use for a pin (A0, LED_BUILTIN, SDA, PIN_SPI_SS, …) → pin. */
  pinNames: Map<string, number>;
  /** Where each macro used for capabilities was defined. */
  sources: Record<string, SourceRef>;
  files: string[];
  warnings: Finding[];
  /** The header model, for evaluating sketch expressions such as `digitalPinToInterrupt(2)`. */
  variant: VariantHeader;
  /** The core's own tables, when a reader knows this board's core. */
  core?: CoreFacts;
  timerGroups: Array<{ timer: string; pins: number[]; source?: SourceRef }>;
  /** The timer of each PWM pin, where a table says (`Timer 2` for the Uno's D3). */
  pwmTimers: Map<number, { timer: string; source?: SourceRef }>;
  /**
   * The pins with a pin-change interrupt, where the variant's `digitalPinToPCICR(p)` (AVR) gives a
   * register or the null pointer for every pin: SoftwareSerial receives only on these.
   */
  pinChange?: { pins: number[]; source?: SourceRef };
  /** The timer tone() takes, where the core's Tone.cpp says. */
  toneTimer?: { timer: string; source: SourceRef };
  notes: ContextNote[];
}

const NOT_AN_INTERRUPT_FALLBACK = -1;
// A named pin past this is not a pin number (a sentinel such as 255 for "none").
const MAX_PIN_NUMBER = 255;

const BUS_ROLES: Array<{ name: string; capability: PinCapability; fn: string }> = [
  { name: 'SDA', capability: 'i2c', fn: 'I2C SDA' },
  { name: 'SCL', capability: 'i2c', fn: 'I2C SCL' },
  { name: 'SS', capability: 'spi', fn: 'SPI SS' },
  { name: 'MOSI', capability: 'spi', fn: 'SPI MOSI' },
  { name: 'MISO', capability: 'spi', fn: 'SPI MISO' },
  { name: 'SCK', capability: 'spi', fn: 'SPI SCK' },
];

// `TX`/`RX` (esp8266, esp32) and `PIN_SERIAL1_RX` style macros (stm32duino, SAMD) name UART pins.
function serialRole(name: string): { capability: PinCapability; fn: string } | undefined {
  const match = /^(?:PIN_SERIAL(\d*)_?)?(RX|TX)$/.exec(name);
  return match ? { capability: 'uart', fn: `Serial${match[1] ?? ''} ${match[2]}` } : undefined;
}

function addCapability(pin: Pin, capability: PinCapability): void {
  if (!pin.capabilities.includes(capability)) pin.capabilities.push(capability);
}

// A pin past NUM_DIGITAL_PINS is named by the variant (A6 of a Nano is pin 20) but is not known to
// work as a digital pin until a core table says so.
function newPin(number: number, header: string | undefined, digital = true): Pin {
  return { number, names: [`D${number}`], capabilities: digital ? ['digital'] : [], ...(header ? { source: { file: header } } : {}) };
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

// Shorter names first, then localeCompare's order. The first localeCompare in a process builds
// ICU's collator (5-15 ms of a cold context); where the first difference is an ASCII digit
// against a digit or a letter, every locale puts digits first in code-unit order, so it is not needed.
function byLengthThenName(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  let index = 0;
  while (index < a.length && a[index] === b[index]) index++;
  if (index === a.length) return 0;
  const [x, y] = [a.charCodeAt(index), b.charCodeAt(index)];
  const asciiLetter = (code: number): boolean => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  if ((isDigit(x) && (isDigit(y) || asciiLetter(y))) || (isDigit(y) && asciiLetter(x))) return x - y;
  return a.localeCompare(b);
}

// Pin maps of boards already read, until one of their files changes: sketches of one board share
// it (the false-finding sweep runs hundreds of sketches per board).
const cache = new StampedCache<PinMap>(64);

/** Where pin maps read by another process are kept (pin-map-store.ts). */
export interface PinMapStorage {
  get(board: ResolvedBoard): PinMap | undefined;
  set(board: ResolvedBoard, map: PinMap): void;
}

/** The board's pin map: from this process's cache, else from `store` (another process read it), else read now. */
export function buildPinMap(board: ResolvedBoard, store?: PinMapStorage): PinMap {
  const key = `${board.fqbn}\0${board.corePath}\0${board.variantPath ?? ''}\0${board.properties.get('recipe.cpp.o.pattern') ?? ''}\0${board.expanded('build.extra_flags') ?? ''}`;
  const cached = cache.get(key);
  if (cached) return copyOf(cached);
  let map = store?.get(board);
  if (!map) {
    map = readPinMap(board);
    store?.set(board, map);
  }
  cache.set(key, map, [...map.files, ...(board.variantPath ? [board.variantPath] : [])]);
  return copyOf(map);
}

// Callers may add to the pins and buses of a context: each gets its own, unless the process runs one
// command, whose one context is the map's only user.
function copyOf(map: PinMap): PinMap {
  if (inOneCommandProcess()) return map;
  return { ...map, pins: structuredClone(map.pins), buses: structuredClone(map.buses), warnings: [...map.warnings], notes: [...map.notes], knowledge: { ...map.knowledge }, timerGroups: structuredClone(map.timerGroups) };
}

function readPinMap(board: ResolvedBoard): PinMap {
  const variant = readVariantHeader(board);
  const warnings = [...variant.warnings];
  // Keyed by the variant's macro names.
  const sources: Record<string, SourceRef> = Object.create(null);
  const macroSource = (name: string): SourceRef | undefined => {
    const source = variant.macros.get(name)?.source;
    if (source) sources[name] = source;
    return source;
  };
  const digitalPinCount = variant.evaluate('NUM_DIGITAL_PINS');
  const analogInputCount = variant.evaluate('NUM_ANALOG_INPUTS');
  macroSource('NUM_DIGITAL_PINS');
  macroSource('NUM_ANALOG_INPUTS');
  macroSource('LED_BUILTIN');
  const pinNames = collectPinNames(variant);
  const noTable = variant.header ? `${variant.header} has no NUM_DIGITAL_PINS` : (warnings[0]?.message ?? `${board.fqbn} has no variant header`);
  const knowledge: Record<CapabilityKind, Knowledge> = {
    pwm: { known: false, reason: noTable },
    interrupt: { known: false, reason: noTable },
    analog: { known: false, reason: noTable },
    dac: { known: false, reason: 'the variant header states no DAC pins' },
    serial: { known: false, reason: 'not read' },
  };

  const pins: Pin[] = [];
  let pinChange: PinMap['pinChange'];
  if (digitalPinCount === undefined) {
    if (variant.header) warnings.push({ severity: 'warning', code: 'pins-no-count', message: `${variant.header}: NUM_DIGITAL_PINS is not defined or not a number; no pin table`, file: variant.header });
  } else {
    for (let number = 0; number < digitalPinCount; number++) pins.push(newPin(number, variant.header));
    knowledge.pwm = pinMacroKnowledge(variant, 'digitalPinHasPWM', pins, (pin, value) => value !== 0 && addCapability(pin, 'pwm'), macroSource);
    const notAnInterrupt = variant.evaluate('NOT_AN_INTERRUPT') ?? NOT_AN_INTERRUPT_FALLBACK;
    knowledge.interrupt = pinMacroKnowledge(variant, 'digitalPinToInterrupt', pins, (pin, value) => {
      if (value === notAnInterrupt || value < 0) return;
      addCapability(pin, 'interrupt');
      pin.interrupt = value;
    }, macroSource);
    pinChange = pinChangePins(variant, pins);
    // AVR's NUM_DIGITAL_PINS covers every pin of the core's port tables (checked against avr-gcc);
    // elsewhere analog inputs may lie past it.
    knowledge.analog = markAnalogInputs(pins, variant, analogInputCount, pinNames, macroSource, board.architecture !== 'avr');
    for (const [name, number] of pinNames) {
      const pin = pins[number];
      if (!pin) continue;
      if (!pin.names.includes(name)) pin.names.push(name);
      if (name === 'LED_BUILTIN') addCapability(pin, 'led');
      const role = BUS_ROLES.find((entry) => entry.name === name) ?? serialRole(name);
      if (role) {
        addCapability(pin, role.capability);
        (pin.functions ??= []).push(role.fn);
      }
    }
  }

  // forEach over a header's hundreds of macros: a for...of makes objects per step where a first context runs (Properties.forEach).
  variant.macros.forEach((macro, name) => {
    if (!macro.params && name.startsWith('SERIAL_PORT_') && /^Serial(\d+|USB)?$/.test(variant.expandText(name)?.trim() ?? '')) macroSource(name);
  });
  const core = readCoreFacts(board, variant);
  // The core's own rule for its serial ports is the whole statement (below): the headers' extern
  // declarations are read only when there is no such rule, or it does not establish them.
  const coreSerialPorts = core?.known.serial.known ? core.serialPorts : undefined;
  const serial = coreSerialPorts ? undefined : readSerialObjects(board, variant);
  if (serial) {
    warnings.push(...serial.warnings);
    knowledge.serial = serial.knowledge;
  }
  // Without the headers' reading, the variant's SERIAL_PORT_* macros still name the ports first (the core's rule keeps those it links).
  const serialPorts = new Set(serial ? serial.ports : [...portsOfMacros(variant)].filter((port) => port === 'Serial' || coreSerialPorts?.some((entry) => entry.name === port)));
  let serialUncertain = serial?.uncertain ?? [];
  let buses = busesOf(variant, pinNames, [...serialPorts]);
  let timerGroups: PinMap['timerGroups'] = [];
  const pwmTimers: PinMap['pwmTimers'] = new Map();
  let toneTimer: PinMap['toneTimer'];
  const notes: ContextNote[] = [];
  const avr = readAvrTimers(board, variant);
  if (avr) {
    timerGroups = avr.groups;
    toneTimer = avr.tone;
    const stopped = avr.groups.find((group) => group.timer === avr.tone?.timer)?.pins ?? [];
    if (avr.tone) notes.push({ topic: 'tone()', text: `takes ${avr.tone.timer}${stopped.length > 0 ? `: while a tone plays, ${stopped.map((pin) => `D${pin}`).join(', ')} ${stopped.length > 1 ? 'give' : 'gives'} no PWM` : ''}`, source: avr.tone.source });
    for (const [number, entry] of avr.pinTimers) {
      pwmTimers.set(number, { timer: entry.timer, source: entry.source });
      const pin = pins[number];
      if (pin?.capabilities.includes('pwm')) (pin.details ??= {}).pwm = { text: entry.text, source: entry.source };
    }
  }
  if (core) {
    mergeCoreFacts(core, pins, knowledge, variant.header);
    warnings.push(...core.warnings);
    if (coreSerialPorts) {
      // The core's own rule is the whole statement (Renesas declares _UART1_…_UART5_ but links
      // only SERIAL_HOWMANY of them).
      serialPorts.clear();
      serialPorts.add('Serial');
      for (const port of coreSerialPorts) serialPorts.add(port.name);
      knowledge.serial = core.known.serial;
      serialUncertain = [];
    } else if (!core.known.serial.known && !knowledge.serial.known) {
      knowledge.serial = core.known.serial;
    }
    // Serial buses found in the headers but not ports by the core's own rule (Renesas' Serial2 is
    // a macro for _UART2_, which only exists below SERIAL_HOWMANY) are dropped.
    buses = mergeBuses(buses.filter((bus) => (bus.kind !== 'uart' && bus.kind !== 'usb') || serialPorts.has(bus.name)), core, [...serialPorts]);
    timerGroups = core.sharedTimers ?? [];
    for (const group of timerGroups) for (const number of group.pins) pwmTimers.set(number, { timer: group.timer, ...(group.source ? { source: group.source } : {}) });
    notes.push(...core.notes);
  }
  return {
    header: variant.header,
    digitalPinCount,
    analogInputCount,
    knowledge,
    pins,
    buses,
    serialPorts: [...serialPorts].sort(byLengthThenName),
    serialUncertain: serialUncertain.filter((name) => !serialPorts.has(name)),
    pinNames,
    sources,
    files: [...new Set([...variant.files, ...(serial?.files ?? []), ...(core?.files ?? []), ...(avr?.files ?? [])])],
    warnings,
    variant,
    core,
    timerGroups,
    pwmTimers,
    ...(toneTimer ? { toneTimer } : {}),
    ...(pinChange ? { pinChange } : {}),
    notes,
  };
}

// Known only when digitalPinToPCICR(p) gives an address or the null pointer for every pin.
// Its source is kept with the finding, not among the context's capability sources.
function pinChangePins(variant: VariantHeader, pins: Pin[]): PinMap['pinChange'] {
  const truth = variant.pinPointerTruth('digitalPinToPCICR');
  if (!truth) return undefined;
  const values = pins.map((pin) => truth(Number(pin.number)));
  if (values.some((value) => value === undefined)) return undefined;
  const source = variant.macros.get('digitalPinToPCICR')?.source;
  return { pins: pins.filter((_, index) => values[index] === 1).map((pin) => Number(pin.number)), ...(source ? { source } : {}) };
}

// A pin macro is a known fact only when it gives a number for every pin; a macro that calls into
// the core at run time (Renesas' digitalPinHasPWM reads g_pin_cfg) says nothing here.
function pinMacroKnowledge(variant: VariantHeader, macro: string, pins: Pin[], apply: (pin: Pin, value: number) => void, macroSource: (name: string) => SourceRef | undefined): Knowledge {
  const source = macroSource(macro);
  const fn = variant.pinFunction(macro);
  if (!fn) return { known: false, reason: `the variant defines no ${macro}` };
  const values = pins.map((pin) => fn(Number(pin.number)));
  if (values.some((value) => value === undefined)) return { known: false, reason: `${macro}(p) is computed at run time, not from constants`, ...(source ? { source } : {}) };
  values.forEach((value, index) => apply(pins[index], value!));
  return { known: true, ...(source ? { source } : {}) };
}

// analogInputToDigitalPin(i) where defined (the core's own mapping), else the constant A<i>.
function markAnalogInputs(pins: Pin[], variant: VariantHeader, count: number | undefined, pinNames: Map<string, number>, macroSource: (name: string) => SourceRef | undefined, extend: boolean): Knowledge {
  const countSource = macroSource('NUM_ANALOG_INPUTS');
  if (count === undefined) return { known: false, reason: 'the variant gives no NUM_ANALOG_INPUTS' };
  const mappingSource = macroSource('analogInputToDigitalPin');
  const toDigital = variant.pinFunction('analogInputToDigitalPin');
  for (let input = 0; input < count; input++) {
    const number = toDigital ? toDigital(input) : pinNames.get(`A${input}`);
    if (number === undefined) return { known: false, reason: `A${input} has no pin number in the variant` };
    // Analog inputs past NUM_DIGITAL_PINS (a Nano's A6 is pin 20, MKR's A0 pin 15) are pins too.
    if (extend && number >= pins.length && number < MAX_PIN_NUMBER) while (pins.length <= number) pins.push(newPin(pins.length, pins[0]?.source?.file, false));
    const pin = number >= 0 ? pins[number] : undefined;
    if (!pin) continue;
    addCapability(pin, 'analog-in');
    if (!pin.names.includes(`A${input}`)) pin.names.push(`A${input}`);
  }
  const source = mappingSource ?? countSource;
  return { known: true, ...(source ? { source } : {}) };
}

const CORE_CAPABILITY: Array<[keyof CoreFacts['known'] & CapabilityKind, PinCapability]> = [
  ['pwm', 'pwm'],
  ['analog', 'analog-in'],
  ['interrupt', 'interrupt'],
  ['dac', 'analog-out'],
];

// The core's table wins for every kind of fact it establishes; kinds it leaves unknown keep what
// the variant header said (or its unknown).
function mergeCoreFacts(core: CoreFacts, pins: Pin[], knowledge: Record<CapabilityKind, Knowledge>, header: string | undefined): void {
  for (const corePin of core.pins) while (pins.length <= corePin.number) pins.push(newPin(pins.length, header, false));
  for (const [kind, capability] of CORE_CAPABILITY) {
    const said = core.known[kind];
    if (!said.known) {
      if (!knowledge[kind].known) knowledge[kind] = { known: false, reason: said.reason };
      continue;
    }
    knowledge[kind] = { known: true, ...(said.source ? { source: said.source } : {}), ...(said.api ? { api: said.api } : {}) };
    for (const pin of pins) {
      pin.capabilities = pin.capabilities.filter((entry) => entry !== capability);
      if (capability === 'interrupt') delete pin.interrupt;
      if (pin.details) delete pin.details[capability];
    }
  }
  // The core's table lists every pin it has: a variant number it leaves out (an ESP32's GPIO24,
  // the gap below a Pico W's WiFi pins) is no pin.
  if (core.pins.length > 0) {
    const listed = new Set(core.pins.map((pin) => pin.number));
    for (const pin of pins) if (!listed.has(Number(pin.number))) pin.capabilities = pin.capabilities.filter((entry) => entry !== 'digital');
  }
  for (const corePin of core.pins) {
    const pin = pins[corePin.number];
    addCapability(pin, 'digital');
    for (const name of corePin.names ?? []) if (!pin.names.includes(name)) pin.names.push(name);
    const detail = (capability: PinCapability, text: string, source: SourceRef): void => {
      addCapability(pin, capability);
      (pin.details ??= {})[capability] = { text, source };
    };
    if (corePin.pwm && core.known.pwm.known) detail('pwm', [corePin.pwm.timer, corePin.pwm.channel].filter(Boolean).join(' '), corePin.pwm.source);
    if (corePin.analog && core.known.analog.known) {
      detail('analog-in', corePin.analog.channel, corePin.analog.source);
      if (corePin.analog.input !== undefined && !pin.names.includes(`A${corePin.analog.input}`)) pin.names.push(`A${corePin.analog.input}`);
    }
    if (corePin.dac && core.known.dac.known) detail('analog-out', corePin.dac.channel, corePin.dac.source);
    if (corePin.interrupt && core.known.interrupt.known) {
      detail('interrupt', corePin.interrupt.line ?? `interrupt ${corePin.interrupt.number}`, corePin.interrupt.source);
      pin.interrupt = corePin.interrupt.number;
    }
    for (const role of corePin.functions ?? []) {
      addCapability(pin, role.capability);
      if (!(pin.functions ??= []).includes(role.fn)) pin.functions.push(role.fn);
    }
    if (corePin.traps?.length) pin.traps = [...(pin.traps ?? []), ...corePin.traps];
  }
}

function mergeBuses(buses: Bus[], core: CoreFacts, serialPorts: string[]): Bus[] {
  const merged = buses.filter((bus) => !(core.buses ?? []).some((entry) => entry.name === bus.name));
  merged.push(...(core.buses ?? []));
  for (const port of core.serialPorts ?? []) {
    const existing = merged.find((bus) => bus.name === port.name);
    const pins: Record<string, number> = {};
    if (port.pins?.TX !== undefined) pins.TX = port.pins.TX;
    if (port.pins?.RX !== undefined) pins.RX = port.pins.RX;
    if (existing) {
      if (Object.keys(existing.pins).length === 0) existing.pins = pins;
      continue;
    }
    merged.push({ kind: port.kind, name: port.name, pins, ...(port.source ? { source: port.source } : {}) });
  }
  for (const name of serialPorts) if (!merged.some((bus) => bus.name === name)) merged.push({ kind: 'uart', name, pins: {} });
  return merged;
}

/** Names that stand for one pin: header constants, LED_BUILTIN*, PIN_* macros. */
function collectPinNames(variant: VariantHeader): Map<string, number> {
  const names = new Map<string, number>();
  variant.constants.forEach((constant, name) => names.set(name, constant.value));
  variant.macros.forEach((macro, name) => {
    if (macro.params || !(name.startsWith('LED_BUILTIN') || name.startsWith('PIN_'))) return;
    const value = variant.evaluate(name);
    if (value !== undefined && value >= 0) names.set(name, value);
  });
  return names;
}

function busesOf(variant: VariantHeader, pinNames: Map<string, number>, serialPorts: string[]): Bus[] {
  const buses: Bus[] = [];
  const sourceOf = (name: string): SourceRef | undefined => variant.constants.get(name)?.source ?? variant.macros.get(name)?.source;
  const group = (kind: string, name: string, roles: string[]): void => {
    const pins: Record<string, number> = {};
    for (const role of roles) if (pinNames.has(role)) pins[role] = pinNames.get(role)!;
    if (Object.keys(pins).length === 0) return;
    const source = sourceOf(roles.find((role) => pinNames.has(role))!);
    buses.push({ kind, name, pins, ...(source ? { source } : {}) });
  };
  group('i2c', 'Wire', ['SDA', 'SCL']);
  group('spi', 'SPI', ['SS', 'MOSI', 'MISO', 'SCK']);
  const usbSerial = variant.expandText('SERIAL_PORT_USBVIRTUAL')?.trim();
  for (const port of serialPorts) {
    const source = [...variant.macros.values()].find((macro) => macro.name.startsWith('SERIAL_PORT_') && variant.expandText(macro.name)?.trim() === port)?.source;
    buses.push({ kind: port === usbSerial || port === 'SerialUSB' ? 'usb' : 'uart', name: port, pins: {}, ...(source ? { source } : {}) });
  }
  return buses;
}
