// arduino-pico (earlephilhower/arduino-pico): a pin number is the GPIO number. Every GPIO below
// __GPIOCNT has PWM on slice (gpio >> 1) & 7 (RP2350: GPIO32-47 on slices 8-11), channel A on
// even and B on odd GPIOs; the ADC is on GPIO __FIRSTANALOGGPIO and up; digitalPinToInterrupt(p)
// is (p). The chip figures come from boards/data/rp2-chips.json; the pins and serial ports from
// the variant's pins_arduino.h (+ generic/common.h) and the core's headers.
import { readFileSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { Bus, ContextNote, Finding, PinCapability, SourceRef } from '../../types.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import type { VariantHeader } from '../variant-header.js';
import type { CoreFacts, CorePin, CoreTableReader } from './core-facts.js';
import { StampedCache } from '../cache.js';
import { sharedTimersOf } from './shared-timers.js';
import { unknownFacts } from './unknown-facts.js';
import { checkPicoSketch, type PicoCheckFacts } from './rp2040-check.js';
import { defineCoreCheck } from './core-checks.js';
import { cyw43Pins, isPicoCore, pwmSliceOf, rp2Chip, type Rp2Chip, type Rp2Package } from './rp2040-chips.js';
import { readPicoHeader, type PicoHeader } from './rp2040-header.js';
import { readPicoSerial } from './rp2040-serial.js';

const picoCheck = defineCoreCheck('rp2040', (sketch, facts: PicoCheckFacts) => checkPicoSketch(sketch, facts));

export const readRp2040Tables: CoreTableReader = (board, variant) => {
  if (!isPicoCore(board)) return undefined;
  const chipId = board.expanded('build.chip');
  const chip = rp2Chip(chipId);
  if (!chip) return unknownChip(board, chipId);
  const key = `${board.fqbn}\0${board.corePath}\0${board.variantPath ?? ''}\0${JSON.stringify(variant.defines)}`;
  return cache.get(key) ?? cache.build(key, () => readPicoFacts(board, variant, chip), (facts) => facts.files);
};

// A warm context build does not preprocess the core's headers again.
const cache = new StampedCache<CoreFacts>(64);

function unknownChip(board: ResolvedBoard, chipId: string | undefined): CoreFacts {
  const source = board.sources.get('build.chip');
  return unknownFacts('rp2040', chipId
    ? `build.chip "${chipId}"${source ? ` (${source.file}:${source.line})` : ''} is not in boards/data/rp2-chips.json`
    : `${board.fqbn} sets no build.chip, so the RP2040/RP2350 chip is not known`, []);
}

const BUS_MACROS: Array<{ bus: string; kind: 'i2c' | 'spi'; prefix: string; roles: string[] }> = [
  { bus: 'Wire', kind: 'i2c', prefix: 'PIN_WIRE0_', roles: ['SDA', 'SCL'] },
  { bus: 'Wire1', kind: 'i2c', prefix: 'PIN_WIRE1_', roles: ['SDA', 'SCL'] },
  { bus: 'SPI', kind: 'spi', prefix: 'PIN_SPI0_', roles: ['MISO', 'MOSI', 'SCK', 'SS'] },
  { bus: 'SPI1', kind: 'spi', prefix: 'PIN_SPI1_', roles: ['MISO', 'MOSI', 'SCK', 'SS'] },
];

function readPicoFacts(board: ResolvedBoard, variant: VariantHeader, chip: Rp2Chip): CoreFacts {
  const header = readPicoHeader(board, variant, chip);
  const warnings: Finding[] = [...header.warnings];
  const macroSource = (name: string): SourceRef | undefined => header.macros.get(name)?.source;

  const pkg = packageOf(chip, header);
  const gpioCount = header.evaluate('__GPIOCNT') ?? pkg?.gpioCount;
  const firstAdc = header.evaluate('__FIRSTANALOGGPIO') ?? pkg?.adcFirstGpio;
  if (!pkg || gpioCount === undefined || firstAdc === undefined) {
    const reason = chip.id.startsWith('rp2350') && !pkg
      ? `${variant.header ?? board.variantPath ?? board.fqbn}: PICO_RP2350A is not set, so RP2350A (30 GPIOs) or RP2350B (48) is not known`
      : `${join(board.corePath, 'Arduino.h')}: __GPIOCNT is not readable`;
    return unknownFacts('rp2040', reason, header.files, warnings);
  }
  if (gpioCount !== pkg.gpioCount) {
    warnings.push({ severity: 'warning', code: 'rp2-gpio-count', message: `${macroSource('__GPIOCNT')?.file ?? 'Arduino.h'}: __GPIOCNT is ${gpioCount}, the ${chip.name} datasheet figure is ${pkg.gpioCount} (${pkg.gpioSource.file}:${pkg.gpioSource.line})` });
  }

  const analogNames = new Map<number, { input: number; source: SourceRef }>();
  for (const [name, constant] of header.constants) {
    const match = /^A(\d+)$/.exec(name);
    if (match) analogNames.set(constant.value, { input: Number(match[1]), source: constant.source });
  }
  const interruptSource = macroSource('digitalPinToInterrupt');
  const pins: CorePin[] = [];
  for (let gpio = 0; gpio < gpioCount; gpio++) {
    const { slice, channel } = pwmSliceOf(gpio);
    const pin: CorePin = { number: gpio, names: [`GPIO${gpio}`], pwm: { timer: `PWM slice ${slice}`, channel, source: chip.pwmSliceRule } };
    if (gpio >= firstAdc && gpio < firstAdc + pkg.adcInputs) {
      const named = analogNames.get(gpio);
      pin.analog = { ...(named ? { input: named.input } : {}), channel: `ADC${gpio - firstAdc}`, source: named?.source ?? pkg.adcSource };
    }
    const interrupt = header.evaluate(`digitalPinToInterrupt(${gpio})`);
    if (interrupt !== undefined && interrupt >= 0 && interruptSource) pin.interrupt = { number: interrupt, source: interruptSource };
    pins.push(pin);
  }

  // Pico W and kin: the variant includes cyw43_wrappers.h, and pins from 64 are the WiFi chip's GPIOs.
  const cyw43Include = header.includes.find((include) => include.header === 'cyw43_wrappers.h');
  if (cyw43Include) {
    const wifi = cyw43Pins();
    for (let index = 0; index < wifi.count; index++) {
      pins.push({
        number: wifi.firstPin + index,
        names: [`WL_GPIO${index}`],
        traps: [{ code: 'rp2-cyw43-gpio', text: 'a GPIO of the CYW43 WiFi chip: digitalWrite/digitalRead only, no PWM, analog or interrupt', source: wifi.source }],
      });
    }
  }

  const pinOf = (name: string): number | undefined => {
    const value = header.macros.has(name) ? header.evaluate(name) : undefined;
    return value !== undefined && value >= 0 && value < gpioCount ? value : undefined;
  };
  // RP2350 boards with PSRAM name its chip select in the variant or through the PSRAM CS menu (-D).
  const psramCs = pinOf('RP2350_PSRAM_CS');
  const psramSource = macroSource('RP2350_PSRAM_CS') ?? board.sources.get('build.psram_cs');
  if (psramCs !== undefined && psramSource) {
    (pins[psramCs].traps ??= []).push({ code: 'rp2-psram-cs', text: 'the PSRAM chip select (RP2350_PSRAM_CS): driving it breaks PSRAM', source: psramSource });
  }
  const addFunction = (number: number | undefined, fn: string, capability: PinCapability, source: SourceRef | undefined): void => {
    if (number === undefined) return;
    (pins[number].functions ??= []).push({ fn, capability, ...(source ? { source } : {}) });
  };
  const buses: Bus[] = [];
  for (const group of BUS_MACROS) {
    const busPins: Record<string, number> = {};
    for (const role of group.roles) {
      const number = pinOf(`${group.prefix}${role}`);
      if (number === undefined) continue;
      busPins[role] = number;
      addFunction(number, `${group.bus} ${role}`, group.kind, macroSource(`${group.prefix}${role}`));
    }
    const first = group.roles.find((role) => role in busPins);
    if (first) buses.push({ kind: group.kind, name: group.bus, pins: busPins, ...(macroSource(`${group.prefix}${first}`) ? { source: macroSource(`${group.prefix}${first}`)! } : {}) });
  }

  const serial = readPicoSerial(board.corePath, header.macros, pinOf);
  for (const port of serial.ports) {
    const number = /^Serial(\d+)$/.exec(port.name)?.[1];
    if (!number) continue;
    for (const role of ['TX', 'RX'] as const) {
      addFunction(port.pins?.[role], `${port.name} ${role}`, 'uart', macroSource(`PIN_SERIAL${number}_${role}`) ?? macroSource(`SERIAL${number}_${role}`));
    }
  }

  const sharedTimers = sharedTimersOf(pins);
  const gpioSource = macroSource('__GPIOCNT') ?? pkg.gpioSource;
  const dacSource = macroSource('NUM_ANALOG_OUTPUTS');
  const notes = picoNotes(board, chip, pkg, gpioCount, firstAdc, gpioSource);
  return {
    core: 'rp2040',
    pins,
    known: {
      pwm: { known: true, source: chip.pwmSliceRule },
      analog: { known: true, source: pkg.adcSource },
      interrupt: interruptSource ? { known: true, source: interruptSource } : { known: false, reason: `${join(board.corePath, 'Arduino.h')}: digitalPinToInterrupt is not defined` },
      dac: dacSource && header.evaluate('NUM_ANALOG_OUTPUTS') === 0 ? { known: true, source: dacSource } : { known: false, reason: `${variant.header ?? 'the variant'}: NUM_ANALOG_OUTPUTS is not 0 or not readable` },
      serial: serial.files.length > 0 ? { known: true, source: serial.ports[0]?.source } : { known: false, reason: `${board.corePath}: SerialUSB.h/SerialUART.h not found` },
    },
    serialPorts: serial.ports,
    buses,
    sharedTimers,
    analogWriteWithoutPwm: {
      // earlephilhower/arduino-pico 387294c cores/rp2040/wiring_analog.cpp:82: `if ((pin >= __GPIOCNT) ...) return;`
      text: `every GPIO below ${gpioCount} has PWM; analogWrite on a higher number does nothing`,
      source: gpioSource,
    },
    // wiring_analog.cpp:140 (same commit): analogRead(pin) with pin < __FIRSTANALOGGPIO returns 0.
    analogReadAcceptsChannelNumbers: false,
    notes,
    files: [...header.files, ...serial.files, chip.pwmSource.file],
    warnings,
    check: picoCheck({ gpioCount, sliceSource: chip.pwmSliceRule }),
  };
}

function packageOf(chip: Rp2Chip, header: PicoHeader): Rp2Package | undefined {
  if (chip.packages.single) return chip.packages.single;
  if (!header.macros.has('PICO_RP2350A')) return undefined;
  const a = header.evaluate('PICO_RP2350A');
  return a === undefined ? undefined : chip.packages[a !== 0 ? 'A' : 'B'];
}

function picoNotes(board: ResolvedBoard, chip: Rp2Chip, pkg: Rp2Package, gpioCount: number, firstAdc: number, gpioSource: SourceRef): ContextNote[] {
  const last = firstAdc + pkg.adcInputs - 1;
  const notes: ContextNote[] = [
    {
      topic: 'PWM',
      text: `Every GPIO has PWM; the two GPIOs of a slice share its frequency, and GPIO n and n+16 (n < 16) are the same slice output (same duty). analogWriteFreq()/analogWriteRange() are global: each slice takes them at its next analogWrite.`,
      source: chip.pwmSliceRule,
    },
    {
      topic: 'analogRead',
      text: `analogRead takes GPIO numbers: the ADC is on GPIO${firstAdc}-${last} (A0-A${pkg.adcInputs - 1}); analogRead of a lower GPIO returns 0, and analogRead(0) is not A0.`,
      source: pkg.adcSource,
    },
  ];
  const toneFile = join(board.corePath, 'tone2.pio.h');
  const toneLine = lineMatching(toneFile, /tone2_program\b/);
  if (toneLine) notes.push({ topic: 'tone', text: 'tone() runs on a PIO state machine, not a PWM slice: it does not change the PWM frequency of other pins.', source: { file: toneFile, line: toneLine } });
  if (gpioCount > 30) notes.push({ topic: 'GPIO', text: `${chip.name}B: GPIO0-${gpioCount - 1}, PWM slices 8-11 on GPIO32-47.`, source: gpioSource });
  return notes;
}

function lineMatching(file: string, pattern: RegExp): number | undefined {
  try {
    const index = readFileSync(file, 'utf8').split('\n').findIndex((line) => pattern.test(line));
    return index < 0 ? undefined : index + 1;
  } catch {
    return undefined;
  }
}
