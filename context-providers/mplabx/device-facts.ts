// What a device pack says about one part, read from an AVR/SAM `.atdf` or a
// PIC `.PIC` (EDC) file. One shape for both so the context builder does not
// care which kind of pack the project uses.
import type { SourceRef } from '../types.js';

export interface DeviceMemory {
  /** `flash`, `ram`, `eeprom`, `config`, `user-id`, ... */
  kind: string;
  name: string;
  bytes: number;
  /** Program memory of PIC10/12/16 counted in words of `wordBits` bits. */
  words?: number;
  wordBits?: number;
  start?: number;
  source: SourceRef;
}

export interface DevicePad {
  /** Pad (port pin) name: `PD1`, `RC6`, or a supply pad `VDD`. */
  pad: string;
  /** Peripheral functions of the pad: `USART0.TXD`, `TX1`, `CCP1`, `AN5`. */
  functions: string[];
  /** Package pin number by package name; empty when the pack does not say. */
  positions: Record<string, number>;
  source: SourceRef;
}

/** A peripheral signal that can be routed to another pad (AVR PORTMUX, alternate pin sets). */
export interface AlternateRoute {
  signal: string;
  route: string;
  pad: string;
  source: SourceRef;
}

/** A peripheral instance and the pads of its default signals (`USART0`: TXD → PD1). */
export interface DevicePeripheral {
  module: string;
  instance: string;
  signals: Record<string, string>;
  source: SourceRef;
}

export interface ConfigWordField {
  name: string;
  description?: string;
  /** Settings the field accepts, as `NAME (description)`. */
  settings: string[];
}

export interface ConfigWord {
  name: string;
  address?: string;
  fields: ConfigWordField[];
  source: SourceRef;
}

export interface DeviceFacts {
  device: string;
  architecture?: string;
  family?: string;
  file: string;
  memories: DeviceMemory[];
  pads: DevicePad[];
  packages: string[];
  alternates: AlternateRoute[];
  peripherals: DevicePeripheral[];
  configWords: ConfigWord[];
  /** Whether `pads` is in package pin order (.atdf pinouts) or only positional (.PIC pin lists). */
  pinNumbersKnown: boolean;
}

export function parseNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = value.trim().toLowerCase().startsWith('0x') ? Number.parseInt(value, 16) : Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : undefined;
}
