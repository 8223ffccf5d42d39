// The Arduino mbed core (arduino:mbed_nano / mbed_portenta / mbed_giga / mbed_nicla, and the
// all-in-one arduino:mbed): the variant's pin table maps Arduino pins to mbed PinNames, and the
// chip family's rule (boards/data/mbed-pwm-rules.json, chosen by defines.txt) says which of them
// have PWM — mbed decides that inside its HAL, which releases ship compiled.
import { existsSync, readFileSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { ContextNote, Finding, SourceRef } from '../../types.js';
import { preprocess } from '../preprocessor.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import { addBusFunctions, busesFromMacros } from './bus-macros.js';
import { readArrays, type CArray } from './c-tables.js';
import { findLine } from './cited-line.js';
import { coreVendor } from './core-vendor.js';
import type { CorePin, CoreSketchView, CoreTableReader, Knowledge } from './core-facts.js';
import { analogWritePins, checkSharedPwmOutputs, groupPwmPins } from './pwm-groups.js';
import { uartObjects } from './uart-objects.js';
import { dataJson, dataSource } from '../../../platform/data-files.js';
import { defineCoreCheck } from './core-checks.js';

type Rules = typeof import('../../../boards/data/mbed-pwm-rules.json', { with: { type: 'json' } });
type Family = Rules['families'][number];
const RULES = 'mbed-pwm-rules.json';

const mbedCheck = defineCoreCheck('mbed', (sketch, { pins, family }: { pins: CorePin[]; family: Family }) => checkPwm(sketch, pins, family));

/** The rules file's line that names the family's target, so a fact cites the entry that states it. */
function ruleSource(family: Family): SourceRef {
  const { file, text } = dataSource<Rules>(RULES);
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.includes(`"target": "${family.target}"`));
  return { file, ...(index >= 0 ? { line: index + 1 } : {}) };
}

function isMbedCore(board: ResolvedBoard): boolean {
  if (/^mbed/.test(board.architecture)) return true;
  const definitions = join(board.corePath, 'pinDefinitions.h');
  return existsSync(definitions) && readFileSync(definitions, 'utf8').includes('mbed::PwmOut');
}

/** The `-DTARGET_…` flags of the variant's defines.txt (passed to the compiler as `@defines.txt`). */
function targetFlags(variantDir: string | undefined): Map<string, SourceRef> {
  const flags = new Map<string, SourceRef>();
  const file = variantDir ? join(variantDir, 'defines.txt') : undefined;
  if (!file || !existsSync(file)) return flags;
  readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
    const match = /^-D(TARGET_\w+|USE_ARDUINO_PINOUT)\b/.exec(line.trim());
    if (match) flags.set(match[1], { file, line: index + 1 });
  });
  return flags;
}

const pinNameOf = (array: CArray | undefined, index: number): string | undefined => array?.elements[index]?.fields?.[0]?.map((token) => token.text).join('');

export const readMbedTables: CoreTableReader = (board, variant) => {
  if (!isMbedCore(board)) return undefined;
  const variantDir = board.variantPath;
  const variantCpp = variantDir ? join(variantDir, 'variant.cpp') : undefined;
  const flags = targetFlags(variantDir);
  const family = dataJson<Rules>(RULES).families.find((entry) => flags.has(entry.target));
  if (!variantCpp || !existsSync(variantCpp)) {
    const reason = `${variantCpp ?? `${board.fqbn} names no variant`}: variant.cpp not found, so the pin table cannot be read`;
    const unknown: Knowledge = { known: false, reason };
    return { core: 'mbed', pins: [], known: { pwm: unknown, analog: unknown, interrupt: unknown, dac: unknown, serial: unknown }, notes: [], files: [], warnings: [] };
  }
  const result = preprocess([variantCpp], {
    defines: { ...variant.defines, ...Object.fromEntries([...flags.keys()].map((flag) => [flag, '1'])) },
    macros: variant.macros,
    includeDirs: [variantDir!, board.corePath],
    follow: () => false,
  });
  const arrays = readArrays(result.tokens);
  const table = arrays.get('g_APinDescription');
  const analogTable = arrays.get('g_AAnalogPinDescription');
  const dacTable = variant.macros.has('DAC') ? arrays.get('g_AAnalogOutPinDescription') : undefined;
  const familySource = family ? ruleSource(family) : undefined;
  const rp2040 = family?.target === 'TARGET_RP2040';

  const pins: CorePin[] = (table?.elements ?? []).map((element, number) => {
    const name = pinNameOf(table, number);
    const pin: CorePin = { number, ...(name ? { names: [name] } : {}) };
    const gpio = rp2040 ? /^p(\d+)$/.exec(name ?? '')?.[1] : undefined;
    if (family?.pwm === 'any') {
      pin.pwm = { timer: `PWM (1 of ${family.pwmPeripherals}, first free)`, source: element.source };
    } else if (gpio !== undefined) {
      pin.pwm = { timer: `slice ${(Number(gpio) >> 1) & 7}`, channel: Number(gpio) & 1 ? 'B' : 'A', source: element.source };
    }
    return pin;
  });

  // analogRead(A0 + i) reads g_APinDescription[A0 + i].name through g_AAnalogPinDescription[i]'s AnalogIn
  // (pinDefinitions.h analogPinToPinName / analogPinToAdcObj).
  const a0 = variant.constants.get('A0')?.value ?? variant.evaluate('PIN_A0');
  const warnings: Finding[] = [...result.warnings];
  if (a0 !== undefined) {
    (analogTable?.elements ?? []).forEach((element, input) => {
      const pin = pins[a0 + input];
      if (!pin) return;
      const name = pin.names?.[0] ?? '';
      const gpio = rp2040 ? Number(/^p(\d+)$/.exec(name)?.[1] ?? -1) : undefined;
      if (gpio !== undefined && !family!.adcGpios!.includes(gpio)) return;
      pin.analog = { input, channel: gpio !== undefined ? `ADC${gpio - 26}` : name, source: element.source };
    });
  }
  (dacTable?.elements ?? []).forEach((element, index) => {
    const name = pinNameOf(dacTable, index);
    for (const pin of pins.filter((p) => p.names?.[0] === name)) pin.dac = { channel: `DAC ${index}`, source: element.source };
  });

  // macros.h: under USE_ARDUINO_PINOUT `#define digitalPinToInterrupt(P) (P)`; attachInterrupt makes an
  // mbed::InterruptIn on the pin's PinName, which every GPIO supports.
  const interruptRule = flags.has('USE_ARDUINO_PINOUT') ? findLine(join(board.corePath, 'macros.h'), /#define\s+digitalPinToInterrupt\(P\)\s+\(P\)/) : undefined;
  if (interruptRule) pins.forEach((pin, number) => (pin.interrupt = { number, source: table!.elements[number].source }));

  const buses = busesFromMacros(variant);
  addBusFunctions(pins, buses);
  const serial = uartObjects(variant, { usbObjects: ['_UART_USB_'], pinMacros: (k) => ({ tx: `SERIAL${k}_TX`, rx: `SERIAL${k}_RX` }) });
  const tableKnown: Knowledge = table ? { known: true, source: table.source } : { known: false, reason: `${variantCpp}: no g_APinDescription[] initialiser found` };
  const pwmKnown: Knowledge = !table
    ? tableKnown
    : !family
      ? { known: false, reason: `${variantDir}/defines.txt names no chip family with a known mbed PWM rule` }
      : family.pwm === 'unknown'
        ? { known: false, reason: `on ${family.chip} ${family.pwmText}` }
        : { known: true, ...(familySource ? { source: familySource } : {}) };

  const notes: ContextNote[] = [];
  if (family && family.pwm !== 'unknown') notes.push({ topic: 'pwm', text: `${family.chip}: ${family.pwmText}.`, ...(familySource ? { source: familySource } : {}) });
  const analogRule = findLine(join(board.corePath, 'pinDefinitions.h'), /#define\s+analogPinToPinName\(P\).*P < A0/);
  if (analogRule) notes.push({ topic: 'analogRead', text: 'analogRead(n) with n below A0 reads A<n>.', source: analogRule });
  if (interruptRule) notes.push({ topic: 'interrupt', text: 'attachInterrupt works on every pin (mbed::InterruptIn); digitalPinToInterrupt(p) is p.', source: interruptRule });

  const sharedTimers = rp2040 ? groupPwmPins(pins) : [];
  return {
    core: 'mbed',
    pins,
    known: {
      pwm: pwmKnown,
      analog: tableKnown.known && !analogTable ? { known: false, reason: `${variantCpp}: no g_AAnalogPinDescription[] initialiser found` } : tableKnown,
      interrupt: interruptRule ? tableKnown : { known: false, reason: `${join(board.corePath, 'macros.h')}: no digitalPinToInterrupt(P) (P) under USE_ARDUINO_PINOUT` },
      dac: tableKnown,
      serial: serial.known,
    },
    serialPorts: serial.ports,
    ...(buses.length > 0 ? { buses } : {}),
    ...(sharedTimers.length > 0 ? { sharedTimers } : {}),
    // ArduinoCore-mbed cores/arduino/wiring_analog.cpp analogWrite() → new mbed::PwmOut(pin); mbed-os
    // hal/source/mbed_pinmap_common.c pinmap_peripheral() halts with this error when the pin has no PWM.
    ...(coreVendor(board) === 'arduino' ? { analogWriteWithoutPwm: {
      text: 'on this core analogWrite() on a pin without a PWM mapping stops the sketch with the mbed OS error "pinmap not found for peripheral" (there is no digital on/off fallback)',
      ...(familySource ? { source: familySource } : {}),
    } } : {}),
    // ArduinoCore-mbed cores/arduino/wiring_digital.cpp (pinMode, digitalWrite, digitalRead) and
    // wiring_analog.cpp (analogWrite) start with `if (pin >= PINS_COUNT) return;`, and PINS_COUNT is
    // PINCOUNT_fn(), the size of the variant's g_APinDescription: a number past the table does nothing
    // (sketches pass NOT_A_PIN, 255, on purpose for a board without that LED).
    ...(coreVendor(board) === 'arduino' && pins.length > 0 ? { pinsPastTableIgnored: {
      text: 'on this core pinMode, digitalWrite, digitalRead and analogWrite return without doing anything for a pin number from PINS_COUNT (the size of the pin table) up',
      ...(variant.macros.get('PINS_COUNT')?.source ? { source: variant.macros.get('PINS_COUNT')!.source } : {}),
    } } : {}),
    analogReadAcceptsChannelNumbers: analogRule !== undefined,
    notes,
    files: [...new Set([...result.files, ...variant.files, ...[...flags.values()].slice(0, 1).map((source) => source.file)])],
    warnings,
    ...(family && family.pwm !== 'unknown' ? { check: mbedCheck({ pins, family }) } : {}),
  };
};

function checkPwm(sketch: CoreSketchView, pins: CorePin[], family: Family): Finding[] {
  const used = analogWritePins(sketch);
  const findings: Finding[] = [];
  const at = (call: CoreSketchView['calls'][number]) => ({ ...(call.token.file ? { file: call.token.file } : {}), line: call.token.line });
  if (family.pwm === 'any' && family.pwmPeripherals !== undefined) {
    const distinct = [...new Set(used.map(({ pin }) => pin))];
    if (distinct.length > family.pwmPeripherals) {
      const extra = used.find(({ pin }) => pin === distinct[family.pwmPeripherals!])!;
      findings.push({
        severity: 'warning',
        code: 'pwm-peripherals-exhausted',
        message: `analogWrite on ${distinct.length} pins (${distinct.join(', ')}): on ${sketch.boardName} the mbed core gives each pin one of the ${family.chip}'s ${family.pwmPeripherals} PWM peripherals, so pin ${distinct[family.pwmPeripherals]} and later share the last one with another pin`,
        suggestion: `Keep at most ${family.pwmPeripherals} pins on analogWrite at a time.`,
        ...at(extra.call),
      });
    }
  }
  if (family.pwm === 'slice') findings.push(...checkSharedPwmOutputs(sketch, pins, 'PWM'));
  return findings;
}
