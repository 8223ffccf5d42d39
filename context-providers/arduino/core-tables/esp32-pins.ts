// The ESP32 pin table, serial ports and notes from one board's facts: an Arduino pin number is
// the GPIO number on these cores (pins_arduino.h's A0 = 36, T0 = 4, DAC1 = 25 are GPIOs).
import type { ContextNote, SourceRef } from '../../types.js';
import type { VariantHeader } from '../variant-header.js';
import type { CorePin, CoreSerialPort } from './core-facts.js';
import type { Esp32Facts } from './esp32-facts.js';

/** `GPIO6–11, 16, 17` from a set of GPIO numbers. */
export function gpioList(pins: Iterable<number>): string {
  const sorted = [...new Set(pins)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let index = 0; index < sorted.length; index++) {
    let end = index;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
    parts.push(end - index >= 2 ? `${sorted[index]}–${sorted[end]}` : sorted.slice(index, end + 1).join(', '));
    index = end;
  }
  return parts.length > 0 ? `GPIO${parts.join(', ')}` : 'none';
}

export function esp32Pins(facts: Esp32Facts, variant: VariantHeader, ports: CoreSerialPort[]): CorePin[] {
  const named = new Map<number, string[]>();
  for (const [name, constant] of variant.constants) {
    if (/^(A|T|DAC)\d+$/.test(name)) named.set(constant.value, [...(named.get(constant.value) ?? []), name]);
  }
  const toInterrupt = variant.pinFunction('digitalPinToInterrupt');
  const interruptSource = variant.macros.get('digitalPinToInterrupt')?.source;
  const pins: CorePin[] = [];
  for (const gpio of [...facts.gpios.pins].sort((a, b) => a - b)) {
    const names = named.get(gpio) ?? [];
    const pin: CorePin = { number: gpio, names: [`GPIO${gpio}`, ...names] };
    if (!facts.inputOnly.pins.has(gpio)) pin.pwm = { timer: 'LEDC', source: facts.ledcRouting };
    const adc = facts.adc.get(gpio);
    const input = names.map((name) => /^A(\d+)$/.exec(name)?.[1]).find((n) => n !== undefined);
    if (adc) pin.analog = { ...(input !== undefined ? { input: Number(input) } : {}), channel: adc.name, source: adc.source };
    const dac = facts.dac.get(gpio);
    if (dac) pin.dac = { channel: dac.name, source: dac.source };
    const viaVariant = toInterrupt?.(gpio);
    if (toInterrupt && interruptSource && viaVariant !== undefined) {
      if (viaVariant >= 0) pin.interrupt = { number: viaVariant, source: interruptSource };
    } else {
      pin.interrupt = { number: gpio, source: facts.gpios.source };
    }
    const functions: NonNullable<CorePin['functions']> = [];
    if (facts.usb.pins.has(gpio)) functions.push({ fn: facts.chip.usb.otg ? 'USB D-/D+' : 'USB-Serial-JTAG', capability: 'usb', source: facts.usb.source });
    // Serial1/Serial2 default pins where the core's HardwareSerial.h defines them (3.x); the variant's TX/RX name Serial's.
    for (const port of ports) {
      if (port.name === 'Serial' || !port.pins) continue;
      for (const [role, number] of Object.entries(port.pins)) if (number === gpio) functions.push({ fn: `${port.name} ${role}`, capability: 'uart', ...(port.source ? { source: port.source } : {}) });
    }
    if (functions.length > 0) pin.functions = functions;
    const traps = pinTraps(facts, gpio);
    if (traps.length > 0) pin.traps = traps;
    pins.push(pin);
  }
  return pins;
}

function pinTraps(facts: Esp32Facts, gpio: number): NonNullable<CorePin['traps']> {
  const traps: NonNullable<CorePin['traps']> = [];
  const add = (code: string, text: string, source: SourceRef): void => void traps.push({ code, text, source });
  if (facts.inputOnly.pins.has(gpio)) add('input-only', 'input only: no output, no PWM', facts.inputOnly.source);
  if (facts.flash.pins.has(gpio)) add('flash', 'wired to the SPI flash on modules: do not use', facts.flash.source);
  if (facts.psram?.pins.has(gpio)) add('psram', 'wired to PSRAM on modules that have it', facts.psram.source);
  if (facts.octal?.pins.has(gpio)) add('octal-flash-psram', 'wired to octal flash/PSRAM on ESP32-S3R8 modules', facts.octal.source);
  if (facts.strapping.pins.has(gpio)) add('strapping', 'strapping pin: its level at reset selects the boot mode', facts.strapping.source);
  if (facts.usb.pins.has(gpio)) add('usb', 'native USB: using it as GPIO disconnects USB', facts.usb.source);
  if (facts.adc.get(gpio)?.unit === 2 && facts.adc2WithWifi) add('adc2-wifi', facts.adc2WithWifi.value === 'blocked' ? 'ADC2: no analogRead while Wi-Fi runs' : 'ADC2: shared with Wi-Fi, reads can fail', facts.adc2WithWifi.source);
  // One text per code: the context lists a trap once with all its pins; T-numbers are pin names.
  const touch = facts.touch.get(gpio);
  if (touch) add('touch', 'touch pad (touchRead)', touch.source);
  return traps;
}

/**
 * HardwareSerial.h's `extern HardwareSerial SerialN;` lines under the chip's SOC_UART_NUM when the
 * core is installed; otherwise one port per UART of the chip, so a missing core never hides Serial2.
 */
export function esp32SerialPorts(facts: Esp32Facts, variant: VariantHeader): CoreSerialPort[] {
  const tx = variant.constants.get('TX')?.value;
  const rx = variant.constants.get('RX')?.value;
  const uart0Pins = tx !== undefined || rx !== undefined ? { ...(tx !== undefined ? { TX: tx } : {}), ...(rx !== undefined ? { RX: rx } : {}) } : undefined;
  const objects = facts.core.serial;
  if (!objects) {
    return [...Array(facts.uarts.value).keys()].map((uart) => ({
      name: uart === 0 ? 'Serial' : `Serial${uart}`,
      kind: 'uart' as const,
      ...(uart === 0 && uart0Pins ? { pins: uart0Pins } : {}),
      source: facts.uarts.source,
    }));
  }
  return objects.map((object) => {
    const target = object.aliasOf ? objects.find((other) => other.name === object.aliasOf) : object;
    const usb = object.aliasOf !== undefined && !target;
    const pins = target?.pins ? { ...(target.pins.RX !== undefined ? { RX: target.pins.RX } : {}), ...(target.pins.TX !== undefined ? { TX: target.pins.TX } : {}) } : /^Serial0?$/.test(target?.name ?? '') ? uart0Pins : undefined;
    return { name: object.name, kind: usb ? 'usb' : 'uart', ...(pins && !usb ? { pins } : {}), source: object.source };
  });
}

// The installed HardwareSerial.h's begin() (rxPin = -1 by default) on an ESP32 whose core does
// not define RX1 in the header, i.e. before 3.0.
function serial1Begin(facts: Esp32Facts): SourceRef | undefined {
  if (facts.chip.id !== 'esp32' || !facts.ledc.known || facts.ledc.generation !== 'before 3.0' || !facts.core.serial) return undefined;
  if (facts.core.serial.some((object) => object.name === 'Serial1' && object.pins)) return undefined;
  return facts.core.serialBegin;
}

export function esp32Notes(facts: Esp32Facts): ContextNote[] {
  const { chip } = facts;
  const notes: ContextNote[] = [];
  if (facts.adc2WithWifi) {
    const adc2 = [...facts.adc].filter(([, entry]) => entry.unit === 2).map(([gpio]) => gpio);
    const adc1 = [...facts.adc].filter(([, entry]) => entry.unit === 1).map(([gpio]) => gpio);
    notes.push({
      topic: 'ADC2 and Wi-Fi',
      text: facts.adc2WithWifi.value === 'blocked'
        ? `ADC2 (${gpioList(adc2)}) cannot be read while Wi-Fi runs: analogRead there fails; with Wi-Fi use ADC1 (${gpioList(adc1)}).`
        : `ADC2 (${gpioList(adc2)}) is shared with Wi-Fi; a read can fail while Wi-Fi transmits. ADC1: ${gpioList(adc1)}.`,
      source: facts.adc2WithWifi.source,
    });
  }
  const ledc = facts.ledc.known ? ` This core's API (${facts.ledc.generation}): ${facts.ledc.how}.` : '';
  notes.push({
    topic: 'PWM (LEDC)',
    text: `${chip.ledcChannels.value > 8 ? `${chip.ledcChannels.value} LEDC channels in two speed groups of ${chip.ledcChannels.value / 2}, each group with ${chip.ledcTimers.value} timers` : `${chip.ledcChannels.value} LEDC channels on ${chip.ledcTimers.value} timers`}, routable to any output GPIO${facts.ledc.known && facts.ledc.generation === 'before 3.0' ? '; channels 2n and 2n+1 share a timer, so one frequency' : ''}.${ledc}`,
    source: facts.ledc.known ? facts.ledc.source : facts.ledcRouting,
  });
  if (facts.core.files.length > 0 && !facts.core.functions.has('analogWrite')) {
    const setup = facts.core.functions.get('ledcSetup');
    notes.push({ topic: 'No analogWrite', text: 'This core declares no analogWrite (calling it does not compile): drive PWM with the LEDC calls above.', ...(setup ? { source: setup } : {}) });
  }
  const begin = serial1Begin(facts);
  if (begin) notes.push({ topic: 'Serial1 pins', text: 'Serial1.begin(baud) without pins uses GPIO9/10 on this core (HardwareSerial.cpp before 3.0), the flash pins: always pass rxPin and txPin.', source: begin });
  if (facts.usb.pins.size > 0) {
    notes.push({ topic: 'Native USB', text: `${gpioList(facts.usb.pins)} carry native USB (${[chip.usb.otg ? 'USB OTG' : '', chip.usb.serialJtag ? 'USB-Serial-JTAG' : ''].filter(Boolean).join(' and ')}); Serial is the USB port when "USB CDC On Boot" is enabled.`, source: facts.usb.source });
  }
  return notes;
}
