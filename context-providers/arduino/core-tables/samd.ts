// The SAMD core (arduino:samd: Zero, MKR family, Nano 33 IoT, Circuit Playground, and boards built
// on it): per-pin facts from variant.cpp's g_APinDescription, read the way the core's
// wiring_analog.c and WInterrupts.c (ArduinoCore-samd 1.8.14) use each field.
import { existsSync, readFileSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { ContextNote, Finding } from '../../types.js';
import type { VariantHeader } from '../variant-header.js';
import { addBusFunctions, busesFromMacros } from './bus-macros.js';
import { evaluateTokens } from './c-tables.js';
import { findLine } from './cited-line.js';
import { coreVendor } from './core-vendor.js';
import type { CorePin, CoreSerialPort, CoreSketchView, CoreTableReader, Knowledge } from './core-facts.js';
import { checkSharedInterruptLines } from './interrupt-lines.js';
import { analogWritePins, checkSharedPwmOutputs, groupPwmPins } from './pwm-groups.js';
import { readSamdTable, type SamdRow, type SamdTable } from './samd-pins.js';
import { defineCoreCheck } from './core-checks.js';

const samdCheck = defineCoreCheck('samd', (sketch, { arduinoCore, pins }: { arduinoCore: boolean; pins: CorePin[] }) => [
  ...checkSharedInterruptLines(sketch, pins, 'the core keeps one callback per EXTINT line'),
  ...checkSharedPwmOutputs(sketch, pins, 'PWM'),
  ...(arduinoCore ? checkToneTimer(sketch, pins) : []),
]);

/** A SAMD-core board: the core's WVariant.h declares g_APinDescription as PinDescription rows. */
function isSamdCore(corePath: string, architecture: string): boolean {
  const wvariant = join(corePath, 'WVariant.h');
  if (!existsSync(wvariant)) return false;
  return architecture === 'samd' || readFileSync(wvariant, 'utf8').includes('EAnalogChannel');
}

const flag = (table: SamdTable, name: string): bigint | undefined => evaluateTokens([{ kind: 'identifier', text: name, line: 0, bol: false }], table.macros, () => undefined);

function describePins(table: SamdTable, variant: VariantHeader): CorePin[] {
  const attrAnalog = flag(table, 'PIN_ATTR_ANALOG');
  const attrPwm = flag(table, 'PIN_ATTR_PWM');
  const noAdc = table.enums.get('No_ADC_Channel');
  const adc0 = table.enums.get('ADC_Channel0');
  const dac0 = table.enums.get('DAC_Channel0');
  const noPwm = table.enums.get('NOT_ON_PWM');
  const noInt = table.enums.get('NOT_AN_INTERRUPT');
  const nmi = table.enums.get('EXTERNAL_INT_NMI');
  const a0 = variant.constants.get('A0')?.value ?? variant.evaluate('PIN_A0');
  const inputs = new Map<number, number>();
  for (let n = 0; n < 32; n++) {
    const pin = variant.constants.get(`A${n}`)?.value ?? variant.evaluate(`PIN_A${n}`);
    if (pin !== undefined && !inputs.has(pin)) inputs.set(pin, n);
  }
  const toInterrupt = variant.pinFunction('digitalPinToInterrupt');
  const timerNames = new Set([...table.enums.keys()].map((name) => /^(TCC?\d+)_CH\d+$/.exec(name)?.[1]).filter((name) => name !== undefined));

  return table.rows.map((row): CorePin => {
    const pin: CorePin = { number: row.number, ...(row.port ? { names: [row.port] } : {}) };
    const attribute = row.attribute ?? 0n;
    const isAnalogAttr = attrAnalog !== undefined && (attribute & attrAnalog) === attrAnalog;
    // analogWrite: a PIN_ATTR_ANALOG pin is the DAC (AIN0/DAC_Channel0) or nothing; only then PIN_ATTR_PWM counts.
    if (isAnalogAttr && (row.adcChannel === adc0 || row.adcChannel === dac0)) {
      pin.dac = { channel: 'DAC VOUT (10-bit)', source: row.source };
    } else if (!isAnalogAttr && attrPwm !== undefined && (attribute & attrPwm) === attrPwm && row.pwmChannel !== undefined && row.pwmChannel !== noPwm) {
      const number = Number(row.pwmChannel >> 8n);
      const timer = timerNames.has(`TCC${number}`) ? `TCC${number}` : `TC${number}`;
      pin.pwm = { timer, channel: `CC${Number(row.pwmChannel & 0xffn)}`, source: row.source };
    }
    // analogRead(p) reads A<p> when p < A0, so only pins from A0 on reach their own ADC channel.
    if (row.adcChannel !== undefined && row.adcChannel !== noAdc && row.adcChannel !== dac0 && (a0 === undefined || row.number >= a0)) {
      const input = inputs.get(row.number);
      pin.analog = { ...(input !== undefined ? { input } : {}), channel: `AIN${row.adcChannel}`, source: row.source };
    }
    if (row.extInt !== undefined && row.extInt !== noInt && row.extInt !== nmi) {
      pin.interrupt = { number: toInterrupt?.(row.number) ?? Number(row.extInt), line: `EXTINT${row.extInt}`, source: row.source };
    }
    return pin;
  });
}

function serialPorts(table: SamdTable, variant: VariantHeader, corePath: string): CoreSerialPort[] {
  const ports: CoreSerialPort[] = [];
  for (const { name, source } of table.uarts) {
    const base = `PIN_${name.toUpperCase()}`;
    const tx = variant.evaluate(`${base}_TX`);
    const rx = variant.evaluate(`${base}_RX`);
    ports.push({ name, kind: 'uart', pins: { ...(tx !== undefined ? { TX: tx } : {}), ...(rx !== undefined ? { RX: rx } : {}) }, source });
  }
  // SerialUSB is the core's (USB/USBAPI.h); `#define Serial SerialUSB` in the variant makes Serial the USB port.
  const usb = findLine(join(corePath, 'USB', 'USBAPI.h'), /extern\s+Serial_\s+SerialUSB\s*;/);
  if (usb) ports.push({ name: 'SerialUSB', kind: 'usb', source: usb });
  if (variant.expandText('Serial') === 'SerialUSB') ports.push({ name: 'Serial', kind: 'usb', ...(variant.macros.get('Serial')?.source ? { source: variant.macros.get('Serial')!.source } : {}) });
  return ports;
}

export const readSamdTables: CoreTableReader = (board, variant) => {
  if (!isSamdCore(board.corePath, board.architecture)) return undefined;
  const table = readSamdTable(board, variant);
  const pins = describePins(table, variant);
  const unreadable = table.rows.filter((row) => row.attribute === undefined || row.pwmChannel === undefined || row.adcChannel === undefined || row.extInt === undefined);
  const tableKnowledge: Knowledge = table.missing
    ? { known: false, reason: table.missing }
    : unreadable.length > 0
      ? { known: false, reason: `g_APinDescription rows of pins ${unreadable.map((row) => row.number).join(', ')} could not be evaluated` }
      : { known: true, ...(table.source ? { source: table.source } : {}) };
  const buses = busesFromMacros(variant);
  addBusFunctions(pins, buses);
  const serialPortsFound = table.missing ? [] : serialPorts(table, variant, board.corePath);
  const sharedTimers = groupPwmPins(pins);
  const notes: ContextNote[] = [];
  const sameOutput = groupPwmPins(pins, (pwm) => `${pwm.timer} ${pwm.channel}`);
  if (sameOutput.length > 0) {
    notes.push({
      topic: 'pwm',
      text: `Pins on one timer compare channel share a duty cycle (analogWrite on one sets the other): ${sameOutput.map((group) => `${group.pins.join('+')} ${group.timer}`).join(', ')}.`,
      ...(table.source ? { source: table.source } : {}),
    });
  }
  const arduinoCore = coreVendor(board) === 'arduino';
  if (arduinoCore && pins.some((pin) => pin.pwm?.timer === 'TC5')) {
    notes.push({ topic: 'tone', text: `tone() takes TC5 (ArduinoCore-samd Tone.cpp), the PWM timer of pins ${pins.filter((pin) => pin.pwm?.timer === 'TC5').map((pin) => pin.number).join(', ')}.`, ...(table.source ? { source: table.source } : {}) });
  }
  const dacPins = pins.filter((pin) => pin.dac).map((pin) => pin.number);
  const silentPins = table.rows.filter((row) => isSilentAnalogPin(table, row)).map((row) => row.number);

  return {
    core: 'samd',
    pins,
    known: {
      pwm: tableKnowledge,
      analog: tableKnowledge,
      interrupt: tableKnowledge,
      dac: tableKnowledge,
      serial: table.missing ? { known: false, reason: table.missing } : { known: true, ...(table.uarts[0] ? { source: table.uarts[0].source } : {}) },
    },
    serialPorts: serialPortsFound,
    ...(buses.length > 0 ? { buses } : {}),
    ...(sharedTimers.length > 0 ? { sharedTimers } : {}),
    // ArduinoCore-samd cores/arduino/wiring_analog.c analogWrite(): PIN_ATTR_ANALOG pins other than the
    // DAC return at once; PIN_ATTR_PWM pins get PWM; every other pin is set OUTPUT and written LOW below
    // half scale (mapResolution to 8 bits < 128), HIGH from half scale up.
    ...(arduinoCore ? { analogWriteWithoutPwm: {
      text: `on this core analogWrite() on a pin without PWM sets it to OUTPUT and writes LOW for values below half scale, HIGH from half scale up${silentPins.length > 0 ? ` (on pin ${silentPins.join(', ')}, marked PIN_ATTR_ANALOG, it does nothing)` : ''}${dacPins.length > 0 ? `; on pin ${dacPins.join(', ')} it drives the DAC` : ''}`,
      ...(table.source ? { source: table.source } : {}),
    } } : {}),
    // wiring_analog.c analogRead(): `if (pin < A0) pin += A0;`.
    ...(arduinoCore ? { analogReadAcceptsChannelNumbers: true } : {}),
    notes,
    files: [...new Set([...table.files, ...variant.files])],
    warnings: table.warnings,
    check: samdCheck({ arduinoCore, pins }),
  };
};

function isSilentAnalogPin(table: SamdTable, row: SamdRow): boolean {
  const attrAnalog = flag(table, 'PIN_ATTR_ANALOG');
  const isAnalogAttr = attrAnalog !== undefined && ((row.attribute ?? 0n) & attrAnalog) === attrAnalog;
  return isAnalogAttr && row.adcChannel !== table.enums.get('ADC_Channel0') && row.adcChannel !== table.enums.get('DAC_Channel0');
}

// Tone.cpp (ArduinoCore-samd) drives tone() from TC5 (`#define TONE_TC TC5`) and resets it.
function checkToneTimer(sketch: CoreSketchView, pins: CorePin[]): Finding[] {
  const tone = sketch.calls.find((call) => call.name === 'tone' && !call.receiver);
  if (!tone) return [];
  const onTc5 = [...new Set(analogWritePins(sketch).map(({ pin }) => pin).filter((pin) => pins.find((p) => p.number === pin)?.pwm?.timer === 'TC5'))];
  if (onTc5.length === 0) return [];
  return [{
    severity: 'warning',
    code: 'tone-timer-shared',
    message: `tone() uses TC5 on ${sketch.boardName}, which is also the PWM timer of pin${onTc5.length > 1 ? 's' : ''} ${onTc5.join(', ')} used with analogWrite: tone() reconfigures TC5, so that PWM stops working`,
    suggestion: 'Move the analogWrite to a pin on a TCC timer (see the pin table).',
    ...(tone.token.file ? { file: tone.token.file } : {}),
    line: tone.token.line,
  }];
}
