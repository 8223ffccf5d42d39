// Pins, their names and capabilities, and the buses, computed from the variant header's own
// macros (digitalPinHasPWM, digitalPinToInterrupt, analogInputToDigitalPin) and constants.
import type { Bus, Finding, Pin, PinCapability, SourceRef } from '../types.js';
import type { ResolvedBoard } from './resolve.js';
import { readVariantHeader, type VariantHeader } from './variant-header.js';

export interface PinMap {
  header?: string;
  digitalPinCount?: number;
  analogInputCount?: number;
  /**
   * Which capabilities the header states at all: gemma's header has no digitalPinHasPWM, so
   * "no PWM pins" there means "unknown", and the sketch check must not call every pin wrong.
   */
  known: { pwm: boolean; interrupt: boolean; analog: boolean };
  pins: Pin[];
  buses: Bus[];
  /** Serial objects the board has (`Serial`, `Serial1`, …), from the SERIAL_PORT_* macros. */
  serialPorts: string[];
  /** Every integer name a sketch may use for a pin (A0, LED_BUILTIN, SDA, PIN_SPI_SS, …) → pin. */
  pinNames: Map<string, number>;
  /** Where each macro used for capabilities was defined. */
  sources: Record<string, SourceRef>;
  files: string[];
  warnings: Finding[];
  /** The header model, for evaluating sketch expressions such as `digitalPinToInterrupt(2)`. */
  variant: VariantHeader;
}

const NOT_AN_INTERRUPT_FALLBACK = -1;

const BUS_ROLES: Array<{ name: string; capability: PinCapability; fn: string }> = [
  { name: 'SDA', capability: 'i2c', fn: 'I2C SDA' },
  { name: 'SCL', capability: 'i2c', fn: 'I2C SCL' },
  { name: 'SS', capability: 'spi', fn: 'SPI SS' },
  { name: 'MOSI', capability: 'spi', fn: 'SPI MOSI' },
  { name: 'MISO', capability: 'spi', fn: 'SPI MISO' },
  { name: 'SCK', capability: 'spi', fn: 'SPI SCK' },
];

// `TX`/`RX` (esp8266, esp32) and `PIN_SERIAL1_RX` style macros (stm32duino, SAMD) name UART pins.
function serialRole(name: string): { capability: PinCapability; fn: string } | undefined {
  const match = /^(?:PIN_SERIAL(\d*)_?)?(RX|TX)$/.exec(name);
  return match ? { capability: 'uart', fn: `Serial${match[1] ?? ''} ${match[2]}` } : undefined;
}

export function buildPinMap(board: ResolvedBoard): PinMap {
  const variant = readVariantHeader(board);
  const warnings = [...variant.warnings];
  const sources: Record<string, SourceRef> = {};
  const macroSource = (name: string): SourceRef | undefined => {
    const source = variant.macros.get(name)?.source;
    if (source) sources[name] = source;
    return source;
  };
  const digitalPinCount = variant.evaluate('NUM_DIGITAL_PINS');
  const analogInputCount = variant.evaluate('NUM_ANALOG_INPUTS');
  macroSource('NUM_DIGITAL_PINS');
  macroSource('NUM_ANALOG_INPUTS');
  macroSource('LED_BUILTIN');
  const pinNames = collectPinNames(variant);

  const pins: Pin[] = [];
  if (digitalPinCount === undefined) {
    if (variant.header) warnings.push({ severity: 'warning', code: 'pins-no-count', message: `${variant.header}: NUM_DIGITAL_PINS is not defined or not a number; no pin table`, file: variant.header });
  } else {
    const notAnInterrupt = variant.evaluate('NOT_AN_INTERRUPT') ?? NOT_AN_INTERRUPT_FALLBACK;
    macroSource('digitalPinHasPWM');
    macroSource('digitalPinToInterrupt');
    const hasPwm = variant.pinFunction('digitalPinHasPWM');
    const toInterrupt = variant.pinFunction('digitalPinToInterrupt');
    for (let number = 0; number < digitalPinCount; number++) {
      const capabilities: PinCapability[] = ['digital'];
      const pin: Pin = { number, names: [`D${number}`], capabilities, ...(variant.header ? { source: { file: variant.header } } : {}) };
      if ((hasPwm?.(number) ?? 0) !== 0) capabilities.push('pwm');
      if (toInterrupt) {
        const interrupt = toInterrupt(number);
        if (interrupt !== undefined && interrupt !== notAnInterrupt && interrupt >= 0) {
          capabilities.push('interrupt');
          pin.interrupt = interrupt;
        }
      }
      pins.push(pin);
    }
    markAnalogInputs(pins, variant, analogInputCount ?? 0, pinNames, macroSource);
    for (const [name, number] of pinNames) {
      const pin = pins[number];
      if (!pin) continue;
      if (!pin.names.includes(name)) pin.names.push(name);
      if (name === 'LED_BUILTIN' && !pin.capabilities.includes('led')) pin.capabilities.push('led');
      const role = BUS_ROLES.find((entry) => entry.name === name) ?? serialRole(name);
      if (role) {
        if (!pin.capabilities.includes(role.capability)) pin.capabilities.push(role.capability);
        (pin.functions ??= []).push(role.fn);
      }
    }
  }

  const serialPorts = serialPortsOf(variant, macroSource);
  return {
    header: variant.header,
    digitalPinCount,
    analogInputCount,
    known: {
      pwm: variant.macros.get('digitalPinHasPWM')?.params !== undefined,
      interrupt: variant.macros.get('digitalPinToInterrupt')?.params !== undefined,
      analog: analogInputCount !== undefined,
    },
    pins,
    buses: busesOf(variant, pinNames, serialPorts),
    serialPorts,
    pinNames,
    sources,
    files: variant.files,
    warnings,
    variant,
  };
}

// analogInputToDigitalPin(i) where defined (the core's own mapping), else the constant A<i>.
function markAnalogInputs(pins: Pin[], variant: VariantHeader, count: number, pinNames: Map<string, number>, macroSource: (name: string) => SourceRef | undefined): void {
  macroSource('analogInputToDigitalPin');
  const toDigital = variant.pinFunction('analogInputToDigitalPin');
  for (let input = 0; input < count; input++) {
    const number = toDigital ? toDigital(input) : pinNames.get(`A${input}`);
    const pin = number !== undefined && number >= 0 ? pins[number] : undefined;
    if (!pin) continue;
    if (!pin.capabilities.includes('analog-in')) pin.capabilities.push('analog-in');
    if (!pin.names.includes(`A${input}`)) pin.names.push(`A${input}`);
  }
}

/** Names that stand for one pin: header constants, LED_BUILTIN*, PIN_* macros. */
function collectPinNames(variant: VariantHeader): Map<string, number> {
  const names = new Map<string, number>();
  for (const [name, constant] of variant.constants) names.set(name, constant.value);
  for (const [name, macro] of variant.macros) {
    if (macro.params || !(name.startsWith('LED_BUILTIN') || name.startsWith('PIN_'))) continue;
    const value = variant.evaluate(name);
    if (value !== undefined && value >= 0) names.set(name, value);
  }
  return names;
}

function serialPortsOf(variant: VariantHeader, macroSource: (name: string) => SourceRef | undefined): string[] {
  const ports = new Set<string>(['Serial']);
  for (const [name, macro] of variant.macros) {
    if (macro.params || !name.startsWith('SERIAL_PORT_')) continue;
    const value = variant.expandText(name)?.trim();
    if (value && /^Serial(\d+|USB)?$/.test(value)) {
      ports.add(value);
      macroSource(name);
    }
  }
  return [...ports].sort((a, b) => a.length - b.length || a.localeCompare(b));
}

function busesOf(variant: VariantHeader, pinNames: Map<string, number>, serialPorts: string[]): Bus[] {
  const buses: Bus[] = [];
  const sourceOf = (name: string): SourceRef | undefined => variant.constants.get(name)?.source ?? variant.macros.get(name)?.source;
  const group = (kind: string, name: string, roles: string[]): void => {
    const pins: Record<string, number> = {};
    for (const role of roles) if (pinNames.has(role)) pins[role] = pinNames.get(role)!;
    if (Object.keys(pins).length === 0) return;
    const source = sourceOf(roles.find((role) => pinNames.has(role))!);
    buses.push({ kind, name, pins, ...(source ? { source } : {}) });
  };
  group('i2c', 'Wire', ['SDA', 'SCL']);
  group('spi', 'SPI', ['SS', 'MOSI', 'MISO', 'SCK']);
  const usbSerial = variant.expandText('SERIAL_PORT_USBVIRTUAL')?.trim();
  for (const port of serialPorts) {
    const source = [...variant.macros.values()].find((macro) => macro.name.startsWith('SERIAL_PORT_') && variant.expandText(macro.name)?.trim() === port)?.source;
    buses.push({ kind: port === usbSerial ? 'usb' : 'uart', name: port, pins: {}, ...(source ? { source } : {}) });
  }
  return buses;
}
