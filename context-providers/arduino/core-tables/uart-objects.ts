// Serial objects of cores that map them in Arduino.h (`#define Serial1 _UART1_`, `#define Serial SerialUSB`)
// and create `_UARTk_` only when the variant's SERIAL_HOWMANY is at least k (Renesas SerialObj1.cpp…,
// mbed Serial.cpp), on the variant's per-UART pin macros.
import type { VariantHeader } from '../variant-header.js';
import type { CoreSerialPort, Knowledge } from './core-facts.js';

export interface UartNaming {
  /** Objects that are the USB port: `SerialUSB` (Renesas), `_UART_USB_` (mbed). */
  usbObjects: string[];
  /** The TX and RX pin macros of `_UARTk_`. */
  pinMacros(k: number): { tx: string; rx: string };
}

const NAMES = ['Serial', 'Serial1', 'Serial2', 'Serial3', 'Serial4', 'Serial5', 'SerialUSB'];

/** A pin macro's Arduino pin number, also through `digitalPinToPinName(PIN_SERIAL_TX)`. */
export function pinNumber(variant: VariantHeader, macro: string): number | undefined {
  const value = variant.evaluate(macro);
  if (value !== undefined) return value;
  let text = (variant.expandText(macro) ?? '').trim();
  while (text.startsWith('(') && text.endsWith(')') && variant.evaluate(text) === undefined && /^\(\s*digitalPinToPinName/.test(text)) text = text.slice(1, -1).trim();
  const inner = /^digitalPinToPinName\s*\((.*)\)$/.exec(text);
  return inner ? variant.evaluate(inner[1]) : undefined;
}

export function uartObjects(variant: VariantHeader, naming: UartNaming): { ports: CoreSerialPort[]; known: Knowledge } {
  const howMany = variant.evaluate('SERIAL_HOWMANY');
  if (howMany === undefined) return { ports: [], known: { known: false, reason: 'the variant defines no SERIAL_HOWMANY, so which _UARTn_ objects exist is not known' } };
  const ports: CoreSerialPort[] = [];
  for (const name of NAMES) {
    const target = variant.expandText(name);
    const source = variant.macros.get(name)?.source;
    if (target !== undefined && naming.usbObjects.includes(target)) {
      ports.push({ name, kind: 'usb', ...(source ? { source } : {}) });
      continue;
    }
    const uart = /^_UART(\d)_$/.exec(target ?? '');
    if (!uart || Number(uart[1]) > howMany) continue;
    const macros = naming.pinMacros(Number(uart[1]));
    const tx = pinNumber(variant, macros.tx);
    const rx = pinNumber(variant, macros.rx);
    const pinSource = variant.macros.get(macros.tx)?.source ?? source;
    const pins = { ...(tx !== undefined ? { TX: tx } : {}), ...(rx !== undefined ? { RX: rx } : {}) };
    ports.push({ name, kind: 'uart', ...(tx !== undefined || rx !== undefined ? { pins } : {}), ...(pinSource ? { source: pinSource } : {}) });
  }
  const source = variant.macros.get('SERIAL_HOWMANY')?.source;
  return { ports, known: { known: true, ...(source ? { source } : {}) } };
}
