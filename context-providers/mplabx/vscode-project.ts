// Reads an MPLAB for VS Code project, `.vscode/<name>.mplab.json` (versions
// 1.x; 1.8 and 1.9 seen): `configurations[{name, device, imagePath, packs,
// fileSet, toolchain, tool}]`, where `toolchain` names a `propertyGroups`
// entry whose `provider` is the compiler and version
// (`microchip.toolchains:xc16@2.10`) and whose `properties` are its options,
// and `fileSets[{name, files}]` of paths or `{include, exclude}` globs. The
// file is JSON without line numbers, so facts cite the line their value is on.
import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { join } from '../../platform/path-join.js';
import { fileSetEntry, listWorkspaceFiles, matchGlobs, MAX_WORKSPACE_FILES, type WorkspaceFiles } from './file-sets.js';
import { blockForProperty } from './options.js';
import { itemRole, warning, type MplabConfiguration, type MplabPack, type MplabProject, type OptionProperty } from './project-model.js';
import { parseToolchainProvider } from './toolchain-provider.js';
import { readRegularFile } from '../../platform/regular-file.js';

type Json = Record<string, unknown>;
type Locate = (needle: string, from?: number) => number;

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
  const text = await readRegularFile(file, 'utf8').catch(() => undefined);
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
  const locate: Locate = (needle, from = 0) => lineOfText(text, needle, from);
  if (typeof doc.version === 'string' && !/^1\./.test(doc.version)) {
    project.warnings.push(warning('mplabx-json-version', `${file}:${locate('"version"')}: version ${doc.version}; boardbridge reads versions 1.x and may misread this one`, file, locate('"version"')));
  }
  const groups = arrayOf(doc.propertyGroups);
  for (const conf of arrayOf(doc.configurations)) project.configurations.push(readConfiguration(conf, groups, file, text, locate, project));
  if (project.configurations.length === 0) {
    project.warnings.push(warning('mplabx-no-configuration', `${file}: no "configurations"; no device or toolchain is known`, file));
  }
  await readFileSets(arrayOf(doc.fileSets), workspace, file, text, project);
  await readLastSelected(join(dirname(file), 'settings.json'), project);
  return project;
}

// The extension points CMake Tools at the configuration it last built:
// `"cmake.sourceDirectory": ".../cmake/<project>/<conf>"` in .vscode/settings.json.
async function readLastSelected(settings: string, project: MplabProject): Promise<void> {
  const text = await readRegularFile(settings, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  let value: unknown;
  try {
    value = (JSON.parse(text) as Json)['cmake.sourceDirectory'];
  } catch {
    // settings.json may hold comments (JSONC); without a plain JSON reading the last configuration stays unknown.
    return;
  }
  if (typeof value !== 'string') return;
  const folder = /\/cmake\/[^/]+\/([^/]+)\/*$/.exec(value.replace(/\\/g, '/'))?.[1]?.replace(/\.production$/, '');
  if (folder && project.configurations.some((c) => c.name === folder)) {
    project.lastSelected = { name: folder, source: { file: settings, line: lineOfText(text, '"cmake.sourceDirectory"', 0) } };
  }
}

function readConfiguration(conf: Json, groups: Json[], file: string, text: string, locate: Locate, project: MplabProject): MplabConfiguration {
  const name = typeof conf.name === 'string' ? conf.name : '';
  const start = Math.max(0, text.indexOf(`"name": ${JSON.stringify(name)}`), text.indexOf(`"name":${JSON.stringify(name)}`));
  const at = (key: string): number => locate(`"${key}"`, start);
  const device = typeof conf.device === 'string' && conf.device ? conf.device : undefined;
  const packs: MplabPack[] = arrayOf(conf.packs).map((p) => ({
    name: String(p.name ?? ''),
    vendor: typeof p.vendor === 'string' ? p.vendor : undefined,
    version: typeof p.version === 'string' ? p.version : undefined,
    source: { file, line: locate(JSON.stringify(p.name ?? ''), start) },
  }));
  const sources: MplabConfiguration['sources'] = { configuration: { file, line: locate(JSON.stringify(name), start) } };
  if (!name) project.warnings.push(warning('mplabx-configuration', `${file}:${sources.configuration.line}: a configuration has no "name"`, file, sources.configuration.line));
  if (device) sources.device = { file, line: at('device') };
  else project.warnings.push(warning('mplabx-no-device', `${file}:${sources.configuration.line}: configuration "${name}" has no "device"`, file, sources.configuration.line));
  const tool = typeof conf.tool === 'string' && conf.tool ? conf.tool : undefined;
  if (tool) sources.platformTool = { file, line: at('tool') };
  const imagePath = typeof conf.imagePath === 'string' && conf.imagePath ? conf.imagePath : undefined;
  if (imagePath) sources.imagePath = { file, line: at('imagePath') };

  const toolchain = readToolchain(conf.toolchain, groups, file, text, locate, name, project);
  if (toolchain.source) sources.toolchain = toolchain.source;
  return { name, device, platformTool: tool, toolchain: toolchain.name, toolchainVersion: toolchain.version, imagePath, packs, optionBlocks: toolchain.blocks, sources };
}

interface ToolchainRead {
  name?: string;
  version?: string;
  source?: { file: string; line: number };
  blocks: Record<string, OptionProperty[]>;
}

// `toolchain` is the name of a property group; its `provider` says which compiler, its `properties` how it is run.
function readToolchain(value: unknown, groups: Json[], file: string, text: string, locate: Locate, conf: string, project: MplabProject): ToolchainRead {
  if (typeof value !== 'string' || value === '') {
    const line = value === undefined ? locate(JSON.stringify(conf)) : locate('"toolchain"', text.indexOf(`"name": ${JSON.stringify(conf)}`));
    const why = value === undefined ? 'has no "toolchain"' : `has "toolchain": ${JSON.stringify(value)}, not the name of a property group`;
    project.warnings.push(warning('mplabx-toolchain', `${file}:${line}: configuration "${conf}" ${why}; the compiler and its options are not known`, file, line));
    return { blocks: {} };
  }
  const group = groups.find((g) => g.name === value);
  const groupStart = group ? Math.max(0, text.indexOf(`"name": ${JSON.stringify(value)}`, text.indexOf('"propertyGroups"'))) : 0;
  // Without a group, only a provider-like value (`xc8@3.00`) still says which compiler.
  const provider = group ? (typeof group.provider === 'string' ? group.provider : undefined) : value.includes('@') ? value : undefined;
  const providerLine = group ? locate('"provider"', groupStart) : locate(JSON.stringify(value));
  const parsed = provider ? parseToolchainProvider(provider) : undefined;
  if (!parsed) {
    const line = locate(JSON.stringify(value));
    const why = group ? `property group "${value}" has no usable "provider" (${JSON.stringify(group.provider)})` : `"toolchain": "${value}" names no property group`;
    project.warnings.push(warning('mplabx-toolchain', `${file}:${line}: configuration "${conf}": ${why}; the compiler is not known`, file, line));
    return { blocks: {} };
  }
  const blocks: Record<string, OptionProperty[]> = {};
  const properties = isObject(group?.properties) ? group.properties : {};
  for (const [key, raw] of Object.entries(properties)) {
    const placed = blockForProperty(parsed.name, key);
    (blocks[placed.block] ??= []).push({ key: placed.key, value: propertyValue(raw), source: { file, line: locate(JSON.stringify(key), groupStart) } });
  }
  return { name: parsed.name, version: parsed.version, source: { file, line: providerLine }, blocks };
}

// MPLAB X stores lists as `a;b`; VS Code properties may be JSON arrays, numbers or booleans.
function propertyValue(raw: unknown): string {
  if (Array.isArray(raw)) return raw.map((v) => String(v)).join(';');
  return typeof raw === 'string' ? raw : JSON.stringify(raw);
}

async function readFileSets(sets: Json[], workspace: string, file: string, text: string, project: MplabProject): Promise<void> {
  let workspaceFiles: WorkspaceFiles | undefined;
  for (const set of sets) {
    const folder = typeof set.name === 'string' ? set.name : 'Files';
    const setStart = Math.max(0, text.indexOf(`"name": ${JSON.stringify(folder)}`, text.indexOf('"fileSets"')));
    for (const value of Array.isArray(set.files) ? set.files : []) {
      const entry = fileSetEntry(value);
      if (!entry) continue;
      if ('path' in entry) {
        const absolute = resolve(workspace, entry.path);
        const line = lineOfText(text, JSON.stringify(value), setStart);
        project.items.push({ path: entry.path, absolute, folder, role: itemRole(entry.path, folder), exists: existsSync(absolute), source: { file, line } });
        continue;
      }
      workspaceFiles ??= await listWorkspaceFiles(workspace);
      const line = lineOfText(text, '"include"', setStart);
      if (workspaceFiles.truncated) {
        project.warnings.push(
          warning('mplabx-file-set', `${file}:${line}: ${workspace} holds more than ${MAX_WORKSPACE_FILES} files; file set "${folder}" lists only those found before the walk stopped. Open the project folder itself, not a folder above it`, file, line),
        );
      }
      const matched = matchGlobs(entry, workspaceFiles.files);
      for (const { glob, kind, reason } of matched.unusable) {
        const shown = glob.length > 80 ? `${JSON.stringify(glob.slice(0, 80))}… (${glob.length} characters)` : JSON.stringify(glob);
        const effect = kind === 'exclude' ? 'what it leaves out is unknown, so no file of this entry is listed' : 'it selects no file';
        project.warnings.push(warning('mplabx-file-set', `${file}:${line}: file set "${folder}": the ${kind} glob ${shown} cannot be used (${reason}); ${effect}`, file, line));
      }
      for (const path of matched.files) {
        project.items.push({ path, absolute: resolve(workspace, path), folder, role: itemRole(path, folder), exists: true, source: { file, line } });
      }
    }
  }
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
