// Checks a sketch's pin and peripheral use against the board: pinMode/digitalWrite/digitalRead,
// analogWrite on a non-PWM pin, analogRead on a non-analog pin, attachInterrupt on a pin without
// an interrupt, tone, Serial ports the board lacks, Wire/SPI use, and flash/RAM from a build.
import { basename } from 'node:path';
import type { Finding, Pin } from '../types.js';
import type { Token } from './c-tokens.js';
import { readLibraryDeclarations } from './library-declarations.js';
import { citedDeclarations, libraryPinUses, type LibraryPinUse } from './library-pins.js';
import { libraryTimerFindings } from './library-timer-check.js';
import type { LibraryTimers } from './library-timers.js';
import type { PinMap } from './pin-map.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import { readSketchSymbols, type SketchSymbols } from './sketch-symbols.js';
import { softwareSerialRxFindings } from './software-serial-rx.js';

interface Call {
  name: string;
  receiver?: string;
  args: Token[][];
  token: Token;
  /** Index of the name token in the sketch's tokens. */
  at: number;
  /** A pin handed to a library object, checked as the pinMode the library does with it. */
  library?: LibraryPinUse;
}

const STATEMENT_KEYWORDS = new Set(['return', 'else', 'do', 'case', 'throw', 'co_return', 'co_yield']);
const PIN_CALLS = new Set(['pinMode', 'digitalWrite', 'digitalRead', 'analogWrite', 'analogRead', 'attachInterrupt', 'tone', 'noTone', 'pulseIn', 'shiftOut', 'shiftIn']);
const DIGITAL_CALLS = new Set(['pinMode', 'digitalWrite', 'digitalRead', 'pulseIn', 'shiftOut', 'shiftIn', 'tone', 'noTone']);
// The calls a core may bounds-check against its pin table (CoreFacts.pinsPastTableIgnored).
const PAST_TABLE_IGNORED = new Set(['pinMode', 'digitalWrite', 'digitalRead', 'analogWrite']);
// Words that may stand before a global `::f` without qualifying it (`return ::analogWrite(…)`).
const NOT_QUALIFIERS = new Set(['return', 'else', 'do', 'case', 'throw', 'new', 'delete', 'co_return', 'co_yield', 'co_await', 'sizeof']);
const NOT_CALLS = new Set(['if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined', 'catch', 'alignof', 'decltype', 'static_assert']);

export interface CheckOptions {
  /** False when some #include could not be read: a header not read may include Wire.h itself. */
  includesComplete?: boolean;
  /** Timers the sketch's libraries take (Servo's ServoTimers.h). */
  libraryTimers?: LibraryTimers[];
  /** Checks the pins the sketch uses against a circuit (a diagram.json beside the sketch). */
  wiring?(uses: Array<{ pin: number; call: string; mode?: string; file: string; line: number }>): Finding[];
  /** Folders of the libraries the build uses (IncludeResolution.used): their headers may declare a function the core lacks. */
  libraryDirs?: string[];
  /** Library (and core) headers the sketch's includes reach: their classes say which arguments are pins. */
  libraryHeaders?: string[];
}

export function checkSketch(files: string[], dir: string, board: ResolvedBoard, pinMap: PinMap, includes: string[], options: CheckOptions = {}): Finding[] {
  const symbols = readSketchSymbols(files, dir, pinMap);
  const findings: Finding[] = [...symbols.warnings];
  const allCalls = findCalls(symbols.tokens);
  const calls = allCalls.filter((call) => call.receiver === undefined && PIN_CALLS.has(call.name));
  const label = (pin: Pin): string => pin.names.filter((name) => /^(D\d+|A\d+)$/.test(name)).join('/') || String(pin.number);
  const list = (pins: Pin[]): string => pins.map(label).join(', ') || 'none';
  const at = (token: Token) => ({ file: token.file, line: token.line });
  const pinsWith = (capability: Pin['capabilities'][number]) => pinMap.pins.filter((pin) => pin.capabilities.includes(capability));
  const hasPinTable = pinMap.pins.length > 0;
  const { knowledge } = pinMap;
  // Whether analogRead(n) with n below A0 reads A<n>: AVR's wiring_analog.c does; other cores say.
  const channelNumbers = pinMap.core?.analogReadAcceptsChannelNumbers ?? (board.architecture === 'avr' ? true : undefined);
  // The pin table is complete where AVR's NUM_DIGITAL_PINS is (checked against avr-gcc) or the
  // core's own table was read; elsewhere (mbed's LEDR is pin 22 of 21) a larger number may exist.
  const tableComplete = board.architecture === 'avr' || (pinMap.core !== undefined && pinMap.core.pins.length > 0);

  const pinUses: Array<{ pin: number; call: Call }> = [];
  const libraryCalls = libraryPinCalls(symbols, options.libraryHeaders ?? [], includes, pinMap);
  const libraryFound: Array<Finding & { library?: LibraryPinUse }> = [];
  for (const call of [...calls, ...libraryCalls]) {
    if (!hasPinTable) continue;
    const out: Finding[] = [];
    const pinArg = call.name === 'attachInterrupt' ? undefined : call.args[0];
    const values = pinArg ? pinValues(call, symbols) : undefined;
    // Over a loop, one finding per rule, stated for the first value and naming every value it hits.
    const reported = new Map<string, { finding: Finding; pins: number[] }>();
    for (const pin of values ?? []) {
      const once = (finding: Finding): void => {
        const entry = reported.get(finding.code);
        if (entry) entry.pins.push(pin);
        else reported.set(finding.code, { finding, pins: [pin] });
      };
      if (call.name !== 'analogRead' && !call.library) pinUses.push({ pin, call });
      if (call.name !== 'analogRead' && (pin < 0 || pin >= pinMap.pins.length)) {
        const ignored = PAST_TABLE_IGNORED.has(call.name) ? pinMap.core?.pinsPastTableIgnored : undefined;
        if (ignored) once({ severity: 'warning', code: 'pin-range', ...at(call.token), message: `${call.name}(${pin}, …): ${board.name} has pins 0 to ${pinMap.pins.length - 1}; ${ignored.text}${ignored.source?.line ? ` (${basename(ignored.source.file)}:${ignored.source.line})` : ''}, so this call has no effect`, suggestion: 'Use a pin number the board has (see the pin table), or leave the call out if the board has no such pin.' });
        else if (tableComplete) once({ severity: 'error', code: 'pin-range', ...at(call.token), message: `${call.name}(${pin}, …): ${board.name} has pins 0 to ${pinMap.pins.length - 1}`, suggestion: 'Use a pin number the board has (see the pin table).' });
        continue;
      }
      const pinInfo = pinMap.pins[pin];
      if (DIGITAL_CALLS.has(call.name) && !pinInfo.capabilities.includes('digital')) {
        // Past NUM_DIGITAL_PINS only the core's own table (or AVR's, where it is exact) says what works;
        // a number between table rows (a Pico W's 40, below its WiFi pins 64-66) is no pin at all.
        const analogOnly = pinInfo.capabilities.includes('analog-in');
        if (tableComplete) once(analogOnly
          ? { severity: 'error', code: 'pin-analog-only', ...at(call.token), message: `${call.name}(${label(pinInfo)}, …): pin ${pin} is an analog input only on ${board.name}; digital functions do not work there`, suggestion: 'Use a digital pin (see the pin table), or read this pin with analogRead.' }
          : { severity: 'error', code: 'pin-range', ...at(call.token), message: `${call.name}(${pin}, …): ${board.name} has no pin ${pin}`, suggestion: 'Use a pin number the board has (see the pin table).' });
        continue;
      }
      if (call.name === 'analogWrite' && knowledge.pwm.known && !pinMap.pins[pin].capabilities.includes('pwm') && !pinMap.pins[pin].capabilities.includes('analog-out')) {
        once({ severity: 'error', code: 'pwm-pin', ...at(call.token), message: `analogWrite(${label(pinMap.pins[pin])}): pin ${pin} has no PWM on ${board.name}; ${analogWriteEffect(board, pinMap)}`, suggestion: `Use a PWM pin: ${list(pinsWith('pwm'))}.` });
      }
      if (call.name === 'analogRead' && knowledge.analog.known) {
        // AVR and SAMD also accept channel numbers 0..NUM_ANALOG_INPUTS-1 (analogRead(0) is A0).
        const maybeChannel = channelNumbers !== false && pin >= 0 && pin < (pinMap.analogInputCount ?? 0);
        if (!maybeChannel && !pinMap.pins[pin]?.capabilities.includes('analog-in')) {
          // Where analogRead(n) below A0 reads A<n>, a small n is a channel the board does not have.
          const a0 = pinMap.pins.find((entry) => entry.names.includes('A0'))?.number;
          const count = pinMap.analogInputCount ?? 0;
          const message = channelNumbers === true && a0 !== undefined && pin < Number(a0) && count > 0
            ? `analogRead(${pin}): ${board.name} has no A${pin} (analogRead(n) below A0 reads A<n> on this core; the board has ${count} analog inputs, A0–A${count - 1}), and pin ${pin} is no analog input`
            : `analogRead(${pin}): pin ${pin} is not an analog input on ${board.name}`;
          once({ severity: 'error', code: 'analog-pin', ...at(call.token), message, suggestion: `Use an analog input: ${list(pinsWith('analog-in'))}.` });
        }
      }
    }
    for (const { finding, pins } of reported.values()) {
      out.push(values!.length > 1 ? { ...finding, message: `${finding.message} (${pins.length === 1 ? 'pin' : 'pins'} ${pins.join(', ')} of the loop's ${values!.length} values)` } : finding);
    }
    if (call.library) libraryFound.push(...out.map((finding) => ({ ...finding, library: call.library })));
    else findings.push(...out);
    if (call.name === 'attachInterrupt' && knowledge.interrupt.known) findings.push(...interruptFindings(call, symbols, pinMap, board.name, list(pinsWith('interrupt'))));
  }
  if (options.wiring) {
    const uses = pinUses.map(({ pin, call }) => ({
      pin,
      call: call.name,
      ...(call.name === 'pinMode' && call.args[1] ? { mode: call.args[1].map((token) => token.text).join('') } : {}),
      file: call.token.file ?? '',
      line: call.token.line,
    }));
    findings.push(...options.wiring(uses));
  }
  findings.push(...pinNameFindings(symbols, pinMap, board));
  findings.push(...toneTimerFindings(calls, symbols, pinMap, board.name));
  findings.push(...libraryTimerFindings(options.libraryTimers ?? [], symbols, pinsWith('pwm').map((pin) => Number(pin.number)), board.name));
  findings.push(...peripheralFindings(symbols, pinMap, board, includes, options.includesComplete !== false));
  findings.push(...busConflicts(symbols, pinMap, pinUses));
  findings.push(...softwareSerialRxFindings(libraryCalls.map((call) => call.library!), symbols, pinMap, board.name));
  if (pinMap.core?.check) {
    const identifiers = new Set(symbols.tokens.filter((token) => token.kind === 'identifier').map((token) => token.text));
    const view = {
      calls: allCalls.map((call) => ({ name: call.name, ...(call.receiver ? { receiver: call.receiver } : {}), at: call.at, args: call.args, values: call.args.map((arg, index) => argumentValues(call, index, symbols, pinMap)), token: call.token })),
      identifiers,
      includes,
      libraryDirs: options.libraryDirs ?? [],
      declares: (name: string, at: number) => symbols.scopes.declares(name, at),
      boardName: board.name,
      board,
    };
    const own = pinMap.core.check(view);
    findings.push(...own);
    // The core's own finding on a line says it better than the generic pin-range one.
    const ownErrors = new Set(own.filter((finding) => finding.severity === 'error').map((finding) => `${finding.file}:${finding.line}`));
    for (let index = findings.length - 1; index >= 0; index--) if (findings[index].code === 'pin-range' && ownErrors.has(`${findings[index].file}:${findings[index].line}`)) findings.splice(index, 1);
    if (libraryCalls.length > 0) {
      // The library's pins through the core's own pin rules, as the pinMode the library does.
      // The library's pins through the core's own pin rules, one call at a time so each finding
      // names its own parameter; the core's finding replaces the generic pin-range one.
      for (const call of libraryCalls) {
        const ownLibrary = pinMap.core.check({ ...view, calls: [{ name: call.name, at: call.at, args: call.args, values: [pinValues(call, symbols), undefined], token: call.token }] });
        const generic = libraryFound.filter((finding) => finding.library === call.library);
        if (ownLibrary.some((finding) => finding.severity === 'error')) for (const finding of generic) if (finding.code === 'pin-range') libraryFound.splice(libraryFound.indexOf(finding), 1);
        for (const finding of ownLibrary) libraryFound.push({ ...finding, library: call.library });
      }
    }
  }
  findings.push(...libraryFound.map(({ library, ...finding }) => (library ? libraryMessage(library, finding) : finding)));
  // In reading order: by file as given, then by line; a header two files include is reported once.
  const order = new Map(files.map((file, index) => [file, index]));
  const seen = new Set<string>();
  const unique = findings.filter((finding) => {
    const key = `${finding.file}:${finding.line}:${finding.code}:${finding.message}`;
    return !seen.has(key) && seen.add(key) !== undefined;
  });
  return unique.sort((a, b) => (order.get(a.file ?? '') ?? -1) - (order.get(b.file ?? '') ?? -1) || (a.line ?? 0) - (b.line ?? 0));
}

// Pins handed to library objects, as the pinMode(pin, OUTPUT/INPUT) the library does with each.
function libraryPinCalls(symbols: SketchSymbols, headers: string[], includes: string[], pinMap: PinMap): Call[] {
  if (headers.length === 0 && includes.length === 0) return [];
  const installed = readLibraryDeclarations(headers, pinMap.variant.macros);
  const uses = libraryPinUses(symbols, installed, citedDeclarations(includes, installed));
  return uses.map((use) => ({
    name: 'pinMode',
    args: [use.arg, [{ kind: 'identifier' as const, text: use.role === 'read' ? 'INPUT' : 'OUTPUT', line: use.token.line, bol: false, file: use.token.file }]],
    token: use.token,
    at: use.at,
    library: use,
  }));
}

// A pin argument's values; for a library's pin, -1 and 255 mean "no pin" (Wire.begin(-1, -1), LiquidCrystal's rw 255).
function pinValues(call: Call, symbols: SketchSymbols): number[] | undefined {
  const values = symbols.valuesOf(call.args[0], call.at);
  if (!call.library || !values) return values;
  const pins = values.filter((value) => value >= 0 && value !== 255);
  return pins.length > 0 ? pins : undefined;
}

/** The finding of a library's pin, told as the library call the sketch wrote. */
function libraryMessage(use: LibraryPinUse, finding: Finding): Finding {
  const rest = finding.message.replace(/^pinMode\((?:[^()]|\([^()]*\))*\):\s*/, '');
  // An installed header by name and line; a cited one as repository@commit:file:lines.
  const where = use.declaration.file.startsWith('/') ? `${basename(use.declaration.file)}:${use.declaration.line}` : use.declaration.file;
  return { ...finding, message: `${use.label}: ${use.className} takes ${use.param} as a pin it sets up as ${use.role === 'read' ? 'an input' : 'an output'} (${use.declaration.text}, ${where}); ${rest}` };
}

// The values a core's check sees for an argument. attachInterrupt(digitalPinToInterrupt(pin), …)
// is how sketches name the interrupt, but digitalPinToInterrupt is the core's (SAMD's Arduino.h
// macro, Renesas' function, STM32's pins_arduino.h), not among the variant's macros: there the
// pin table's interrupt number is what it returns, and a pin without one leaves the value unknown.
function argumentValues(call: Call, index: number, symbols: SketchSymbols, pinMap: PinMap): number[] | undefined {
  const arg = call.args[index];
  const direct = symbols.valuesOf(arg, call.at);
  if (direct !== undefined || call.name !== 'attachInterrupt' || index !== 0) return direct;
  if (arg[0]?.text !== 'digitalPinToInterrupt' || arg[1]?.text !== '(' || closingParen(arg, 1) !== arg.length - 1) return undefined;
  const numbers = symbols.valuesOf(arg.slice(2, -1), call.at)?.map((pin) => pinMap.pins[pin]?.interrupt);
  return numbers?.every((number) => number !== undefined) ? (numbers as number[]) : undefined;
}

function closingParen(tokens: Token[], open: number): number {
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    if (tokens[index].text === '(') depth++;
    if (tokens[index].text === ')' && --depth === 0) return index;
  }
  return -1;
}

// A pin name the board's variant does not define (`A1` on an ESP32 board whose pins_arduino.h has
// A0, A3 …) is undeclared when the sketch compiles. Only where the variant is the one place pin
// names come from (AVR's pins_arduino.h, checked against avr-gcc; a core reader that says so), and
// only for a family (A<n>, D<n>) the variant does name: elsewhere the name may come from a file not read.
function pinNameFindings(symbols: SketchSymbols, pinMap: PinMap, board: ResolvedBoard): Finding[] {
  const fromVariant = board.architecture === 'avr' ? { source: pinMap.variant.header ? { file: pinMap.variant.header } : undefined } : pinMap.core?.pinNamesFromVariant;
  if (!fromVariant || !pinMap.variant.header) return [];
  const defined = (name: string): boolean => symbols.macros.has(name) || symbols.constants.has(name) || pinMap.pins.some((pin) => pin.names.includes(name));
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (let index = 0; index < symbols.tokens.length; index++) {
    const token = symbols.tokens[index];
    const family = token.kind === 'identifier' ? /^([AD])\d+$/.exec(token.text)?.[1] : undefined;
    // A core that says its variant alone names A<n> (arduino-esp32: cores/esp32 defines none) makes
    // every A<n> the variant lacks undeclared, even where the variant names no A<n> at all.
    const familyKnown = defined(`${family}0`) || (family === 'A' && pinMap.core?.pinNamesFromVariant !== undefined);
    if (!family || reported.has(token.text) || !familyKnown || defined(token.text)) continue;
    if (memberOf(symbols.tokens, index) !== undefined || symbols.scopes.declares(token.text, index)) continue;
    reported.add(token.text);
    const names = [...new Set(pinMap.pins.flatMap((pin) => pin.names.filter((name) => new RegExp(`^${family}\\d+$`).test(name))))].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    findings.push({
      severity: 'error',
      code: 'pin-name-undefined',
      file: token.file,
      line: token.line,
      message: `${token.text} is not defined for ${board.name}: its variant (${basename(pinMap.variant.header)}) defines ${names.length > 0 ? names.join(', ') : `no ${family}<n> names`}, so '${token.text}' is not declared when the sketch compiles`,
      suggestion: names.length > 0 ? `Use a pin the board has (${names.join(', ')}), or its GPIO number.` : 'Use the GPIO number of the pin.',
    });
  }
  return findings;
}

// tone() takes a timer (Tone.cpp); while a tone plays, analogWrite on that timer's pins gives no PWM.
function toneTimerFindings(calls: Call[], symbols: SketchSymbols, pinMap: PinMap, boardName: string): Finding[] {
  const tone = pinMap.toneTimer;
  if (!tone || !calls.some((call) => call.name === 'tone')) return [];
  const findings: Finding[] = [];
  for (const call of calls.filter((entry) => entry.name === 'analogWrite')) {
    const pins = call.args[0] ? symbols.valuesOf(call.args[0], call.at) : undefined;
    const clash = pins?.find((pin) => pinMap.pwmTimers.get(pin)?.timer === tone.timer);
    if (clash === undefined) continue;
    const source = pinMap.pwmTimers.get(clash)!.source;
    findings.push({
      severity: 'warning',
      code: 'tone-timer',
      file: call.token.file,
      line: call.token.line,
      message: `analogWrite(${clash}, …) uses ${tone.timer}${source ? ` (${basename(source.file)}:${source.line})` : ''}, which tone() takes on ${boardName} (${basename(tone.source.file)}:${tone.source.line}): while a tone plays, pin ${clash} gives no PWM`,
      suggestion: `Use a PWM pin on another timer (${[...pinMap.pwmTimers].filter(([, entry]) => entry.timer !== tone.timer).map(([pin]) => `D${pin}`).join(', ') || 'none'}), or stop the tone with noTone() first.`,
    });
  }
  return findings;
}

// What analogWrite does on a pin without PWM differs by core: AVR's wiring_analog.c writes LOW
// below 128 and HIGH from 128; a core reader says what its own core does.
function analogWriteEffect(board: ResolvedBoard, pinMap: PinMap): string {
  if (pinMap.core?.analogWriteWithoutPwm) return pinMap.core.analogWriteWithoutPwm.text;
  if (board.architecture === 'avr') return 'analogWrite only switches it fully on or off';
  return 'it gives no PWM output there';
}

// Driving SDA/SCL or the SPI pins by hand while Wire or SPI owns them breaks the bus.
function busConflicts(symbols: SketchSymbols, pinMap: PinMap, uses: Array<{ pin: number; call: Call }>): Finding[] {
  const findings: Finding[] = [];
  // The bus objects the sketch uses: not its own object of that name (ArduinoISP's BitBangedSPI SPI).
  const usedObjects = new Set(symbols.tokens.filter((token, index) => symbols.tokens[index + 1]?.text === '.' && memberOf(symbols.tokens, index) === undefined && !symbols.scopes.declares(token.text, index)).map((token) => token.text));
  for (const bus of pinMap.buses) {
    if ((bus.kind !== 'i2c' && bus.kind !== 'spi') || !usedObjects.has(bus.name)) continue;
    for (const [role, pin] of Object.entries(bus.pins)) {
      // SPI's SS (the Renesas variants call it CS) may be any output the sketch drives as chip select.
      if (role === 'SS' || role === 'CS') continue;
      const use = uses.find((entry) => entry.pin === Number(pin) && entry.call.name !== 'pinMode' && !(bus.kind === 'spi' && role === 'SCK' && writesIdleClock(entry.call, symbols)));
      if (!use) continue;
      findings.push({
        severity: 'warning',
        code: 'bus-pin-conflict',
        file: use.call.token.file,
        line: use.call.token.line,
        message: `${use.call.name}(${pin}, …) drives pin ${pin}, which is ${bus.name}'s ${role} while the sketch uses ${bus.name}`,
        suggestion: `Use another pin, or stop using ${bus.name} on this pin.`,
      });
    }
  }
  return findings;
}

// The level SPI's clock rests at between transfers is the mode's clock polarity: LOW in SPI_MODE0
// and SPI_MODE1, HIGH in SPI_MODE2 and SPI_MODE3. A digitalWrite of that level (ArduinoISP's
// `digitalWrite(PIN_SCK, LOW)` after `SPI.beginTransaction(SPISettings(…, SPI_MODE0))`, the
// serial-programming algorithm's "SCK low before reset") makes no clock edge. Known only where the
// sketch names its modes and every one rests at that level.
function writesIdleClock(call: Call, symbols: SketchSymbols): boolean {
  if (call.name !== 'digitalWrite' || call.args.length !== 2) return false;
  const levelTokens = call.args[1];
  const level = levelTokens.length === 1 && (levelTokens[0].text === 'LOW' || levelTokens[0].text === 'HIGH') ? (levelTokens[0].text === 'HIGH' ? 1 : 0) : symbols.valueOf(levelTokens);
  if (level === undefined) return false;
  const modes = symbols.tokens.filter((token) => token.kind === 'identifier' && /^SPI_MODE[0-3]$/.test(token.text)).map((token) => Number(token.text.slice(-1)));
  return modes.length > 0 && modes.every((mode) => (mode >= 2 ? 1 : 0) === (level === 0 ? 0 : 1));
}

function interruptFindings(call: Call, symbols: SketchSymbols, pinMap: PinMap, boardName: string, interruptPins: string): Finding[] {
  const first = call.args[0] ?? [];
  const at = { file: call.token.file, line: call.token.line };
  if (first[0]?.text === 'digitalPinToInterrupt' && first[1]?.text === '(') {
    const pin = symbols.valueOf(first.slice(2, -1));
    if (pin === undefined || !pinMap.pins[pin] || pinMap.pins[pin].capabilities.includes('interrupt')) return [];
    return [{ severity: 'error', code: 'interrupt-pin', ...at, message: `attachInterrupt(digitalPinToInterrupt(${pin}), …): pin ${pin} has no external interrupt on ${boardName}, so the handler never runs`, suggestion: `Use an interrupt pin: ${interruptPins}.` }];
  }
  const number = symbols.valueOf(first);
  if (number === undefined) return [];
  const owner = pinMap.pins.find((pin) => pin.interrupt === number);
  // Where digitalPinToInterrupt(p) is p (SAMD, arduino-pico, mbed), the pin number is the interrupt number.
  if (owner && Number(owner.number) === number) return [];
  const known = owner !== undefined;
  return [{
    severity: known ? 'warning' : 'error',
    code: 'interrupt-number',
    ...at,
    message: `attachInterrupt(${number}, …) takes an interrupt number, not a pin${known ? '' : `; ${boardName} has no interrupt ${number}`}`,
    suggestion: `Write attachInterrupt(digitalPinToInterrupt(pin), …) with one of: ${interruptPins}.`,
  }];
}

function peripheralFindings(symbols: SketchSymbols, pinMap: PinMap, board: ResolvedBoard, includes: string[], includesComplete: boolean): Finding[] {
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (let index = 0; index < symbols.tokens.length; index++) {
    const token = symbols.tokens[index];
    if (token.kind !== 'identifier' || memberOf(symbols.tokens, index) !== undefined) continue;
    const at = { file: token.file, line: token.line };
    if (/^Serial\d+$/.test(token.text) && !pinMap.serialPorts.includes(token.text) && !reported.has(token.text) && !symbols.scopes.declares(token.text, index)) {
      reported.add(token.text);
      if (!pinMap.knowledge.serial.known || pinMap.serialUncertain.includes(token.text)) {
        const why = pinMap.knowledge.serial.known ? `the core's headers declare ${token.text} only under a condition boardbridge could not establish for this board` : pinMap.knowledge.serial.reason;
        findings.push({ severity: 'info', code: 'serial-unchecked', ...at, message: `${token.text}: not checked on ${board.name}: ${why}` });
        continue;
      }
      findings.push({ severity: 'error', code: 'unknown-serial', ...at, message: `${token.text} does not exist on ${board.name}; it has ${pinMap.serialPorts.join(', ')}`, suggestion: pinMap.serialPorts.length > 1 ? `Use ${pinMap.serialPorts.filter((port) => port !== 'Serial').join(' or ')}.` : 'Use Serial, or SoftwareSerial on two free pins for a second port.' });
    }
    for (const [object, header, bus] of [['Wire', 'Wire.h', 'i2c'], ['SPI', 'SPI.h', 'spi']] as const) {
      if (token.text !== object || symbols.tokens[index + 1]?.text !== '.' || reported.has(object) || symbols.scopes.declares(object, index)) continue;
      reported.add(object);
      if (!includes.includes(header) && includesComplete) findings.push({ severity: 'error', code: 'missing-include', ...at, message: `${object} is used but ${header} is not included`, suggestion: `Add #include <${header}> at the top of the sketch.` });
      // The variant names the bus's pins in a form the pin map cannot place (mbed's NICLA: PIN_WIRE_SDA (p22), a PinName): it has the bus.
      const named = (bus === 'i2c' ? ['PIN_WIRE_SDA', 'PIN_WIRE_SCL', 'SDA', 'SCL'] : ['PIN_SPI_MOSI', 'PIN_SPI_MISO', 'PIN_SPI_SCK', 'MOSI', 'MISO', 'SCK']).some((name) => pinMap.variant.macros.has(name) || pinMap.variant.constants.has(name));
      if (pinMap.pins.length > 0 && !named && !pinMap.buses.some((entry) => entry.kind === bus)) findings.push({ severity: 'warning', code: `no-${bus}`, ...at, message: `${board.name}'s variant defines no ${bus.toUpperCase()} pins`, suggestion: 'Check that this board has the bus, or use a software implementation.' });
    }
  }
  return findings;
}

// What `name` at `index` is a member of: the object before `.`/`->`, or the qualifier of `a::name`
// (`softpwm::analogWrite` is not the core's). `::name` alone is the global one, as is a plain name.
// Undefined for a plain name; '' when the receiver is no plain name (`f().x`, `A<int>::x`).
function memberOf(tokens: Token[], index: number): string | undefined {
  const before = tokens[index - 1];
  if (!before || before.kind !== 'punct' || (before.text !== '.' && before.text !== '->' && before.text !== '::')) return undefined;
  const owner = tokens[index - 2];
  if (before.text === '::' && (!owner || (owner.kind !== 'identifier' && owner.text !== '>') || NOT_QUALIFIERS.has(owner.text))) return undefined;
  return owner?.kind === 'identifier' ? owner.text : '';
}

function findCalls(tokens: Token[]): Call[] {
  const calls: Call[] = [];
  for (let index = 0; index < tokens.length - 1; index++) {
    const token = tokens[index];
    if (token.kind !== 'identifier' || NOT_CALLS.has(token.text) || tokens[index + 1].text !== '(') continue;
    const receiver = memberOf(tokens, index);
    if (receiver === '') continue;
    // `void tone(...)` is a declaration, not a call; `return tone(...)` and `else tone(...)` are calls.
    const before = tokens[index - 1];
    if (receiver === undefined && before?.kind === 'identifier' && !STATEMENT_KEYWORDS.has(before.text)) continue;
    const args: Token[][] = [[]];
    let depth = 0;
    let end = index + 2;
    for (; end < tokens.length; end++) {
      const text = tokens[end].text;
      if (text === '(' || text === '[' || text === '{') depth++;
      if (text === ')' || text === ']' || text === '}') {
        if (depth === 0) break;
        depth--;
      }
      if (text === ',' && depth === 0) args.push([]);
      else args[args.length - 1].push(tokens[end]);
    }
    calls.push({ name: token.text, ...(receiver !== undefined ? { receiver } : {}), args: args.length === 1 && args[0].length === 0 ? [] : args, token, at: index });
  }
  return calls;
}

export interface BuildSize {
  flashBytes: number;
  ramBytes: number;
}

/** Flash and RAM use of the last build against upload.maximum_size / maximum_data_size. */
export function checkBuildSize(size: BuildSize, board: ResolvedBoard): Finding[] {
  const findings: Finding[] = [];
  const limit = (key: string): number | undefined => {
    const value = Number.parseInt(board.expanded(key) ?? '', 10);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const flash = limit('upload.maximum_size');
  const ram = limit('upload.maximum_data_size');
  const sourceOf = (key: string) => board.sources.get(key);
  if (flash !== undefined && size.flashBytes > flash) {
    findings.push({ severity: 'error', code: 'flash-over', ...sourceOf('upload.maximum_size'), message: `Sketch uses ${size.flashBytes} bytes of flash; ${board.name} allows ${flash} (${Math.round((size.flashBytes / flash) * 100)}%)`, suggestion: 'Remove unused libraries, keep strings in flash with F("..."), or choose a board with more flash.' });
  }
  if (ram !== undefined && size.ramBytes > ram) {
    findings.push({ severity: 'error', code: 'ram-over', ...sourceOf('upload.maximum_data_size'), message: `Global variables use ${size.ramBytes} bytes of RAM; ${board.name} has ${ram}`, suggestion: 'Move constant data to PROGMEM, use F("...") for strings, shrink buffers.' });
  } else if (ram !== undefined && size.ramBytes > ram * 0.75) {
    // arduino-builder warns from 75%: the stack shares what is left.
    findings.push({ severity: 'warning', code: 'ram-low', ...sourceOf('upload.maximum_data_size'), message: `Global variables use ${size.ramBytes} of ${ram} bytes of RAM (${Math.round((size.ramBytes / ram) * 100)}%); the stack may run out`, suggestion: 'Use F("...") for strings and PROGMEM for tables.' });
  }
  return findings;
}
