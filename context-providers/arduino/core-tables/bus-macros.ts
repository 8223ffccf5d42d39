// Wire and SPI pins as the variant's PIN_WIRE*/PIN_SPI* macros give them (SAMD and mbed variants
// spell them the same way), so buses on pins past NUM_DIGITAL_PINS (the Zero's SDA 20, SCL 21,
// SPI on the ICSP header) are named with their pins.
import type { Bus, PinCapability } from '../../types.js';
import type { VariantHeader } from '../variant-header.js';
import type { CorePin } from './core-facts.js';

const BUSES: Array<{ kind: 'i2c' | 'spi'; name: string; prefix: string; roles: string[] }> = [
  { kind: 'i2c', name: 'Wire', prefix: 'PIN_WIRE_', roles: ['SDA', 'SCL'] },
  { kind: 'i2c', name: 'Wire1', prefix: 'PIN_WIRE1_', roles: ['SDA', 'SCL'] },
  { kind: 'spi', name: 'SPI', prefix: 'PIN_SPI_', roles: ['MISO', 'MOSI', 'SCK', 'SS'] },
  { kind: 'spi', name: 'SPI1', prefix: 'PIN_SPI1_', roles: ['MISO', 'MOSI', 'SCK', 'SS'] },
];

/** The buses whose pin macros all evaluate, with the line of their first pin macro. */
export function busesFromMacros(variant: VariantHeader): Bus[] {
  const buses: Bus[] = [];
  for (const bus of BUSES) {
    const pins: Record<string, number> = {};
    for (const role of bus.roles) {
      const value = variant.evaluate(`${bus.prefix}${role}`);
      if (value !== undefined) pins[role] = value;
    }
    // A bus needs its data and clock pins; SS alone says nothing.
    if (Object.keys(pins).filter((role) => role !== 'SS').length < (bus.kind === 'i2c' ? 2 : 3)) continue;
    const source = variant.macros.get(`${bus.prefix}${bus.roles[0]}`)?.source;
    buses.push({ kind: bus.kind, name: bus.name, pins, ...(source ? { source } : {}) });
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
