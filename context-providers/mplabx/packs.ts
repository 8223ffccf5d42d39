// Finds the device file of a project's part in the installed device packs:
// `<search root>/<vendor>/<pack>/<version>/{atdf,edc}/<device>.{atdf,PIC}`.
// Search roots are MPLAB X's own `packs/` folders and `~/.mchp_packs/`, or
// what the caller configures.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter } from 'node:path';
import { join } from '../../platform/path-join.js';
import type { Finding } from '../types.js';
import { parseAtdf } from './atdf.js';
import type { DeviceFacts } from './device-facts.js';
import { parseEdc } from './edc.js';
import { naturalCompare } from './natural-order.js';
import { warning, type MplabPack } from './project-model.js';
import { readRegularFile } from '../../platform/regular-file.js';

/** Environment variable with extra pack roots, separated like PATH. */
export const PACK_PATH_VARIABLE = 'BOARDBRIDGE_MPLAB_PACKS';

export async function defaultPackRoots(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const roots = (env[PACK_PATH_VARIABLE] ?? '').split(delimiter).filter(Boolean);
  roots.push(join(homedir(), '.mchp_packs'));
  for (const install of ['/opt/microchip/mplabx', '/Applications/microchip/mplabx', 'C:/Program Files/Microchip/MPLABX']) {
    const versions = await readdir(install).catch(() => [] as string[]);
    for (const version of versions.sort((a, b) => naturalCompare(b.replace(/^v/, ''), a.replace(/^v/, '')))) roots.push(join(install, version, 'packs'));
  }
  return roots.filter((root) => existsSync(root));
}

export interface PackLookup {
  facts?: DeviceFacts;
  /** The pack folder used, for read-only access by the agent. */
  packFolder?: string;
  version?: string;
  warnings: Finding[];
  inputs: string[];
}

export async function findDeviceFacts(device: string, packs: MplabPack[], roots: string[]): Promise<PackLookup> {
  const warnings: Finding[] = [];
  if (packs.length === 0) {
    warnings.push(warning('mplabx-pack-missing', `configuration names no device pack for ${device}; device facts (pins, memory sizes) are not known`));
    return { warnings, inputs: [] };
  }
  const wanted = packs.map((p) => `${p.name} ${p.version ?? ''}`.trim()).join(', ');
  for (const pack of packs) {
    const installed = await installedVersions(pack, roots);
    if (installed.length === 0) continue;
    const exact = installed.find((i) => i.version === pack.version);
    const chosen = exact ?? installed[0];
    if (!exact) {
      warnings.push(
        warning(
          'mplabx-pack-version',
          `${pack.source.file}:${pack.source.line}: project wants ${pack.name} ${pack.version ?? '(any)'}, found only ${installed.map((i) => i.version).join(', ')}; using ${chosen.version}`,
          pack.source.file,
          pack.source.line,
        ),
      );
    }
    const file = await deviceFile(chosen.folder, device);
    if (!file) {
      warnings.push(warning('mplabx-pack-device', `${chosen.folder}: pack ${pack.name} ${chosen.version} has no .atdf or .PIC for ${device}`, chosen.folder));
      continue;
    }
    const text = await readRegularFile(file, 'utf8');
    const parsed = file.toLowerCase().endsWith('.atdf') ? parseAtdf(text, file) : parseEdc(text, file);
    return { facts: parsed.facts, packFolder: chosen.folder, version: chosen.version, warnings: [...warnings, ...parsed.warnings], inputs: [file] };
  }
  const where = packs[0].source;
  warnings.push(
    warning(
      'mplabx-pack-missing',
      `${where.file}:${where.line}: device pack not installed: the project wants ${wanted} for ${device}; searched ${roots.length > 0 ? roots.join(', ') : 'no pack folders (none exist)'}. Install it with MPLAB X's Pack Manager or set ${PACK_PATH_VARIABLE}; continuing with what the project files hold`,
      where.file,
      where.line,
    ),
  );
  return { warnings, inputs: [] };
}

async function installedVersions(pack: MplabPack, roots: string[]): Promise<Array<{ version: string; folder: string }>> {
  const found: Array<{ version: string; folder: string }> = [];
  for (const root of roots) {
    const base = join(root, pack.vendor ?? 'Microchip', pack.name);
    const versions = await readdir(base, { withFileTypes: true }).catch(() => []);
    for (const v of versions) if (v.isDirectory()) found.push({ version: v.name, folder: join(base, v.name) });
  }
  // Newest first, so a fallback picks the latest installed.
  return found.sort((a, b) => naturalCompare(b.version, a.version));
}

async function deviceFile(packFolder: string, device: string): Promise<string | undefined> {
  const target = device.toLowerCase();
  for (const [dir, ext] of [
    ['atdf', '.atdf'],
    ['edc', '.pic'],
  ] as const) {
    const names = await readdir(join(packFolder, dir)).catch(() => [] as string[]);
    const match = names.find((n) => n.toLowerCase() === `${target}${ext}`);
    if (match) return join(packFolder, dir, match);
  }
  return undefined;
}
