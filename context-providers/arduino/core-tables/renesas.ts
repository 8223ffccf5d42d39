// The Renesas core (arduino:renesas_uno: UNO R4 Minima/WiFi, Nano R4, Portenta C33 and boards built
// on it): per-pin facts from variant.cpp's g_pin_cfg and the pinmux.inc lists it names, decoded
// with the core's own variant.h macros, as getPinCfgs (cores/arduino/variant_helper.cpp) reads them.
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { join } from '../../../platform/path-join.js';
import type { ContextNote, Finding, PinCapability, SourceRef } from '../../types.js';
import type { Macro } from '../preprocessor.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import type { VariantHeader } from '../variant-header.js';
import { addBusFunctions, busesFromMacros, RENESAS_BUSES } from './bus-macros.js';
import { macroFunction } from './c-tables.js';
import { findLine } from './cited-line.js';
import { coreVendor } from './core-vendor.js';
import { checkSharedInterruptLines } from './interrupt-lines.js';
import { groupPwmPins } from './pwm-groups.js';
import type { CorePin, CoreSketchView, CoreTableReader, Knowledge } from './core-facts.js';
import { readPinmuxTable, type PinmuxRow } from './renesas-pinmux.js';
import { uartObjects } from './uart-objects.js';
import { defineCoreCheck } from './core-checks.js';

const renesasCheck = defineCoreCheck('renesas', (sketch, { arduinoCore, pins, timerTable }: { arduinoCore: boolean; pins: CorePin[]; timerTable?: SourceRef }) => [
  ...(arduinoCore ? [...checkHighInterrupts(sketch), ...checkToneOnFirstGpt(sketch, pins, timerTable)] : []),
  ...checkSharedInterruptLines(sketch, pins, 'the core keeps one handler per IRQ channel'),
]);

/** A Renesas-core board: its core's variant.h declares the PinMuxCfg_t table (also third-party boards on this core). */
function isRenesasCore(board: ResolvedBoard): boolean {
  if (/^renesas/.test(board.architecture)) return true;
  const variantH = join(board.corePath, 'variant.h');
  return existsSync(variantH) && readFileSync(variantH, 'utf8').includes('PinMuxCfg_t');
}

type Decoder = (value: bigint) => bigint | undefined;

function decoders(macros: Map<string, Macro>) {
  const get = (name: string): Decoder => macroFunction(macros, name) ?? (() => undefined);
  return {
    pwm: get('IS_PIN_PWM'), agt: get('IS_PIN_AGT_PWM'), onA: get('IS_PWM_ON_A'), channel: get('GET_CHANNEL'),
    analog: get('IS_PIN_ANALOG'), adc1: get('IS_ADC1'), dac: get('IS_PIN_DAC'), dac8: get('IS_DAC_8BIT'),
    interrupt: get('IS_PIN_INTERRUPT'), sci: get('IS_SCI'),
    scl: get('IS_PIN_SCL'), sda: get('IS_PIN_SDA'), miso: get('IS_PIN_MISO'), mosi: get('IS_PIN_MOSI'), sck: get('IS_PIN_SCK'),
    rx: get('IS_PIN_UART_RX'), tx: get('IS_PIN_UART_TX'), canTx: get('IS_PIN_CAN_TX'), canRx: get('IS_PIN_CAN_RX'),
  };
}

const yes = (decode: Decoder, value: bigint): boolean => {
  const result = decode(value);
  return result !== undefined && result !== 0n;
};

function describePin(row: PinmuxRow, decode: ReturnType<typeof decoders>, analogInputs: Map<number, number>, isDacPin: (pin: number) => boolean): CorePin {
  const pin: CorePin = { number: row.number, ...(row.port ? { names: [row.port] } : {}) };
  const functions: NonNullable<CorePin['functions']> = [];
  const role = (fn: string, capability: PinCapability, source: SourceRef): void => {
    if (!functions.some((f) => f.fn === fn)) functions.push({ fn, capability, source });
  };
  for (const { value, source } of row.entries ?? []) {
    const channel = Number(decode.channel(value) ?? -1);
    const sci = yes(decode.sci, value);
    // analogWrite takes the first PWM entry (getPinCfgs(pin, PIN_CFG_REQ_PWM)[0] in pwm.cpp's cfg_pin).
    if (!pin.pwm && yes(decode.pwm, value)) {
      pin.pwm = { timer: `${yes(decode.agt, value) ? 'AGT' : 'GPT'}${channel}`, channel: yes(decode.onA, value) ? 'A' : 'B', source };
    } else if (!pin.analog && yes(decode.analog, value)) {
      const input = analogInputs.get(row.number);
      pin.analog = { ...(input !== undefined ? { input } : {}), channel: `ADC${yes(decode.adc1, value) ? 1 : 0} AN${String(channel).padStart(2, '0')}`, source };
    } else if (!pin.dac && yes(decode.dac, value) && isDacPin(row.number)) {
      pin.dac = { channel: `${yes(decode.dac8, value) ? 'DAC8' : 'DAC12'} ch${channel}`, source };
    } else if (!pin.interrupt && yes(decode.interrupt, value)) {
      // digitalPinToInterrupt(pin) returns pin (ArduinoCore-renesas cores/arduino/Interrupts.cpp:72).
      pin.interrupt = { number: row.number, line: `IRQ${channel}`, source };
    } else if (sci) {
      if (yes(decode.rx, value)) role(`SCI${channel} RX/MISO/SCL`, 'uart', source);
      else if (yes(decode.tx, value)) role(`SCI${channel} TX/MOSI/SDA`, 'uart', source);
      else if (yes(decode.sck, value)) role(`SCI${channel} SCK`, 'uart', source);
      else role(`SCI${channel} CTS/RTS/SS`, 'uart', source);
    } else if (yes(decode.scl, value)) role(`I2C${channel} SCL`, 'i2c', source);
    else if (yes(decode.sda, value)) role(`I2C${channel} SDA`, 'i2c', source);
    else if (yes(decode.miso, value)) role(`SPI${channel} MISO`, 'spi', source);
    else if (yes(decode.mosi, value)) role(`SPI${channel} MOSI`, 'spi', source);
    else if (yes(decode.sck, value)) role(`SPI${channel} SCK`, 'spi', source);
    else if (yes(decode.canTx, value)) role(`CAN${channel} TX`, 'can', source);
    else if (yes(decode.canRx, value)) role(`CAN${channel} RX`, 'can', source);
  }
  if (functions.length > 0) pin.functions = functions;
  return pin;
}

/** A<n> numbers by pin: the variant's `A0`…`A<k>` constants (or PIN_A<n> macros). */
function analogInputNumbers(variant: VariantHeader): Map<number, number> {
  const inputs = new Map<number, number>();
  for (let n = 0; n < 64; n++) {
    const pin = variant.constants.get(`A${n}`)?.value ?? variant.evaluate(`PIN_A${n}`);
    if (pin === undefined) break;
    if (!inputs.has(pin)) inputs.set(pin, n);
  }
  return inputs;
}

export const readRenesasTables: CoreTableReader = (board, variant) => {
  if (!isRenesasCore(board)) return undefined;
  const table = readPinmuxTable(board, variant);
  const decode = decoders(table.macros);
  const isDac = variant.pinFunction('IS_DAC');
  const inputs = analogInputNumbers(variant);
  const pins = table.rows.map((row) => describePin(row, decode, inputs, (pin) => (isDac?.(pin) ?? 0) !== 0));
  const toAnalog = variant.pinFunction('digitalPinToAnalogPin');
  const a0 = [...inputs].find(([, n]) => n === 0)?.[0];
  const acceptsChannels = toAnalog !== undefined && a0 !== undefined && toAnalog(0) === a0;
  // analogRead(p) reads A<p> when p < A0 (digitalPinToAnalogPin), so a D-pin's own ADC channel is never read.
  if (acceptsChannels) for (const pin of pins) if (pin.number < a0) delete pin.analog;
  const unreadable = table.rows.filter((row) => !row.entries).map((row) => row.number);
  const tableSource = table.source;
  const tableKnowledge: Knowledge = table.missing
    ? { known: false, reason: table.missing }
    : unreadable.length > 0
      ? { known: false, reason: `g_pin_cfg rows of pins ${unreadable.join(', ')} name lists that could not be read` }
      : { known: true, ...(tableSource ? { source: tableSource } : {}) };
  const buses = busesFromMacros(variant, RENESAS_BUSES);
  addBusFunctions(pins, buses);
  const serial = uartObjects(variant, { usbObjects: ['SerialUSB'], pinMacros: (k) => ({ tx: `UART${k}_TX_PIN`, rx: `UART${k}_RX_PIN` }) });
  // SerialUSB itself is the core's object (usb/SerialUSB.h; SerialUSB.cpp defines it whatever NO_USB says).
  const serialUsb = findLine(join(board.corePath, 'usb', 'SerialUSB.h'), /extern\s+_SerialUSB\s+SerialUSB\s*;/);
  if (serialUsb && serial.known.known) serial.ports.push({ name: 'SerialUSB', kind: 'usb', source: serialUsb });

  const sharedTimers = groupPwmPins(pins);
  const arduinoCore = coreVendor(board) === 'arduino';
  const notes: ContextNote[] = [];
  const pwmDefinition = table.macros.get('IS_PIN_PWM')?.source;
  if (tableKnowledge.known) {
    notes.push({
      topic: 'pwm',
      text: 'analogWrite uses the first PWM entry of the pin\'s g_pin_cfg list (a GPT or AGT channel, output A or B); pins on one channel share its period.',
      ...(pwmDefinition ? { source: pwmDefinition } : {}),
    });
  }
  // ArduinoCore-renesas Tone.cpp: the first tone() takes FspTimer::get_available_timer(), the lowest GPT
  // channel still TIMER_FREE (FspTimer.cpp); PwmOut's FspTimer::begin then finds that channel TIMER_USED.
  const firstGpt = pins.filter((pin) => pin.pwm?.timer === 'GPT0').map((pin) => pin.number);
  const timerTable = findLine(join(board.corePath, 'FspTimer.h'), /gpt_used_channel\[GPT_HOWMANY\]/);
  if (arduinoCore && firstGpt.length > 0) {
    notes.push({
      topic: 'tone',
      text: `The first tone() takes the lowest GPT channel no PWM pin has taken yet (GPT0, the timer of pins ${firstGpt.join(', ')}, if no analogWrite on them ran before), and analogWrite on that channel's pins afterwards does not get it: start PWM on those pins before the first tone(), or use other PWM pins.`,
      ...(timerTable ? { source: timerTable } : {}),
    });
  }
  if (acceptsChannels) {
    notes.push({ topic: 'analogRead', text: 'analogRead(n) with n below A0 reads A<n> (digitalPinToAnalogPin).', source: variant.macros.get('digitalPinToAnalogPin')?.source });
  }

  return {
    core: 'renesas',
    pins,
    known: { pwm: tableKnowledge, analog: tableKnowledge, interrupt: tableKnowledge, dac: tableKnowledge, serial: serial.known },
    serialPorts: serial.ports,
    ...(buses.length > 0 ? { buses } : {}),
    ...(sharedTimers.length > 0 ? { sharedTimers } : {}),
    // ArduinoCore-renesas cores/arduino/analog.cpp analogWrite(): a pin that is not the DAC gets a
    // PwmOut whose begin() fails when getPinCfgs finds no PWM entry (pwm.cpp cfg_pin), and the call
    // returns without driving the pin; the failed PwmOut stays in analog.cpp's table after delete.
    ...(arduinoCore ? { analogWriteWithoutPwm: {
      text: 'on this core analogWrite() does nothing on a pin without a PWM entry (other than a DAC pin): no timer is set up and there is no digital on/off fallback, and calling it again on that pin is undefined behaviour (the failed PwmOut stays in the core\'s table after it is deleted)',
      ...(pwmDefinition ? { source: pwmDefinition } : {}),
    } } : {}),
    analogReadAcceptsChannelNumbers: acceptsChannels,
    notes,
    files: [...new Set([...table.files, ...variant.files])],
    warnings: table.warnings,
    check: renesasCheck({ arduinoCore, pins, ...(timerTable ? { timerTable } : {}) }),
  };
};

// Tone.cpp (ArduinoCore-renesas): the first tone() takes FspTimer::get_available_timer(), the lowest
// GPT channel still TIMER_FREE (FspTimer.cpp); a later analogWrite on a pin of that channel finds it
// TIMER_USED and gets no PWM. With GPT0 free until an analogWrite on its pins starts it, a sketch
// that calls tone() and, not before it as written, analogWrite on a GPT0 pin loses that PWM.
function checkToneOnFirstGpt(sketch: CoreSketchView, pins: CorePin[], timerTable: SourceRef | undefined): Finding[] {
  const firstTone = sketch.calls.findIndex((call) => call.name === 'tone' && !call.receiver);
  if (firstTone < 0) return [];
  const gpt0 = new Set(pins.filter((pin) => pin.pwm?.timer === 'GPT0').map((pin) => pin.number));
  const onGpt0 = (index: number): boolean => {
    const call = sketch.calls[index];
    return call.name === 'analogWrite' && !call.receiver && (call.values[0] ?? []).some((pin) => gpt0.has(pin));
  };
  if (sketch.calls.slice(0, firstTone).some((_, index) => onGpt0(index))) return [];
  const index = sketch.calls.findIndex((_, at) => at > firstTone && onGpt0(at));
  if (index < 0) return [];
  const call = sketch.calls[index];
  const pin = (call.values[0] ?? []).find((value) => gpt0.has(value))!;
  const tone = sketch.calls[firstTone];
  const cite = timerTable ? ` (${basename(timerTable.file)}:${timerTable.line})` : '';
  return [{
    severity: 'warning',
    code: 'tone-timer-shared',
    message: `analogWrite(${pin}, …) after tone() (line ${tone.token.line}): on ${sketch.boardName} the first tone() takes the lowest free GPT channel${cite}, GPT0 unless an analogWrite on pins ${[...gpt0].join(', ')} ran before it, and pin ${pin}'s PWM is GPT0, so this analogWrite then gets no PWM`,
    suggestion: `Start analogWrite on pin ${pin} before the first tone(), or use a PWM pin on another GPT channel.`,
    ...(call.token.file ? { file: call.token.file } : {}),
    line: call.token.line,
  }];
}

// Interrupts.cpp (ArduinoCore-renesas) sets HIGH up as a rising edge ("TODO: document that HIGH IRQ is
// unavailable"); it also keeps one handler per ICU IRQ channel (IrqChannel.get(ch)).
function checkHighInterrupts(sketch: CoreSketchView): Finding[] {
  const findings: Finding[] = [];
  for (const call of sketch.calls) {
    if (call.name !== 'attachInterrupt' || call.receiver || !(call.args[2]?.length === 1 && call.args[2][0].text === 'HIGH')) continue;
    findings.push({
      severity: 'warning',
      code: 'interrupt-high',
      message: `attachInterrupt(…, HIGH): ${sketch.boardName}'s core has no HIGH level interrupt and sets it up as RISING`,
      suggestion: 'Use RISING, or LOW for a level interrupt.',
      ...(call.token.file ? { file: call.token.file } : {}),
      line: call.token.line,
    });
  }
  return findings;
}
