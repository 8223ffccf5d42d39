// Joins what the device pack says a pad can do with what the project (MCC,
// Harmony) makes it do, into the shared Pin and Bus shapes.
import type { Bus, Pin, PinCapability } from '../types.js';
import type { DeviceFacts } from './device-facts.js';
import type { PinAssignment } from './mcc.js';
import { naturalCompare } from './natural-order.js';

const supplyPad = /^(A?GND|A?VCC|A?VDD|A?VSS|VCAP|VDDCORE|VDDIO|VBAT)\d*$/i;
const portPad = /^(R[A-Z]\d{1,2}|P[A-Z]\d{1,2})$/;

export interface PinTable {
  pins: Pin[];
  buses: Bus[];
  /** Package whose pin numbers are used, when the pack gives them. */
  package?: string;
}

export function buildPinTable(facts: DeviceFacts | undefined, assignments: PinAssignment[]): PinTable {
  const packageName = facts?.packages[0];
  const pins = new Map<string, Pin>();
  for (const pad of facts?.pads ?? []) {
    if (supplyPad.test(pad.pad)) continue;
    const number = packageName ? pad.positions[packageName] : undefined;
    pins.set(pad.pad, {
      number: number ?? pad.pad,
      names: [pad.pad],
      capabilities: capabilitiesOf(pad.pad, pad.functions),
      functions: [...pad.functions],
      interrupt: interruptOf(pad.functions),
      source: pad.source,
    });
  }
  for (const assignment of assignments) {
    let pin = pins.get(assignment.pad);
    if (!pin) {
      pin = { number: assignment.pinNumber ?? assignment.pad, names: [assignment.pad], capabilities: capabilitiesOf(assignment.pad, assignment.functions), source: assignment.source };
      pins.set(assignment.pad, pin);
    }
    if (assignment.userName && !pin.names.includes(assignment.userName)) pin.names.push(assignment.userName);
    if (assignment.functions.length > 0) pin.assigned = unique([...(pin.assigned ?? []), ...assignment.functions]);
    if (typeof pin.number === 'string' && assignment.pinNumber !== undefined) pin.number = assignment.pinNumber;
  }
  const ordered = [...pins.values()].sort((a, b) =>
    typeof a.number === 'number' && typeof b.number === 'number'
      ? a.number - b.number
      : naturalCompare(a.names[0], b.names[0]),
  );
  return { pins: ordered, buses: busesOf(facts), package: packageName };
}

function capabilitiesOf(pad: string, functions: string[]): PinCapability[] {
  const caps = new Set<PinCapability>();
  if (portPad.test(pad)) caps.add('digital');
  for (const fn of functions) {
    const f = fn.toUpperCase();
    if (/(^|\.)(ADC\d|AN[A-Z]?\d|AIN\d)|ADC.*INPUT|ANX/.test(f)) caps.add('analog-in');
    if (/DAC/.test(f)) caps.add('analog-out');
    if (/(^|\.)(OC[0-9A-Z]|PWM|CCP|WO\d|TC[AB]?\d?\.W)/.test(f)) caps.add('pwm');
    if (/^(INT\d|PCINT\d|IOC)/.test(f)) caps.add('interrupt');
    if (/(TWI|I2C).*|(^|\.)(SDA|SCL)\d?$/.test(f)) caps.add('i2c');
    if (/(^|\.)(MOSI|MISO|SCK|SS|SDO\d?|SDI\d?)$/.test(f) || /^SPI/.test(f)) caps.add('spi');
    if (/(^|\.)(TXD|RXD|XCK|TX\d|RX\d|U\dTX|U\dRX)/.test(f) || /USART|UART/.test(f)) caps.add('uart');
    if (/CAN/.test(f)) caps.add('can');
    if (/USB|^D[+-]$/.test(f)) caps.add('usb');
  }
  return [...caps];
}

function interruptOf(functions: string[]): number | undefined {
  for (const fn of functions) {
    const m = /^INT(\d+)$/.exec(fn);
    if (m) return Number(m[1]);
  }
  return undefined;
}

const busKinds: Array<[RegExp, Bus['kind']]> = [
  [/USART|UART|SERCOM_USART/i, 'uart'],
  [/TWI|I2C/i, 'i2c'],
  [/^SPI/i, 'spi'],
  [/CAN/i, 'can'],
  [/USB/i, 'usb'],
];

function busesOf(facts: DeviceFacts | undefined): Bus[] {
  const buses: Bus[] = [];
  for (const peripheral of facts?.peripherals ?? []) {
    const kind = busKinds.find(([pattern]) => pattern.test(peripheral.module))?.[1];
    if (kind) buses.push({ kind, name: peripheral.instance, pins: { ...peripheral.signals }, source: peripheral.source });
  }
  return buses;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
