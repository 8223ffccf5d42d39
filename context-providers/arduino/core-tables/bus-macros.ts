// Wire and SPI pins as the variant's pin macros give them, so buses on pins past NUM_DIGITAL_PINS
// (the Zero's SDA 20, SCL 21, SPI on the ICSP header) are named with their pins. SAMD and mbed
// variants spell them PIN_WIRE_SDA / PIN_SPI1_MOSI; Renesas spells them WIRE1_SDA_PIN / PIN_SPI1_MOSI
// and its Wire and SPI libraries create Wire<n> and SPI<n> only below WIRE_HOWMANY / SPI_HOWMANY.
import type { Bus, PinCapability } from '../../types.js';
import type { VariantHeader } from '../variant-header.js';
import type { CorePin } from './core-facts.js';

export interface BusSpec {
  kind: 'i2c' | 'spi';
  name: string;
  /** Role → the macro that gives its pin. */
  pins: Record<string, string>;
  /** The macro that counts these buses, and this bus's index (Renesas' WIRE_HOWMANY). */
  count?: { macro: string; index: number };
}

const suffix = (n: number): string => (n === 0 ? '' : String(n));

/** SAMD and mbed: PIN_WIRE_SDA, PIN_WIRE1_SDA, PIN_SPI_MISO, PIN_SPI1_MISO. */
export const PIN_MACRO_BUSES: BusSpec[] = [0, 1].flatMap((n): BusSpec[] => [
  { kind: 'i2c', name: `Wire${suffix(n)}`, pins: { SDA: `PIN_WIRE${suffix(n)}_SDA`, SCL: `PIN_WIRE${suffix(n)}_SCL` } },
  { kind: 'spi', name: `SPI${suffix(n)}`, pins: { MISO: `PIN_SPI${suffix(n)}_MISO`, MOSI: `PIN_SPI${suffix(n)}_MOSI`, SCK: `PIN_SPI${suffix(n)}_SCK`, SS: `PIN_SPI${suffix(n)}_SS` } },
]);

/** Renesas: WIRE<n>_SDA_PIN below WIRE_HOWMANY, PIN_SPI<n>_MOSI below SPI_HOWMANY (libraries/Wire/Wire.cpp, SPI/SPI.cpp). */
export const RENESAS_BUSES: BusSpec[] = [0, 1, 2, 3].flatMap((n): BusSpec[] => [
  { kind: 'i2c', name: `Wire${suffix(n)}`, pins: { SDA: `WIRE${suffix(n)}_SDA_PIN`, SCL: `WIRE${suffix(n)}_SCL_PIN` }, count: { macro: 'WIRE_HOWMANY', index: n } },
  { kind: 'spi', name: `SPI${suffix(n)}`, pins: { MISO: `PIN_SPI${suffix(n)}_MISO`, MOSI: `PIN_SPI${suffix(n)}_MOSI`, SCK: `PIN_SPI${suffix(n)}_SCK`, CS: `PIN_SPI${suffix(n)}_CS` }, count: { macro: 'SPI_HOWMANY', index: n } },
]);

/** The buses whose data and clock pin macros all evaluate, with the line of their first pin macro. */
export function busesFromMacros(variant: VariantHeader, specs: BusSpec[] = PIN_MACRO_BUSES): Bus[] {
  const buses: Bus[] = [];
  for (const spec of specs) {
    if (spec.count && !((variant.evaluate(spec.count.macro) ?? 0) > spec.count.index)) continue;
    const pins: Record<string, number> = {};
    for (const [role, macro] of Object.entries(spec.pins)) {
      const value = variant.evaluate(macro);
      if (value !== undefined) pins[role] = value;
    }
    // A bus needs its data and clock pins; a chip select alone says nothing.
    if (Object.keys(pins).filter((role) => role !== 'SS' && role !== 'CS').length < (spec.kind === 'i2c' ? 2 : 3)) continue;
    const source = variant.macros.get(Object.values(spec.pins)[0])?.source;
    buses.push({ kind: spec.kind, name: spec.name, pins, ...(source ? { source } : {}) });
  }
  return buses;
}

/** Adds `Wire SDA`, `SPI MOSI` … to the pins the buses use. */
export function addBusFunctions(pins: CorePin[], buses: Bus[]): void {
  for (const bus of buses) {
    for (const [role, number] of Object.entries(bus.pins)) {
      const pin = pins.find((p) => p.number === number);
      if (!pin) continue;
      const fn = `${bus.name} ${role}`;
      (pin.functions ??= []).some((f) => f.fn === fn) || pin.functions.push({ fn, capability: bus.kind as PinCapability, ...(bus.source ? { source: bus.source } : {}) });
    }
  }
}
