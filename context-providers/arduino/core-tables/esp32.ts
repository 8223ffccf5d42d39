// The ESP32 family's core tables: the variant's pins_arduino.h plus the chip's facts, chosen by
// `build.mcu` (esp32, esp32s2, esp32s3, esp32c3, esp32c6, esp32h2) so they hold even when the
// core or variant folder is missing. Installed SDK headers win over boards/data/esp32-chips.json.
import type { VariantHeader } from '../variant-header.js';
import type { CoreFacts, CoreTableReader } from './core-facts.js';
import { esp32Chip, esp32ChipsFile, knownEsp32Chips } from './esp32-chips.js';
import { checkEsp32Sketch } from './esp32-checks.js';
import { readEsp32Facts, type Esp32Facts } from './esp32-facts.js';
import { esp32Notes, esp32Pins, esp32SerialPorts } from './esp32-pins.js';

export const readEsp32Tables: CoreTableReader = (board, variant) => {
  const mcu = board.expanded('build.mcu');
  const chip = esp32Chip(mcu);
  if (!chip) {
    if (board.architecture !== 'esp32') return undefined;
    const reason = `build.mcu "${mcu ?? ''}" is not one of the chips in ${esp32ChipsFile()} (${knownEsp32Chips().join(', ')})`;
    const unknown = { known: false as const, reason };
    return { core: 'esp32', pins: [], known: { pwm: unknown, analog: unknown, interrupt: unknown, dac: unknown, serial: unknown }, notes: [], files: [], warnings: [] };
  }
  const facts = readEsp32Facts(board, variant, chip);
  // With BOARD_HAS_PIN_REMAP (Arduino Nano ESP32) a sketch's pin numbers are the variant's D-numbers,
  // which the core maps to GPIOs at run time (io_pin_remap.h): GPIO-numbered facts would be wrong.
  if (variant.macros.has('BOARD_HAS_PIN_REMAP') && !variant.macros.has('BOARD_USES_HW_GPIO_NUMBERS')) return remapped(facts, variant);
  const hasAnalogWrite = facts.core.files.length === 0 || facts.core.functions.has('analogWrite');
  const ledc = facts.core.functions.get('ledcSetup');
  const serialPorts = esp32SerialPorts(facts, variant);
  const result: CoreFacts = {
    core: 'esp32',
    pins: esp32Pins(facts, variant, serialPorts),
    known: {
      pwm: { known: true, source: facts.ledcRouting, ...(hasAnalogWrite ? {} : { api: 'ledcAttachPin + ledcWrite; this core has no analogWrite' }) },
      analog: { known: true, source: facts.adcSource },
      interrupt: { known: true, source: variant.macros.get('digitalPinToInterrupt')?.source ?? facts.gpios.source },
      dac: { known: true, source: facts.dacSource },
      serial: { known: true, source: facts.uarts.source },
    },
    serialPorts,
    // 2.x/3.x esp32-hal-ledc.c analogWrite attaches an LEDC channel to the pin; 1.0.x has no analogWrite.
    analogWriteWithoutPwm: hasAnalogWrite
      ? { text: `analogWrite runs every output-capable GPIO through an LEDC channel; an input-only GPIO (${facts.inputOnly.pins.size > 0 ? [...facts.inputOnly.pins].join(', ') : 'none on this chip'}) cannot be driven at all`, source: facts.inputOnly.source }
      : { text: 'this core has no analogWrite at all (a compile error); PWM is ledcSetup + ledcAttachPin + ledcWrite on any output GPIO', ...(ledc ? { source: ledc } : {}) },
    // analogRead(pin) takes a GPIO (esp32-hal-adc.c maps it with digitalPinToAnalogChannel), so analogRead(0) reads GPIO0.
    analogReadAcceptsChannelNumbers: false,
    // arduino-esp32 declares A<n>, T<n>, DAC<n> in each variant's pins_arduino.h only (cores/esp32 has none).
    ...(facts.variantHeader && facts.core.files.length > 0 ? { pinNamesFromVariant: { source: { file: facts.variantHeader } } } : {}),
    notes: esp32Notes(facts),
    files: [...facts.files, esp32ChipsFile()],
    warnings: [],
    check: (view) => checkEsp32Sketch(facts, view, variant.evaluate('LED_BUILTIN')),
  };
  if (!facts.core.files.length) result.warnings.push({ severity: 'info', code: 'esp32-core-missing', message: `${board.corePath}: the core's headers are not installed; ESP32 facts come from ${esp32ChipsFile()} (${chip.name})` });
  return result;
};

function remapped(facts: Esp32Facts, variant: VariantHeader): CoreFacts {
  const source = variant.macros.get('BOARD_HAS_PIN_REMAP')?.source;
  const unknown = { known: false as const, reason: `BOARD_HAS_PIN_REMAP${source ? ` (${source.file}${source.line ? `:${source.line}` : ''})` : ''}: sketch pin numbers are D-numbers the core maps to GPIOs at run time; the ${facts.chip.name}'s GPIO facts are not mapped to them` };
  const gpioFree = { ...facts, gpios: { ...facts.gpios, pins: new Set<number>() } };
  return {
    core: 'esp32',
    pins: [],
    known: { pwm: unknown, analog: unknown, interrupt: unknown, dac: unknown, serial: { known: true, source: facts.uarts.source } },
    serialPorts: esp32SerialPorts(facts, variant),
    analogReadAcceptsChannelNumbers: false,
    notes: esp32Notes(facts),
    files: [...facts.files, esp32ChipsFile()],
    warnings: [{ severity: 'info', code: 'esp32-pin-remap', message: unknown.reason }],
    check: (view) => checkEsp32Sketch(gpioFree, view),
  };
}
