// Which folders are MPLAB projects: an `.X` folder whose nbproject/project.xml
// has the Microchip project type (plain NetBeans C projects share the file
// names but not the type), or a workspace with `.vscode/*.mplab.json`.
import { readdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { join } from '../../platform/path-join.js';
import type { DetectedProject } from '../types.js';
import { readRegularFile } from '../../platform/regular-file.js';

export const MICROCHIP_PROJECT_TYPE = 'com.microchip.mplab.nbide.embedded.makeproject';

export async function detectMplabProject(root: string): Promise<DetectedProject | undefined> {
  if (await isMplabXFolder(root)) return { kind: 'mplabx', root, main: join(root, 'nbproject', 'project.xml') };
  const vscode = await findVsCodeProject(root);
  if (vscode) return { kind: 'mplabx', root, main: vscode };
  // A workspace that holds one or more `.X` folders: the first by name.
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const candidates = entries
    .filter((e) => e.isDirectory() && e.name.endsWith('.X'))
    .map((e) => e.name)
    .sort();
  for (const name of candidates) {
    const folder = join(root, name);
    if (await isMplabXFolder(folder)) return { kind: 'mplabx', root: folder, main: join(folder, 'nbproject', 'project.xml') };
  }
  return undefined;
}

export async function isMplabXFolder(folder: string): Promise<boolean> {
  const text = await readRegularFile(join(folder, 'nbproject', 'project.xml'), 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  const type = /<type>\s*([^<\s]+)\s*<\/type>/.exec(text)?.[1];
  return type === MICROCHIP_PROJECT_TYPE;
}

async function findVsCodeProject(root: string): Promise<string | undefined> {
  const entries = await readdir(join(root, '.vscode')).catch(() => [] as string[]);
  const found = entries.filter((name) => name.endsWith('.mplab.json')).sort()[0];
  return found ? join(root, '.vscode', found) : undefined;
}

export function projectNameFromFolder(folder: string): string {
  return basename(folder).replace(/\.X$/, '');
}
