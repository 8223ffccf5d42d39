// PIC device files (`.PIC`, EDC schema, namespace prefix `edc:`): memory
// sectors, configuration words (DCRDef) and pin function lists. The pin list
// is positional, carries no pin numbers and skips NC pins, so its order is
// never reported as package pin numbers.
import type { Finding } from '../types.js';
import { parseNumber, type ConfigWord, type DeviceFacts, type DeviceMemory, type DevicePad } from './device-facts.js';
import { deviceFamily } from './device-family.js';
import { childNamed, childrenNamed, descendantsNamed, parseXml, type XmlElement } from './xml.js';

const portPin = /^R[A-Z]\d{1,2}$/;

export function parseEdc(text: string, file: string): { facts?: DeviceFacts; warnings: Finding[] } {
  const doc = parseXml(text, file);
  const warnings = [...doc.problems];
  const root = doc.root;
  if (!root || root.name !== 'PIC') {
    warnings.push({ severity: 'warning', code: 'mplabx-edc', message: `${file}: no <edc:PIC> root element; not a PIC device file`, file });
    return { warnings };
  }
  const device = root.attrs.name ?? '';
  return {
    facts: {
      device,
      architecture: root.attrs.arch,
      family: root.attrs.family ?? root.attrs.arch,
      file,
      memories: memories(root, device, file),
      pads: pads(root, file),
      packages: [],
      alternates: [],
      peripherals: [],
      configWords: configWords(root, file),
      pinNumbersKnown: false,
    },
    warnings,
  };
}

// Program memory addresses count differently per core: bytes on PIC18 and
// PIC32, 12-bit words on the baseline and 14-bit words on the mid-range
// PIC10/12/16 (which core, from the cited family table), and two address units
// per 24-bit instruction on PIC24/dsPIC. Undefined when the family table does
// not say which core a PIC10/12/16 has: its size in bytes is then unknown.
export function programMemory(device: string, units: number): Pick<DeviceMemory, 'bytes' | 'words' | 'wordBits'> | undefined {
  const name = device.toUpperCase();
  if (name.startsWith('DSPIC') || name.startsWith('PIC24')) return { bytes: (units / 2) * 3, words: units / 2, wordBits: 24 };
  if (/^PIC1[026]/.test(name)) {
    const wordBits = wordBitsOfCore[deviceFamily(name)?.core ?? ''];
    return wordBits ? { bytes: Math.ceil((units * wordBits) / 8), words: units, wordBits } : undefined;
  }
  return { bytes: units };
}

const wordBitsOfCore: Record<string, number> = { 'PIC baseline core': 12, 'PIC mid-range core': 14 };

function memories(root: XmlElement, device: string, file: string): DeviceMemory[] {
  const found: DeviceMemory[] = [];
  const span = (el: XmlElement): number | undefined => {
    const begin = parseNumber(el.attrs.beginaddr);
    const end = parseNumber(el.attrs.endaddr);
    return begin !== undefined && end !== undefined && end > begin ? end - begin : undefined;
  };
  const program = childNamed(root, 'ProgramSpace');
  const code = descendantsNamed(program, 'CodeSector');
  const codeUnits = code.reduce((sum, el) => sum + (span(el) ?? 0), 0);
  const size = code.length > 0 && codeUnits > 0 ? programMemory(device, codeUnits) : undefined;
  if (size) found.push({ kind: 'flash', name: 'program memory', ...size, start: parseNumber(code[0].attrs.beginaddr), source: { file, line: code[0].line } });
  const eeprom = [...descendantsNamed(program, 'EEDataSector'), ...descendantsNamed(childNamed(root, 'DataSpace'), 'EEDataSector')][0];
  const eepromSize = eeprom ? span(eeprom) : undefined;
  if (eeprom && eepromSize) found.push({ kind: 'eeprom', name: 'data EEPROM', bytes: eepromSize, start: parseNumber(eeprom.attrs.beginaddr), source: { file, line: eeprom.line } });
  // Shadowed banks are the same silicon seen at another address.
  const gpr = descendantsNamed(childNamed(root, 'DataSpace'), 'GPRDataSector').filter((el) => !el.attrs.shadowidref);
  const ram = gpr.reduce((sum, el) => sum + (span(el) ?? 0), 0);
  if (gpr.length > 0 && ram > 0) found.push({ kind: 'ram', name: 'general purpose RAM', bytes: ram, source: { file, line: gpr[0].line } });
  return found;
}

function pads(root: XmlElement, file: string): DevicePad[] {
  const list = childNamed(root, 'PinList');
  const result: DevicePad[] = [];
  for (const pin of childrenNamed(list, 'Pin')) {
    const names = childrenNamed(pin, 'VirtualPin')
      .map((v) => v.attrs.name)
      .filter((n): n is string => Boolean(n));
    if (names.length === 0) continue;
    const pad = names.find((n) => portPin.test(n)) ?? names[0];
    result.push({ pad, functions: names.filter((n) => n !== pad), positions: {}, source: { file, line: pin.line } });
  }
  return result;
}

function configWords(root: XmlElement, file: string): ConfigWord[] {
  const sector = descendantsNamed(childNamed(root, 'ProgramSpace'), 'ConfigFuseSector')[0];
  return descendantsNamed(sector, 'DCRDef').map((def) => ({
    name: def.attrs.cname ?? def.attrs.name ?? '',
    address: def.attrs._addr ?? def.attrs.addr,
    fields: descendantsNamed(def, 'DCRFieldDef').map((field) => ({
      name: field.attrs.cname ?? field.attrs.name ?? '',
      description: field.attrs.desc,
      settings: childrenNamed(field, 'DCRFieldSemantic').map((s) => {
        const name = s.attrs.cname ?? s.attrs.name ?? '';
        return s.attrs.desc ? `${name} (${s.attrs.desc})` : name;
      }),
    })),
    source: { file, line: def.line },
  }));
}
