// Which Microchip line a device belongs to and what CPU it has: from the
// installed device file's <device architecture> when there is one (AVR/SAM
// .atdf), else from the cited family table boards/data/microchip-families.json
// by name prefix. A name the table does not cover stays unknown.
import type { SourceRef } from '../types.js';
import { dataFile, dataJson, lazily } from '../../platform/data-files.js';

export interface DeviceFamily {
  /** `PIC18`, `megaAVR`, `AVR Dx`, `dsPIC33A`, `PIC32MX`, `PIC32CM`, `SAM D5x/E5x`. */
  family: string;
  /** 8, 16 or 32: the width Microchip sells the line as. */
  bits: number;
  /** `Arm Cortex-M0+`, `MIPS32 M4K`, `AVR core`, `dsPIC DSC core`. */
  core: string;
  /** The device file, or the family table (with what its row cites). */
  source: SourceRef & { cited?: string };
}

interface FamilyRow {
  pattern: string;
  family: string;
  bits: number;
  core: string;
  source: string;
}

export const FAMILY_TABLE = dataFile('microchip-families.json');

const rows = lazily(() => dataJson<{ families: FamilyRow[] }>('microchip-families.json').families.map((row) => ({ ...row, match: new RegExp(row.pattern) })));

// `.atdf` <device architecture> values and the CPU they name.
const atdfCores: Record<string, { core: string; bits: number }> = {
  'CORTEX-M0PLUS': { core: 'Arm Cortex-M0+', bits: 32 },
  'CORTEX-M3': { core: 'Arm Cortex-M3', bits: 32 },
  'CORTEX-M4': { core: 'Arm Cortex-M4', bits: 32 },
  'CORTEX-M4F': { core: 'Arm Cortex-M4F', bits: 32 },
  'CORTEX-M7': { core: 'Arm Cortex-M7', bits: 32 },
  'CORTEX-M23': { core: 'Arm Cortex-M23', bits: 32 },
  'CORTEX-M33': { core: 'Arm Cortex-M33', bits: 32 },
  'CORTEX-A5': { core: 'Arm Cortex-A5', bits: 32 },
  AVR8: { core: 'AVR core', bits: 8 },
  AVR8X: { core: 'AVR core', bits: 8 },
  AVR8L: { core: 'AVR core', bits: 8 },
  AVR8_XMEGA: { core: 'AVR core', bits: 8 },
};

/** The family of `device`; `deviceFile` is the installed .atdf's architecture attribute and path, when there is one. */
export function deviceFamily(device: string, deviceFile?: { architecture?: string; file: string }): DeviceFamily | undefined {
  const name = device.trim().toUpperCase();
  const row = rows().find((r) => r.match.test(name));
  const fromFile = deviceFile?.architecture ? atdfCores[deviceFile.architecture.toUpperCase()] : undefined;
  if (fromFile && deviceFile) return { family: row?.family ?? (deviceFile.architecture as string), ...fromFile, source: { file: deviceFile.file } };
  if (!row) return undefined;
  return { family: row.family, bits: row.bits, core: row.core, source: { file: FAMILY_TABLE, cited: row.source } };
}

/** `PIC32CM (32-bit, Arm Cortex-M0+)`: the architecture line of the context. */
export function describeFamily(family: DeviceFamily): string {
  return `${family.family} (${family.bits}-bit, ${family.core})`;
}
