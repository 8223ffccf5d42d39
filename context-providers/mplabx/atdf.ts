// AVR and SAM device files (`.atdf`, <avr-tools-device-file>): memory sizes
// from address spaces, pad functions from peripheral signals, package pin
// numbers from pinouts, and PORTMUX alternatives (signals whose `function`
// is not "default").
import type { Finding } from '../types.js';
import { parseNumber, type AlternateRoute, type DeviceFacts, type DeviceMemory, type DevicePad, type DevicePeripheral } from './device-facts.js';
import { naturalCompare } from './natural-order.js';
import { childNamed, childrenNamed, descendantsNamed, parseXml, type XmlElement } from './xml.js';

export function parseAtdf(text: string, file: string): { facts?: DeviceFacts; warnings: Finding[] } {
  const doc = parseXml(text, file);
  const warnings = [...doc.problems];
  const device = childNamed(childNamed(doc.root, 'devices'), 'device');
  if (!doc.root || doc.root.name !== 'avr-tools-device-file' || !device) {
    warnings.push({ severity: 'warning', code: 'mplabx-atdf', message: `${file}: no <avr-tools-device-file>/<devices>/<device>; not a device file`, file });
    return { warnings };
  }
  const pads = new Map<string, DevicePad>();
  const padFor = (name: string, line: number): DevicePad => {
    let pad = pads.get(name);
    if (!pad) {
      pad = { pad: name, functions: [], positions: {}, source: { file, line } };
      pads.set(name, pad);
    }
    return pad;
  };
  const alternates: AlternateRoute[] = [];
  const peripherals: DevicePeripheral[] = [];
  for (const module of childrenNamed(childNamed(device, 'peripherals'), 'module')) {
    for (const instance of childrenNamed(module, 'instance')) {
      const signals = childrenNamed(childNamed(instance, 'signals'), 'signal');
      const defaults = signals.filter((s) => (s.attrs.function ?? 'default').toLowerCase() === 'default' && s.attrs.pad);
      // Port instances are the pads themselves, not peripherals with pins.
      if (defaults.length > 0 && module.attrs.name !== 'PORT') {
        peripherals.push({
          module: module.attrs.name ?? '',
          instance: instance.attrs.name ?? '',
          signals: Object.fromEntries(defaults.map((s) => [`${s.attrs.group ?? ''}${s.attrs.index ?? ''}`, s.attrs.pad as string])),
          source: { file, line: instance.line },
        });
      }
      for (const signal of signals) {
        const padName = signal.attrs.pad;
        if (!padName) continue;
        const label = signalLabel(module.attrs.name ?? '', instance.attrs.name ?? '', signal);
        if (!label) continue;
        const route = signal.attrs.function ?? 'default';
        const pad = padFor(padName, signal.line);
        const named = route.toLowerCase() === 'default' ? label : `${label} (${route})`;
        if (!pad.functions.includes(named)) pad.functions.push(named);
        if (route.toLowerCase() !== 'default') alternates.push({ signal: label, route, pad: padName, source: { file, line: signal.line } });
      }
    }
  }
  const packages: string[] = [];
  for (const pinout of descendantsNamed(childNamed(doc.root, 'pinouts'), 'pinout')) {
    const name = pinout.attrs.name ?? `pinout@${pinout.line}`;
    packages.push(name);
    for (const pin of childrenNamed(pinout, 'pin')) {
      const position = parseNumber(pin.attrs.position);
      if (!pin.attrs.pad || position === undefined) continue;
      // Supply and analog-only pads appear only in pinouts.
      padFor(pin.attrs.pad, pin.line).positions[name] = position;
    }
  }
  // The first orderable variant's package leads, so pin numbers follow the part most people buy.
  const firstVariant = childNamed(childNamed(doc.root, 'variants'), 'variant')?.attrs.pinout;
  if (firstVariant && packages.includes(firstVariant)) packages.unshift(...packages.splice(packages.indexOf(firstVariant), 1));
  return {
    facts: {
      device: device.attrs.name ?? '',
      architecture: device.attrs.architecture,
      family: device.attrs.family,
      file,
      memories: memories(device, file),
      pads: [...pads.values()].sort(byPad),
      packages,
      alternates,
      peripherals,
      configWords: [],
      pinNumbersKnown: packages.length > 0,
    },
    warnings,
  };
}

// PORT signals are the pad itself; other signals become `INSTANCE.GROUPn`,
// except where the group already names the instance (`ADC0`, `INT0`, `PCINT5`).
function signalLabel(module: string, instance: string, signal: XmlElement): string | undefined {
  const group = signal.attrs.group ?? '';
  if (module === 'PORT' && (group === 'P' || group === 'PIN')) return undefined;
  const label = `${group}${signal.attrs.index ?? ''}`;
  if (instance === 'EXINT' || instance === 'CPU' || label.startsWith(instance)) return label;
  return `${instance}.${label}`;
}

function memories(device: XmlElement, file: string): DeviceMemory[] {
  const found: DeviceMemory[] = [];
  for (const space of childrenNamed(childNamed(device, 'address-spaces'), 'address-space')) {
    for (const segment of childrenNamed(space, 'memory-segment')) {
      const kind = segment.attrs.type ?? '';
      const name = segment.attrs.name ?? '';
      const bytes = parseNumber(segment.attrs.size);
      // Boot sections overlap FLASH; count the whole flash segment only.
      if (bytes === undefined || /^BOOT_SECTION/.test(name)) continue;
      const normal = kind === 'flash' ? 'flash' : kind === 'ram' ? 'ram' : kind === 'eeprom' ? 'eeprom' : kind;
      if (!['flash', 'ram', 'eeprom', 'fuses', 'lockbits', 'user_signatures'].includes(normal)) continue;
      found.push({ kind: normal, name, bytes, start: parseNumber(segment.attrs.start), source: { file, line: segment.line } });
    }
  }
  return found;
}

function byPad(a: DevicePad, b: DevicePad): number {
  return naturalCompare(a.pad, b.pad);
}
