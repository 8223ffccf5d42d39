// Compact markdown for a prompt: what the agent must respect about the board, each fact with the
// file:line it came from. Long lists become ranges; the full pin table stays in the JSON.
import { dirname, relative } from 'node:path';
import type { Bus, Finding, HardwareContext, Pin, SourceRef } from '../types.js';
import { isSimulatedMcu } from './simulated-mcu.js';

const MAX_WARNINGS = 8;
const MAX_FINDINGS = 30;

interface Citer {
  (ref: SourceRef | undefined): string;
}

/** A path with no empty, `.` or `..` segment and no trailing slash: one that path.normalize leaves as it is. */
const NORMAL_PATH = /^\/?(?:[^/]+\/)*[^/]+$/;
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;
const isNormal = (file: string): boolean => NORMAL_PATH.test(file) && !DOT_SEGMENT.test(file);

/**
 * `file` relative to `dir`, which it starts with (`dir/`): the rest of the string when both are
 * already normal absolute paths (what path.relative would give, without resolving both against
 * the working folder for each of a context's hundreds of citations), else path.relative's answer.
 */
function below(dir: string, file: string): string {
  return dir.startsWith('/') && isNormal(dir) && isNormal(file) ? file.slice(dir.length + 1) : relative(dir, file);
}

/** Paths inside the platform print as `P/…`, inside the sketch as relative paths. */
function makeCiter(context: HardwareContext): Citer {
  const platform = context.toolchain?.path;
  const sketchMain = context.inputs.find((file) => /\.(ino|pde)$/.test(file));
  const sketchDir = sketchMain ? dirname(sketchMain) : undefined;
  const short = (file: string): string => {
    if (platform && file === platform) return 'P';
    if (platform && file.startsWith(`${platform}/`)) return `P/${below(platform, file)}`;
    if (sketchDir && file.startsWith(`${sketchDir}/`)) return below(sketchDir, file);
    // boardbridge's own cited data files (chip facts no Arduino file holds).
    const data = file.lastIndexOf('/boards/data/');
    if (data >= 0) return `boardbridge ${file.slice(data + 1)}`;
    return file;
  };
  return (ref) => (ref?.file ? `${short(ref.file)}${ref.line ? `:${ref.line}` : ''}` : '');
}

const withSource = (text: string, cite: string): string => (cite ? `${text} (${cite})` : text);

/** `D2, D3, D4, D5` → `D2–D5`: consecutive pin numbers collapse into ranges. */
export function pinRanges(pins: number[]): string {
  const sorted = [...new Set(pins)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let index = 0; index < sorted.length; index++) {
    let end = index;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
    parts.push(end - index >= 2 ? `D${sorted[index]}–D${sorted[end]}` : sorted.slice(index, end + 1).map((n) => `D${n}`).join(', '));
    index = end;
  }
  return parts.join(', ');
}

function pinLabel(pin: Pin | undefined, number: number | string): string {
  const analog = pin?.names.find((name) => /^A\d+$/.test(name));
  return analog ? `D${number}/${analog}` : `D${number}`;
}

function renderPins(context: HardwareContext, fullCite: Citer): string[] {
  let cite = fullCite;
  const sources = context.board.sources ?? {};
  const knowledge = context.knowledge ?? {};
  const pins = context.pins;
  if (pins.length === 0) return ['## Pins', '- No pin table: see the warnings.'];
  const numbers = (capability: Pin['capabilities'][number]) => pins.filter((pin) => pin.capabilities.includes(capability)).map((pin) => Number(pin.number));
  const header = pins[0].source?.file;
  const lines = [`## Pins (${cite({ file: header ?? '' })}; ":n" is a line of that file)`];
  const outer = cite;
  // Facts from the pin header cite only the line, to keep the section short.
  cite = (ref) => (ref?.file && ref.file === header && ref.line ? `:${ref.line}` : outer(ref));
  const unknown = (kind: string, fallback: string): string | undefined => {
    const entry = knowledge[kind];
    if (entry && !entry.known) return `unknown (${entry.reason ?? fallback}${entry.source ? `: ${cite(entry.source)}` : ''})`;
    return undefined;
  };
  const digital = numbers('digital');
  const analogOnly = pins.filter((pin) => !pin.capabilities.includes('digital') && pin.capabilities.includes('analog-in')).map((pin) => Number(pin.number));
  lines.push(withSource(`- ${digital.length} digital pins ${pinRanges(digital)}${analogOnly.length > 0 ? `; analog-only pins ${pinRanges(analogOnly)}` : ''}`, cite(sources.NUM_DIGITAL_PINS)));
  const analog = pins.filter((pin) => pin.capabilities.includes('analog-in'));
  const analogUnknown = unknown('analog', 'no analog table');
  if (analogUnknown && analog.length === 0) lines.push(`- Analog inputs (analogRead): ${analogUnknown}`);
  else if (analog.length > 0) {
    const names = analog.map((pin) => {
      const name = pin.names.find((entry) => /^A\d+$/.test(entry));
      const channel = pin.details?.['analog-in']?.text;
      return `${name ? `${name}=` : ''}D${pin.number}${channel ? ` ${channel}` : ''}`;
    });
    lines.push(withSource(`- Analog inputs (analogRead): ${names.join(', ')}`, cite(knowledge.analog?.source ?? sources.analogInputToDigitalPin ?? sources.NUM_ANALOG_INPUTS)));
  }
  const dac = pins.filter((pin) => pin.capabilities.includes('analog-out'));
  if (dac.length > 0) lines.push(withSource(`- DAC (true analog output): ${dac.map((pin) => `D${pin.number}${pin.details?.['analog-out'] ? ` ${pin.details['analog-out'].text}` : ''}`).join(', ')}`, cite(knowledge.dac?.source)));
  const pwmUnknown = unknown('pwm', 'no digitalPinHasPWM');
  const pwm = pwmUnknown ?? (pinRanges(numbers('pwm')) || 'none');
  lines.push(withSource(`- PWM (${knowledge.pwm?.api ?? 'analogWrite'}): ${pwm}`, pwmUnknown ? '' : cite(knowledge.pwm?.source ?? sources.digitalPinHasPWM)));
  const shared = (context.timerGroups ?? []).filter((group) => group.pins.length > 1);
  if (shared.length > 0) lines.push(`  - pins sharing a timer share its frequency: ${shared.map((group) => `${group.timer}: ${pinRanges(group.pins.map(Number))}`).join('; ')}${citeAll(shared.map((group) => group.source), cite)}`);
  const interrupts = pins.filter((pin) => pin.interrupt !== undefined);
  const identity = interrupts.length > 0 && interrupts.every((pin) => pin.interrupt === Number(pin.number));
  const interruptText = unknown('interrupt', 'no digitalPinToInterrupt') ?? (identity ? `${pinRanges(interrupts.map((pin) => Number(pin.number)))} (the pin number is the interrupt number)` : interrupts.map((pin) => `D${pin.number}→${pin.interrupt}`).join(', ') || 'none');
  lines.push(withSource(`- External interrupts (attachInterrupt(digitalPinToInterrupt(pin), …)): ${interruptText}`, knowledge.interrupt && !knowledge.interrupt.known ? '' : cite(knowledge.interrupt?.source ?? sources.digitalPinToInterrupt)));
  const leds = pins.filter((pin) => pin.names.some((name) => name.startsWith('LED_BUILTIN')));
  if (leds.length > 0) lines.push(withSource(`- ${leds.map((pin) => `${pin.names.filter((name) => name.startsWith('LED_BUILTIN')).join('/')} = D${pin.number}`).join(', ')}`, cite(sources.LED_BUILTIN)));
  for (const bus of context.buses.filter((entry) => entry.kind === 'i2c' || entry.kind === 'spi')) lines.push(renderBus(bus, pins, cite));
  const serial = context.buses.filter((bus) => bus.kind === 'uart' || bus.kind === 'usb');
  if (serial.length > 0) {
    const names = serial.map((bus) => {
      const roles = Object.entries(bus.pins).map(([role, number]) => `${role}=D${number}`).join(' ');
      return `${bus.name}${bus.kind === 'usb' ? ' (USB)' : ''}${roles ? ` (${roles})` : ''}`;
    }).join(', ');
    const serialUnknown = knowledge.serial && !knowledge.serial.known ? `; whether others exist is unknown (${knowledge.serial.reason})` : '; no other SerialN exists on this board';
    lines.push(withSource(`- Serial ports: ${names}${serialUnknown}`, cite(serial[0].source)));
  }
  lines.push(...renderTraps(pins, cite));
  lines.push('- Full pin table with every name: in the JSON context.');
  return lines;
}

// Several facts from one file cite it once: ` (P/variants/MINIMA/pinmux.inc:109, 168, 181)`.
function citeAll(sources: Array<SourceRef | undefined>, cite: Citer): string {
  const known = sources.filter((source): source is SourceRef => source !== undefined);
  if (known.length === 0) return '';
  const file = known[0].file;
  if (!known.every((source) => source.file === file)) return ` (${[...new Set(known.map((source) => cite(source)))].join(', ')})`;
  const lines = [...new Set(known.map((source) => source.line).filter((line) => line !== undefined))];
  if (lines.length === 0) return ` (${cite({ file })})`;
  const first = cite({ file, line: lines[0] });
  return ` (${first}${lines.slice(1).map((line) => `, ${line}`).join('')})`;
}

// Chip traps grouped by kind: "Input only: D34–D39 (source)".
function renderTraps(pins: Pin[], cite: Citer): string[] {
  const groups = new Map<string, { text: string; pins: number[]; source?: SourceRef }>();
  for (const pin of pins) {
    for (const trap of pin.traps ?? []) {
      const group = groups.get(trap.code) ?? { text: trap.text, pins: [], source: trap.source };
      group.pins.push(Number(pin.number));
      groups.set(trap.code, group);
    }
  }
  return [...groups.values()].map((group) => withSource(`- ${group.text}: ${pinRanges(group.pins)}`, cite(group.source)));
}

function renderBus(bus: Bus, pins: Pin[], cite: Citer): string {
  const roles = Object.entries(bus.pins).map(([role, number]) => `${role}=${pinLabel(pins[Number(number)], number)}`);
  const kind = bus.kind.toUpperCase();
  return withSource(`- ${bus.name === kind ? bus.name : `${bus.name} (${kind})`}: ${roles.join(', ')}`, cite(bus.source));
}

function renderFinding(finding: Finding, cite: Citer): string {
  const where = cite(finding.file ? { file: finding.file, line: finding.line } : undefined);
  const fix = finding.suggestion ? ` Fix: ${finding.suggestion}` : '';
  return `- ${finding.severity.toUpperCase()} ${where ? `${where} ` : ''}[${finding.code}] ${finding.message}.${fix}`;
}

export function renderArduinoContext(context: HardwareContext): string {
  const cite = makeCiter(context);
  const { board, toolchain } = context;
  const sources = board.sources ?? {};
  const lines = [`# Arduino board: ${board.name} — \`${board.id}\`${sources.id ? ` (selected in ${cite(sources.id)})` : ''}`];
  if (toolchain?.path) lines.push(`Platform P = ${toolchain.path} (${toolchain.name}${toolchain.version ? ` ${toolchain.version}` : ''}). You may read (never write): ${context.readOnlyRoots.map((root) => cite({ file: root }) || root).join(', ')}.`);
  if (board.mcu) lines.push(withSource(`- MCU: ${board.mcu}`, cite(sources.mcu)) + (board.clockHz ? withSource(`, clock ${board.clockHz / 1e6} MHz`, cite(sources.clockHz)) : ''));
  if (board.flashBytes) lines.push(withSource(`- Flash for the sketch: ${board.flashBytes} bytes`, cite(sources.flashBytes)) + (board.ramBytes ? withSource(`; RAM: ${board.ramBytes} bytes`, cite(sources.ramBytes)) : ''));
  const upload = toolchain?.upload;
  if (upload?.tool) lines.push(withSource(`- Upload: ${upload.tool}${upload.protocol ? `, protocol ${upload.protocol}` : ''}${upload.speed ? `, ${upload.speed} baud` : ''}${upload.method ? `, ${upload.method}` : ''}`, cite(toolchain?.source)));
  if (isSimulatedMcu(board.mcu)) {
    lines.push('- Simulator: the `simulate` tool (or `boardbridge simulate` in a terminal) compiles and runs the sketch on a simulated board: serial output, pin timing, PWM duty and frequency, scripted inputs (`2=low@1.5s`, `A0=512`); no device changes, so try it before an upload.');
    if (context.wiring) lines.push("- Circuit: the sketch's diagram.json parts are simulated with it (part states over time); a Wokwi scenario runs as a test (`simulate` with `scenario`, or `boardbridge simulate --scenario FILE.test.yaml`); `sim_start`/`sim_run`/`sim_control`/`sim_parts` steer a run step by step.");
  }
  const options = toolchain?.options ?? [];
  if (options.length > 0) lines.push(`- Menu options: ${options.map((option) => withSource(`${option.name} = ${option.value}`, cite(option.source))).join('; ')}`);
  lines.push(...renderPins(context, cite));
  if (context.wiring && context.wiring.length > 0) {
    lines.push(`## Wiring (${cite({ file: context.wiring.find((pin) => pin.source)?.source?.file ?? '' }) || 'diagram.json'}, Wokwi's circuit)`);
    for (const pin of context.wiring) lines.push(withSource(`- ${pin.pin} → ${pin.to.join(', ')}`, cite(pin.source)));
  }

  const included = context.libraries.filter((ref) => ref.location !== 'toolchain');
  // What a library's own files say (Servo's timers) goes with the library.
  const ofLibrary = (context.notes ?? []).filter((note) => included.some((ref) => ref.path && ref.location !== 'sketch' && note.source?.file.startsWith(`${ref.path}/`)));
  if (included.length > 0) {
    lines.push('## Includes');
    for (const ref of included) {
      const where = ref.location === undefined ? 'NOT FOUND' : ref.name ? `${ref.name}${ref.version ? ` ${ref.version}` : ''}, ${ref.location} library` : ref.location;
      lines.push(withSource(`- ${ref.include} → ${where}`, cite(ref.source)));
    }
    for (const note of ofLibrary) lines.push(withSource(`- ${note.text}`, cite(note.source)));
  }
  const fromIde = (context.notes ?? []).filter((note) => note.source?.file.startsWith('Arduino IDE'));
  const coreNotes = (context.notes ?? []).filter((note) => !fromIde.includes(note) && !ofLibrary.includes(note));
  if (coreNotes.length > 0) {
    lines.push('## This core');
    for (const note of coreNotes) lines.push(withSource(`- ${note.topic}: ${note.text}`, cite(note.source)));
  }
  if (fromIde.length > 0) {
    lines.push('## From the Arduino IDE');
    for (const note of fromIde) lines.push(`- ${note.topic}: ${note.text}`);
  }
  // INFO findings (what was not checked, and why) are in the JSON context only.
  const findings = context.findings.filter((finding) => finding.severity !== 'info');
  if (findings.length > 0) {
    lines.push('## Findings in the sketch');
    lines.push(...findings.slice(0, MAX_FINDINGS).map((finding) => renderFinding(finding, cite)));
    if (findings.length > MAX_FINDINGS) lines.push(`- …and ${findings.length - MAX_FINDINGS} more (see the JSON context).`);
  }
  const warnings = context.warnings.filter((warning) => warning.severity !== 'info');
  if (warnings.length > 0) {
    lines.push('## Warnings about the installed files');
    lines.push(...warnings.slice(0, MAX_WARNINGS).map((warning) => `- ${warning.message}`));
    if (warnings.length > MAX_WARNINGS) lines.push(`- …and ${warnings.length - MAX_WARNINGS} more.`);
  }
  return `${lines.join('\n')}\n`;
}
