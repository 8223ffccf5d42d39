// stm32duino (STMicroelectronics:stm32): an Arduino pin number indexes the variant's digitalPin[]
// (PinName PA_3…); PWM, ADC, DAC, I2C, SPI and U(S)ART come from the PinMap_* rows of the active
// PeripheralPins*.c for that PinName (ALTn rows are reached only through PYn_ALTn names), A<n> is
// PNUM_ANALOG_BASE + n and reaches analogInputPin[n], and every valid pin is its own interrupt
// number on EXTI line <pin bit>. A board whose variant folder is not installed gets unknowns.
import { existsSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { Bus, ContextNote, PinCapability, SourceRef } from '../../types.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import type { VariantHeader } from '../variant-header.js';
import type { CoreFacts, CorePin, CoreTableReader } from './core-facts.js';
import { StampedCache } from '../cache.js';
import { sharedTimersOf } from './shared-timers.js';
import { unknownFacts } from './unknown-facts.js';
import { defineCoreCheck } from './core-checks.js';
import { checkStm32Sketch, stm32PinOf, type Stm32CheckFacts, type Stm32PinNumbers } from './stm32-check.js';
import { readStm32Serial } from './stm32-serial.js';
import { readStm32Variant, type PinMapRow, type Stm32Tables } from './stm32-variant.js';

const stm32Check = defineCoreCheck('stm32', (sketch, facts: Stm32CheckFacts) => checkStm32Sketch(sketch, facts));

export const readStm32Tables: CoreTableReader = (board, variant) => {
  const halConf = join(board.corePath, 'stm32', 'stm32yyxx_hal_conf.h');
  if (board.architecture !== 'stm32' && !existsSync(halConf)) return undefined;
  if (!existsSync(halConf)) return unknownFacts('stm32', `unknown: core folder not installed: ${halConf} is missing`, [halConf]);
  if (!board.variantPath || !existsSync(board.variantPath)) {
    const source = board.sources.get('build.variant');
    return unknownFacts('stm32', `unknown: variant folder not installed: ${board.variantPath ?? '(no build.variant)'}${source ? ` (build.variant at ${source.file}:${source.line})` : ''}`, board.variantPath ? [board.variantPath] : []);
  }
  const key = `${board.fqbn}\0${board.corePath}\0${board.variantPath ?? ''}\0${JSON.stringify(variant.defines)}`;
  return cache.get(key) ?? cache.build(key, () => readStm32Facts(board, variant), (facts) => facts.files);
};

// A warm context build does not preprocess the core's headers again.
const cache = new StampedCache<CoreFacts>(64);

/** `PA_3` → `PA3`; the bit is the EXTI line. */
function portPin(name: string): { label: string; bit?: number } {
  const match = /^P([A-Z])_(\d+)$/.exec(name);
  return match ? { label: `P${match[1]}${match[2]}`, bit: Number(match[2]) } : { label: name };
}

const ROLE_MAPS: Array<{ map: string; role: string; capability: PinCapability }> = [
  { map: 'PinMap_UART_TX', role: 'TX', capability: 'uart' },
  { map: 'PinMap_UART_RX', role: 'RX', capability: 'uart' },
  { map: 'PinMap_I2C_SDA', role: 'SDA', capability: 'i2c' },
  { map: 'PinMap_I2C_SCL', role: 'SCL', capability: 'i2c' },
  { map: 'PinMap_SPI_MOSI', role: 'MOSI', capability: 'spi' },
  { map: 'PinMap_SPI_MISO', role: 'MISO', capability: 'spi' },
  { map: 'PinMap_SPI_SCLK', role: 'SCK', capability: 'spi' },
  { map: 'PinMap_SPI_SSEL', role: 'SS', capability: 'spi' },
];

function readStm32Facts(board: ResolvedBoard, variant: VariantHeader): CoreFacts {
  const tables = readStm32Variant(board, variant);
  const files = [...variant.files, ...tables.files];
  if (!tables.digitalPins) {
    return unknownFacts('stm32', `unknown: ${tables.problem ?? 'no digitalPin[] table'}`, files, tables.warnings);
  }
  const digitalPins = tables.digitalPins;
  // Each map's first row for each pin, found once (a pin is looked up in a dozen maps of some hundred rows).
  const firstRows = new Map<string, Map<string, PinMapRow>>();
  const rowFor = (map: string, name: string): PinMapRow | undefined => {
    let rows = firstRows.get(map);
    if (!rows) {
      firstRows.set(map, (rows = new Map()));
      for (const row of tables.pinMaps.get(map) ?? []) if (!rows.has(row.pin)) rows.set(row.pin, row);
    }
    return rows.get(name);
  };
  const macroSource = (name: string): SourceRef | undefined => tables.macros.get(name)?.source;
  const numbers = pinNumbersOf(tables);
  const toPin = (value: number | undefined): number | undefined => stm32PinOf(numbers, value);
  const interruptSource = macroSource('digitalPinToInterrupt');
  const analogSource = macroSource('analogInputToDigitalPin');

  const pins: CorePin[] = [];
  digitalPins.forEach((entry, number) => {
    if (!entry.name) {
      pins.push({ number, names: [], traps: [{ code: 'stm32-pin-nc', text: `digitalPin[${number}] is NC: this pin number drives no port pin`, source: entry.source }] });
      return;
    }
    const { label, bit } = portPin(entry.name);
    const pin: CorePin = { number, names: [label] };
    const tim = rowFor('PinMap_TIM', entry.name);
    if (tim) pin.pwm = { timer: tim.peripheral, ...(tim.channel !== undefined ? { channel: `CH${tim.channel}${tim.inverted ? 'N' : ''}` } : {}), source: tim.source };
    const input = tables.analogInputPins?.findIndex((analog) => analog.pin === number) ?? -1;
    const adc = rowFor('PinMap_ADC', entry.name);
    if (input >= 0 && adc) pin.analog = { input, channel: `${adc.peripheral} IN${adc.channel ?? '?'}`, source: adc.source };
    const dac = rowFor('PinMap_DAC', entry.name);
    if (dac) pin.dac = { channel: `${dac.peripheral} OUT${dac.channel ?? '?'}`, source: dac.source };
    if (interruptSource) pin.interrupt = { number, ...(bit !== undefined ? { line: `EXTI${bit}` } : {}), source: interruptSource };
    for (const role of ROLE_MAPS) {
      const row = rowFor(role.map, entry.name);
      if (row) (pin.functions ??= []).push({ fn: `${row.peripheral} ${role.role}`, capability: role.capability, source: row.source });
    }
    pins.push(pin);
  });

  const serial = readStm32Serial(board, tables, toPin);
  const buses = defaultBuses(tables, toPin);
  const addRole = (number: number | undefined, fn: string, capability: PinCapability, source: SourceRef | undefined): void => {
    if (number === undefined || !pins[number]) return;
    (pins[number].functions ??= []).push({ fn, capability, ...(source ? { source } : {}) });
  };
  for (const bus of buses) for (const [role, number] of Object.entries(bus.pins)) addRole(number as number, `${bus.name} ${role}`, bus.kind as PinCapability, bus.source);
  const defaultSerial = serial.ports?.find((port) => port.name === 'Serial' && port.kind === 'uart');
  if (defaultSerial?.pins) for (const [role, number] of Object.entries(defaultSerial.pins)) addRole(number, `Serial ${role}`, 'uart', macroSource(`PIN_SERIAL_${role}`));

  const timers = sharedTimersOf(pins);
  const pwmMap = tables.pinMaps.get('PinMap_TIM');
  const adcMap = tables.pinMaps.get('PinMap_ADC');
  const firstRow = (map: string): SourceRef | undefined => tables.pinMaps.get(map)?.[0]?.source;
  const peripheralFile = firstRow('PinMap_TIM')?.file ?? join(board.variantPath!, 'PeripheralPins.c');
  const analogCount = tables.analogInputPins?.length ?? 0;
  return {
    core: 'stm32',
    pins,
    known: {
      pwm: pwmMap ? { known: true, source: firstRow('PinMap_TIM') } : { known: false, reason: `${peripheralFile}: no active PinMap_TIM for this board` },
      analog: adcMap && tables.analogInputPins ? { known: true, source: firstRow('PinMap_ADC') } : { known: false, reason: `${peripheralFile}: no active PinMap_ADC or analogInputPin[] for this board` },
      interrupt: interruptSource ? { known: true, source: interruptSource } : { known: false, reason: `${join(board.corePath, 'pins_arduino.h')}: digitalPinToInterrupt is not defined` },
      // PinMap_DAC is only compiled with HAL_DAC_MODULE_ENABLED, which the variant header sets when the chip has a DAC.
      dac: { known: true, source: firstRow('PinMap_DAC') ?? { file: peripheralFile } },
      serial: serial.known,
    },
    ...(serial.ports ? { serialPorts: serial.ports } : {}),
    buses,
    sharedTimers: timers,
    analogWriteWithoutPwm: {
      // stm32duino/Arduino_Core_STM32 b4bae0d cores/arduino/wiring_analog.c:237-246: no DAC and no
      // PinMap_TIM row → pinMode(OUTPUT), LOW below 128 of 255 (after scaling), HIGH from 128.
      text: 'without a timer channel (or DAC) analogWrite makes the pin a digital output: LOW below half scale, HIGH from half up',
      ...(macroSource('digitalPinHasPWM') ? { source: macroSource('digitalPinHasPWM')! } : {}),
    },
    // pins_arduino.h analogInputToDigitalPin: p < NUM_ANALOG_INPUTS reads analogInputPin[p] (A<p>).
    analogReadAcceptsChannelNumbers: true,
    notes: stm32Notes(tables, pins, analogCount, interruptSource),
    files: [...files, ...serial.files],
    warnings: tables.warnings,
    check: stm32Check({ pins, numbers, analogCount, ...(analogSource ? { analogSource } : {}), timerMacros: timerMacrosOf(tables) }),
  };
}

/** The timers TIMER_TONE and TIMER_SERVO name (the macro's text, `TIM10`), with where each is defined. */
function timerMacrosOf(tables: Stm32Tables): Stm32CheckFacts['timerMacros'] {
  const timers: Stm32CheckFacts['timerMacros'] = {};
  for (const name of ['TIMER_TONE', 'TIMER_SERVO']) {
    const macro = tables.macros.get(name);
    const timer = macro?.body.map((token) => token.text).join('');
    if (macro && timer) timers[name] = { timer, ...(macro.source ? { source: macro.source } : {}) };
  }
  return timers;
}

/** How the board's pin values reach digitalPin[]: its count, PNUM_ANALOG_BASE and _INDEX, and analogInputPin[]. */
function pinNumbersOf(tables: Stm32Tables): Stm32PinNumbers {
  const analogBase = tables.evaluate('PNUM_ANALOG_BASE');
  const analogIndex = tables.evaluate('PNUM_ANALOG_INDEX');
  return {
    count: tables.digitalPins?.length ?? 0,
    ...(analogBase !== undefined ? { analogBase } : {}),
    ...(analogIndex !== undefined ? { analogIndex } : {}),
    analogPins: (tables.analogInputPins ?? []).map((entry) => entry.pin ?? null),
  };
}

function defaultBuses(tables: Stm32Tables, toPin: (value: number | undefined) => number | undefined): Bus[] {
  const buses: Bus[] = [];
  const group = (kind: 'i2c' | 'spi', name: string, roles: Array<[string, string]>): void => {
    const pins: Record<string, number> = {};
    let source: SourceRef | undefined;
    for (const [role, macro] of roles) {
      const number = toPin(tables.evaluate(macro));
      if (number === undefined) continue;
      pins[role] = number;
      source ??= tables.macros.get(macro)?.source;
    }
    if (Object.keys(pins).length > 0) buses.push({ kind, name, pins, ...(source ? { source } : {}) });
  };
  group('i2c', 'Wire', [['SDA', 'PIN_WIRE_SDA'], ['SCL', 'PIN_WIRE_SCL']]);
  group('spi', 'SPI', [['MOSI', 'PIN_SPI_MOSI'], ['MISO', 'PIN_SPI_MISO'], ['SCK', 'PIN_SPI_SCK'], ['SS', 'PIN_SPI_SS']]);
  return buses;
}

function stm32Notes(tables: Stm32Tables, pins: CorePin[], analogCount: number, interruptSource: SourceRef | undefined): ContextNote[] {
  const notes: ContextNote[] = [];
  const tone = tables.macros.get('TIMER_TONE');
  const servo = tables.macros.get('TIMER_SERVO');
  const timerName = (macro: typeof tone): string => macro?.body.map((token) => token.text).join('') ?? '?';
  notes.push({
    topic: 'PWM timers',
    text: `Pins on one timer share its frequency; analogWriteFrequency() is global and applies at each pin's next analogWrite.${tone ? ` tone() uses ${timerName(tone)}` : ''}${servo ? `${tone ? ',' : ''} Servo ${timerName(servo)}` : ''}${tone || servo ? ': PWM on those timers conflicts with them.' : ''}`,
    ...(tone?.source ? { source: tone.source } : {}),
  });
  const analogSource = tables.macros.get('analogInputToDigitalPin')?.source;
  if (analogCount > 0) {
    notes.push({
      topic: 'analogRead',
      text: `analogRead takes A0-A${analogCount - 1} (or 0-${analogCount - 1}, the same inputs) or PYn names; a digital pin number from ${analogCount} up reads 0.`,
      ...(analogSource ? { source: analogSource } : {}),
    });
  }
  if (interruptSource) {
    // stm32duino b4bae0d libraries/SrcWrapper/src/stm32/interrupt.cpp:155-177: one callback per EXTI line (pin bit).
    notes.push({ topic: 'interrupts', text: 'Every pin can interrupt, but pins with the same bit on different ports (PA0, PB0) share one EXTI line: only the last attachInterrupt of them gets the handler.', source: interruptSource });
  }
  // wiring_analog.c:218-226 (b4bae0d): analogWrite tries PinMap_DAC before PinMap_TIM.
  const both = pins.filter((pin) => pin.dac && pin.pwm);
  if (both.length > 0) notes.push({ topic: 'DAC', text: `analogWrite on ${both.map((pin) => `D${pin.number} (${pin.names?.[0]})`).join(', ')} drives the DAC (a voltage), not PWM: the core tries the DAC first.`, source: both[0].dac!.source });
  const alt = tables.pinMaps.get('PinMap_TIM')?.find((row) => /_ALT\d+$/.test(row.pin));
  if (alt) notes.push({ topic: 'ALT pins', text: 'PYn_ALTm names (e.g. PA0_ALT1) pick the pin\'s alternative timer or peripheral row.', source: alt.source });
  return notes;
}
