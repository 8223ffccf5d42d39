// The CMake project the MPLAB for VS Code extension generates for one
// configuration, `cmake/<project>/<conf>/` (and `<conf>.production/`):
// CMakePresets.json (the configure preset, binaryDir, generator),
// .generated/toolchain.cmake (the compiler paths of the machine it was
// generated on), .generated/rule.cmake (PACK_REPO_PATH), .generated/file.cmake
// (the sources and the image), .generated/cmake-hash.json (the hash of the
// .mplab.json it was generated from). Only reads; nothing here runs cmake.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { join } from '../../platform/path-join.js';

export interface GeneratedCmakeProject {
  /** `cmake/<project>/<conf>[.production]`. */
  folder: string;
  presetsFile: string;
  preset: string;
  generator?: string;
  binaryDir: string;
  /** Tool variables of toolchain.cmake (`CMAKE_C_COMPILER`, `MP_BIN2HEX`, ...) with the paths written there. */
  tools: Array<{ name: string; path: string; line: number }>;
  /** `PACK_REPO_PATH` as rule.cmake sets it. */
  packRepoPath?: string;
  /** Sources file.cmake lists, absolute, with their line. */
  sources: Array<{ path: string; line: number }>;
  /** The image the build writes (`out/<project>/default.elf`) and the hex bin2hex makes beside it. */
  image?: string;
  hex?: string;
  /** The .mplab.json hash the files were generated from (cmake-hash.json `projectFileHash`). */
  projectFileHash?: string;
}

const toolVariables = new Set(['CMAKE_C_COMPILER', 'CMAKE_CXX_COMPILER', 'CMAKE_ASM_COMPILER', 'CMAKE_AR', 'MP_BIN2HEX']);

export function cmakeFolder(root: string, project: string, configuration: string, production: boolean): string {
  return join(root, 'cmake', project, production ? `${configuration}.production` : configuration);
}

export async function readGeneratedCmake(folder: string): Promise<GeneratedCmakeProject | { error: string }> {
  const presetsFile = join(folder, 'CMakePresets.json');
  const presetsText = await readFile(presetsFile, 'utf8').catch(() => undefined);
  if (presetsText === undefined) return { error: `${presetsFile} is missing` };
  let preset: { name?: unknown; binaryDir?: unknown; generator?: unknown; hidden?: unknown } | undefined;
  try {
    const doc = JSON.parse(presetsText) as { configurePresets?: Array<Record<string, unknown>> };
    preset = (doc.configurePresets ?? []).find((p) => p.hidden !== true);
  } catch (error) {
    return { error: `${presetsFile}: not valid JSON (${(error as Error).message})` };
  }
  if (!preset || typeof preset.name !== 'string') return { error: `${presetsFile}: no configure preset with a name` };
  const expand = (value: string): string =>
    value.replaceAll('${fileDir}', folder).replaceAll('${sourceDir}', folder).replaceAll('${presetName}', preset.name as string);
  const generated = join(folder, '.generated');
  const [toolchain, rules, files, hash] = await Promise.all(
    ['toolchain.cmake', 'rule.cmake', 'file.cmake', 'cmake-hash.json'].map((name) => readFile(join(generated, name), 'utf8').catch(() => '')),
  );
  const fileVariables = cmakeSets(files);
  const outputDir = fileVariables.find((s) => s.name.endsWith('_output_dir'))?.value;
  const imageName = fileVariables.find((s) => s.name.endsWith('_image_name'))?.value;
  const baseName = fileVariables.find((s) => s.name.endsWith('_image_base_name'))?.value;
  const here = (path: string): string => resolve(folder, path.replaceAll('${CMAKE_CURRENT_SOURCE_DIR}', folder).replaceAll('${CMAKE_CURRENT_LIST_DIR}', generated));
  return {
    folder,
    presetsFile,
    preset: preset.name,
    generator: typeof preset.generator === 'string' ? preset.generator : undefined,
    binaryDir: resolve(folder, expand(typeof preset.binaryDir === 'string' ? preset.binaryDir : 'build')),
    tools: cmakeSets(toolchain)
      .filter((s) => toolVariables.has(s.name) && s.cache)
      .map((s) => ({ name: s.name, path: s.value, line: s.line })),
    packRepoPath: cmakeSets(rules).find((s) => s.name === 'PACK_REPO_PATH')?.value,
    sources: quotedSources(files).map((s) => ({ path: here(s.path), line: s.line })),
    ...(outputDir && imageName ? { image: join(here(outputDir), imageName) } : {}),
    ...(outputDir && baseName ? { hex: join(here(outputDir), `${baseName}.hex`) } : {}),
    projectFileHash: projectFileHash(hash),
  };
}

// A cmake-hash.json that cannot be read only means staleness is unknown.
function projectFileHash(text: string): string | undefined {
  try {
    const value = (JSON.parse(text) as { projectFileHash?: unknown }).projectFileHash;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the .mplab.json still has the hash the CMake files were generated from. */
export async function generatedFromCurrent(cmake: GeneratedCmakeProject, mplabJson: string): Promise<boolean | undefined> {
  if (!cmake.projectFileHash || !existsSync(mplabJson)) return undefined;
  const digest = createHash('sha256').update(await readFile(mplabJson)).digest('hex');
  return digest === cmake.projectFileHash;
}

// `set(NAME "value" ...)` lines; the generated files write one per line.
function cmakeSets(text: string): Array<{ name: string; value: string; cache: boolean; line: number }> {
  const found: Array<{ name: string; value: string; cache: boolean; line: number }> = [];
  text.split('\n').forEach((line, index) => {
    const match = /^\s*set\(\s*([A-Za-z0-9_]+)\s+"([^"]*)"(\s+CACHE\b)?/.exec(line);
    if (match) found.push({ name: match[1], value: match[2], cache: Boolean(match[3]), line: index + 1 });
  });
  return found;
}

// The source lists of file.cmake: quoted paths under the configuration folder.
function quotedSources(text: string): Array<{ path: string; line: number }> {
  const found: Array<{ path: string; line: number }> = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/"(\$\{CMAKE_CURRENT_SOURCE_DIR\}\/[^"]+\.(?:c|cpp|cc|s|S|asm))"/g)) found.push({ path: match[1], line: index + 1 });
  });
  return found;
}
