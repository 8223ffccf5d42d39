// Finds MCC and Harmony output in a project: `*.mc3` beside the project,
// `mcc_generated_files/**/pins.h` (Melody) or `pin_manager.h` (Classic), and
// Harmony's `pin_configurations.csv`, which lives beside `firmware/` and so
// may sit above the `.X` folder.
import { readdir } from 'node:fs/promises';
import { join } from '../../platform/path-join.js';
import type { Finding } from '../types.js';
import { readMc3, readPinConfigurationsCsv, readPinsHeader, type PinAssignment } from './mcc.js';
import { readRegularFile } from '../../platform/regular-file.js';

const skipFolders = new Set(['build', 'dist', 'debug', '.git', 'node_modules', '.generated_files', 'nbproject']);
const maxDepth = 6;

export interface MccOutput {
  pins: PinAssignment[];
  warnings: Finding[];
  inputs: string[];
}

/**
 * `outsideFolders`: folders outside the project that its items live in (Harmony's `../src`).
 * `configuration`: when some `.mc3` belongs to it (MCC keeps one per configuration
 * where they differ), only those are read.
 */
export async function readMccOutput(root: string, outsideFolders: string[], configuration: string | undefined): Promise<MccOutput> {
  const found: string[] = [];
  await walk(root, 0, found);
  for (const folder of outsideFolders) await walk(folder, 1, found, root);
  const output: MccOutput = { pins: [], warnings: [], inputs: [] };
  const mc3: Array<ReturnType<typeof readMc3>> = [];
  for (const file of [...new Set(found)].sort()) {
    const text = await readRegularFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    output.inputs.push(file);
    if (file.endsWith('.mc3')) mc3.push(readMc3(text, file));
    else if (file.endsWith('.csv')) {
      const csv = readPinConfigurationsCsv(text, file);
      output.pins.push(...csv.pins);
      output.warnings.push(...csv.warnings);
    } else output.pins.push(...readPinsHeader(text, file));
  }
  const own = mc3.filter((state) => state.configName === configuration);
  for (const state of own.length > 0 ? own : mc3) {
    output.pins.unshift(...state.pins);
    output.warnings.push(...state.warnings);
  }
  return output;
}

// MCC keeps its state file beside the project file, never deeper.
function isMccFile(name: string, folder: string, atProjectRoot: boolean): boolean {
  if (name.endsWith('.mc3')) return atProjectRoot;
  if (name === 'pin_configurations.csv') return true;
  return (name === 'pins.h' || name === 'pin_manager.h') && folder.split(/[\\/]/).includes('mcc_generated_files');
}

async function walk(folder: string, depth: number, found: string[], skip?: string): Promise<void> {
  if (depth > maxDepth || folder === skip) return;
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!skipFolders.has(entry.name)) await walk(path, depth + 1, found, skip);
    } else if (isMccFile(entry.name, folder, depth === 0 && skip === undefined)) found.push(path);
  }
}
