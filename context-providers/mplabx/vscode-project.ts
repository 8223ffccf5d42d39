// Reads an MPLAB for VS Code project, `.vscode/<name>.mplab.json`:
// `configurations[{name, device, imagePath, packs, toolchain}]`,
// `propertyGroups` (compiler options) and `fileSets` (the files it builds).
// The file is JSON without line numbers, so facts cite the line where their
// value is written.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import {
  itemRole,
  warning,
  type MplabConfiguration,
  type MplabPack,
  type MplabProject,
  type OptionProperty,
} from './project-model.js';

type Json = Record<string, unknown>;

export async function readVsCodeProject(workspace: string, file: string): Promise<MplabProject> {
  const project: MplabProject = {
    format: 'vscode',
    root: workspace,
    name: basename(file).replace(/\.mplab\.json$/, ''),
    configurations: [],
    items: [],
    toolchainDirs: {},
    warnings: [],
    inputs: [file],
  };
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) {
    project.warnings.push(warning('mplabx-missing-file', `${file}: not found`, file));
    return project;
  }
  let doc: Json;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isObject(parsed)) throw new Error('the top level is not an object');
    doc = parsed;
  } catch (error) {
    project.warnings.push(warning('mplabx-json', `${file}: not valid JSON (${(error as Error).message}); nothing could be read`, file));
    return project;
  }
  const locate = (needle: string, from = 0): number => lineOfText(text, needle, from);
  if (typeof doc.name === 'string') project.name = doc.name;
  const groups = arrayOf(doc.propertyGroups);
  for (const conf of arrayOf(doc.configurations)) project.configurations.push(readConfiguration(conf, groups, file, text, locate));
  if (project.configurations.length === 0) {
    project.warnings.push(warning('mplabx-no-configuration', `${file}: no "configurations"; no device or toolchain is known`, file));
  }
  for (const set of arrayOf(doc.fileSets)) {
    const folder = typeof set.name === 'string' ? set.name : 'Files';
    for (const entry of Array.isArray(set.files) ? set.files : []) {
      if (typeof entry !== 'string') continue;
      const path = entry.replace(/\\/g, '/');
      const absolute = resolve(workspace, path);
      project.items.push({ path, absolute, folder, role: itemRole(path, folder), exists: existsSync(absolute), source: { file, line: locate(JSON.stringify(entry)) } });
    }
  }
  return project;
}

function readConfiguration(conf: Json, groups: Json[], file: string, text: string, locate: (needle: string, from?: number) => number): MplabConfiguration {
  const name = typeof conf.name === 'string' ? conf.name : '';
  const start = text.indexOf(JSON.stringify(name));
  const at = (value: unknown): number => locate(JSON.stringify(value), Math.max(0, start));
  const device = typeof conf.device === 'string' ? conf.device : undefined;
  const { toolchain, version } = parseToolchain(conf.toolchain);
  const packs: MplabPack[] = arrayOf(conf.packs).map((p) => ({
    name: String(p.name ?? ''),
    vendor: typeof p.vendor === 'string' ? p.vendor : undefined,
    version: typeof p.version === 'string' ? p.version : undefined,
    source: { file, line: at(p.name) },
  }));
  const sources: MplabConfiguration['sources'] = { configuration: { file, line: at(name) } };
  if (device) sources.device = { file, line: at(device) };
  if (conf.toolchain !== undefined) sources.toolchain = { file, line: at(conf.toolchain) };
  const optionBlocks: Record<string, OptionProperty[]> = {};
  for (const group of groups) {
    const properties = isObject(group.properties) ? group.properties : {};
    const block = blockFor(toolchain, String(group.name ?? ''));
    const list = (optionBlocks[block] ??= []);
    for (const [key, value] of Object.entries(properties)) {
      list.push({ key, value: String(value), source: { file, line: locate(JSON.stringify(key)) } });
    }
  }
  return { name, device, toolchain, toolchainVersion: version, packs, optionBlocks, sources };
}

// `"XC8@3.00"`, `"microchip.toolchains:xc8@3.00"` or `{ "name": "XC8", "version": "3.00" }`.
function parseToolchain(value: unknown): { toolchain?: string; version?: string } {
  if (isObject(value)) return parseToolchain(`${String(value.name ?? value.id ?? '')}@${String(value.version ?? '')}`);
  if (typeof value !== 'string' || value === '') return {};
  const [id, version] = value.split('@');
  const family = /xc\d+/i.exec(id)?.[0]?.toUpperCase();
  return { toolchain: family ?? id, version: version || undefined };
}

// Property groups are named by their tool; map them onto the MPLAB X block
// names so one normaliser serves both project formats.
function blockFor(toolchain: string | undefined, group: string): string {
  const kind = /link|ld/i.test(group) ? 'link' : /global/i.test(group) ? 'global' : 'compile';
  const blocks: Record<string, Record<string, string>> = {
    XC8: { compile: 'HI-TECH-COMP', link: 'HI-TECH-LINK', global: 'XC8-config-global' },
    XC16: { compile: 'C30', link: 'C30-LD', global: 'C30Global' },
    XC32: { compile: 'C32', link: 'C32-LD', global: 'C32Global' },
  };
  return blocks[toolchain ?? '']?.[kind] ?? group;
}

function lineOfText(text: string, needle: string, from: number): number {
  const at = text.indexOf(needle, from);
  const index = at >= 0 ? at : text.indexOf(needle);
  if (index < 0) return 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
