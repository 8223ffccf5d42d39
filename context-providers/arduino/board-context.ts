// Assembles the HardwareContext of one resolved board and (optionally) one sketch: identity,
// limits, upload, pins and buses, libraries, findings, read-only roots and every input file.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { join } from '../../platform/path-join.js';
import type { Finding, HardwareContext, Limit, SourceRef } from '../types.js';
import { EXPANSION_ROUNDS, MAX_EXPANDED_LENGTH, referenceCycles, unresolvedReferences } from '../../platform/arduino/properties.js';
import { resolveIncludes } from './includes.js';
import { libraryScanStore, scanLibraries, type LibraryFolder, type LibraryScan } from './libraries.js';
import { libraryTimerNotes, readLibraryTimers } from './library-timers.js';
import { buildPinMap } from './pin-map.js';
import { PinMapStore } from './pin-map-store.js';
import type { InstalledPlatforms } from '../../platform/arduino/platforms.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import { checkBuildSize, checkSketch, type BuildSize } from './sketch-check.js';
import { compiledUnits, type SketchProject } from './sketch.js';
import { sketchWiring } from './sketch-wiring.js';

export interface BoardContextInput {
  board: ResolvedBoard;
  installed: InstalledPlatforms;
  sketch?: SketchProject;
  /** Flash/RAM of the last build, when the caller has one. */
  buildSize?: BuildSize;
  /** Where the board selection came from (flag, sketch.yaml:line), shown with the FQBN. */
  selectionSource?: SourceRef;
  /** The cache folder where pin maps and library scans read by earlier processes are, and this one's are kept. */
  cacheDir?: string;
}

/** `16000000L` → 16000000. */
function parseClock(text: string | undefined): number | undefined {
  const value = Number.parseInt((text ?? '').replace(/[uUlL]+$/, ''), 10);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function parseBytes(text: string | undefined): number | undefined {
  const value = Number.parseInt(text ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Library folders in arduino-cli's locations: built-in, referenced platform, platform, user. */
export function libraryFolders(board: ResolvedBoard, installed: InstalledPlatforms): LibraryFolder[] {
  const folders: LibraryFolder[] = [];
  for (const dir of installed.builtinLibraryDirs) folders.push({ dir, location: 'builtin' });
  if (board.corePlatformPath !== board.platformPath) folders.push({ dir: join(board.corePlatformPath, 'libraries'), location: 'referenced-platform' });
  folders.push({ dir: join(board.platformPath, 'libraries'), location: 'platform' });
  for (const dir of installed.sketchbookDirs) folders.push({ dir: join(dir, 'libraries'), location: 'user' });
  return folders.filter((folder) => existsSync(folder.dir));
}

export function buildBoardContext(input: BoardContextInput): HardwareContext {
  const { board, installed, sketch } = input;
  const source = (key: string): SourceRef | undefined => board.sources.get(key);
  const pinMap = buildPinMap(board, input.cacheDir ? new PinMapStore(input.cacheDir) : undefined);
  const warnings: Finding[] = [...board.warnings, ...pinMap.warnings, ...installed.warnings];
  warnings.push(...unresolvedFactWarnings(board), ...referenceCycleWarnings(board));
  for (const legacy of installed.legacy) warnings.push({ severity: 'info', code: 'platform-legacy-layout', message: legacy.reason, file: legacy.dir });

  const flashBytes = parseBytes(board.expanded('upload.maximum_size'));
  const ramBytes = parseBytes(board.expanded('upload.maximum_data_size'));
  const clockHz = parseClock(board.expanded('build.f_cpu'));
  const mcu = board.expanded('build.mcu');
  const sources: Record<string, SourceRef> = Object.create(null);
  for (const [fact, key] of [['name', 'name'], ['mcu', 'build.mcu'], ['clockHz', 'build.f_cpu'], ['flashBytes', 'upload.maximum_size'], ['ramBytes', 'upload.maximum_data_size'], ['variant', 'build.variant'], ['core', 'build.core']] as const) {
    const ref = source(key);
    if (ref) sources[fact] = ref;
  }
  if (input.selectionSource) sources.id = input.selectionSource;
  for (const [name, ref] of Object.entries(pinMap.sources)) sources[name] = ref;

  const limits: Limit[] = [];
  const limit = (name: string, value: number | undefined, unit: string, key?: string): void => {
    if (value === undefined) return;
    const ref = key ? source(key) : undefined;
    limits.push({ name, value, unit, ...(ref ? { source: ref } : {}) });
  };
  limit('flash', flashBytes, 'bytes', 'upload.maximum_size');
  limit('ram', ramBytes, 'bytes', 'upload.maximum_data_size');
  limit('clock', clockHz, 'Hz', 'build.f_cpu');
  limit('digital pins', pinMap.digitalPinCount, 'pins');
  limit('analog inputs', pinMap.analogInputCount, 'inputs');

  const uploadTool = board.expanded('upload.tool.default') ?? board.expanded('upload.tool');
  const context: HardwareContext = {
    kind: 'arduino',
    board: { name: board.name, id: board.fqbn, mcu, architecture: board.architecture, clockHz, flashBytes, ramBytes, sources },
    pins: pinMap.pins,
    buses: pinMap.buses,
    toolchain: {
      name: board.platformName,
      version: board.platformVersion,
      path: board.platformPath,
      options: board.options.map((option) => ({ name: option.optionLabel, value: option.valueLabel, ...(source(`menu.${option.option}.${option.value}`) ? { source: source(`menu.${option.option}.${option.value}`) } : {}) })),
      upload: {
        tool: uploadTool,
        protocol: board.expanded('upload.protocol'),
        speed: parseBytes(board.expanded('upload.speed')),
        method: board.expanded('upload.use_1200bps_touch') === 'true' ? '1200-bps touch, then bootloader port' : undefined,
      },
      source: source('upload.protocol') ?? source('upload.tool'),
    },
    libraries: [],
    limits,
    findings: [],
    warnings,
    knowledge: { ...pinMap.knowledge },
    ...(pinMap.timerGroups.length > 0 ? { timerGroups: pinMap.timerGroups } : {}),
    ...(pinMap.notes.length > 0 ? { notes: [...pinMap.notes] } : {}),
    readOnlyRoots: [...new Set([board.platformPath, board.corePlatformPath, board.corePath, ...(board.variantPath ? [board.variantPath] : [])])],
    inputs: [...installed.inputs, ...board.platform.files(), ...(board.corePlatformPath !== board.platformPath ? filesOf(installed, board.corePlatformPath) : []), ...pinMap.files],
  };

  if (sketch) {
    // The libraries are scanned when an include needs them (resolveIncludes): a sketch that includes
    // only its own, the core's and the variant's headers compiles no library, and needs no scan.
    // The library folders are watched with the context (provider.ts), so a library installed later
    // makes it read again. What a library.properties says wrong is stated for the libraries the
    // sketch uses: the others are not compiled, whatever their files say.
    let scan: LibraryScan | undefined;
    const installedLibraries = () => (scan ??= scanLibraries(libraryFolders(board, installed), input.cacheDir ? libraryScanStore(input.cacheDir) : undefined)).libraries;
    const units = compiledUnits(sketch.files);
    const resolution = resolveIncludes(units, board, installedLibraries, { macros: pinMap.variant.macros });
    context.libraries = resolution.libraries;
    const usedDirs = new Set(resolution.used.map((library) => library.dir));
    context.warnings.push(...(scan?.warnings ?? []).filter((warning) => warning.file !== undefined && usedDirs.has(dirname(warning.file))), ...sketch.warnings);
    const included = resolution.libraries.map((ref) => ref.include);
    const includesComplete = resolution.libraries.every((ref) => ref.location !== undefined);
    const libraryTimers = readLibraryTimers(resolution.used, board, pinMap);
    const circuit = sketchWiring(sketch.dir, pinMap);
    if (circuit) {
      if (circuit.wiring.length > 0) context.wiring = circuit.wiring;
      context.warnings.push(...circuit.warnings);
      context.inputs.push(circuit.file);
    }
    context.findings.push(...resolution.findings, ...checkSketch(units, sketch.dir, board, pinMap, included, { includesComplete, libraryDirs: resolution.used.map((library) => library.dir), libraryHeaders: [...resolution.files, ...resolution.libraries.filter((ref) => ref.location === 'core' && ref.path).map((ref) => ref.path!)], libraryTimers, ...(circuit?.check ? { wiring: circuit.check } : {}) }));
    const timerNotes = libraryTimerNotes(libraryTimers);
    if (timerNotes.length > 0) context.notes = [...(context.notes ?? []), ...timerNotes];
    for (const library of resolution.used) context.readOnlyRoots.push(library.dir);
    context.inputs.push(...sketch.files, ...(sketch.yaml ? [sketch.yaml.file] : []), ...(scan?.files ?? []), ...resolution.files, ...libraryTimers.flatMap((entry) => entry.files));
  }
  if (input.buildSize) context.findings.push(...checkBuildSize(input.buildSize, board));
  context.inputs = [...new Set(context.inputs)];
  return context;
}

// Keys the context states as facts; recipes are left out because their {build.path},
// {serial.port} and the like are only known when a build or upload runs.
const FACT_KEYS = ['name', 'build.mcu', 'build.f_cpu', 'build.board', 'build.core', 'build.variant', 'build.variant_h', 'upload.tool', 'upload.protocol', 'upload.speed', 'upload.maximum_size', 'upload.maximum_data_size'];

function referenceCycleWarnings(board: ResolvedBoard): Finding[] {
  // A key whose value refers to no key is on no cycle: the walk starts only at those that refer to
  // some (a few hundred of a board's thousands of keys), in the same order, so it finds the same cycles.
  const referring: string[] = [];
  board.properties.forEach((value, key) => {
    if (value.includes('{')) referring.push(key);
  });
  return referenceCycles(referring, (key) => board.properties.get(key)).map((cycle) => {
    const source = board.sources.get(cycle[0]);
    const loop = [...cycle, cycle[0]].map((key) => `{${key}}`).join(' → ');
    return {
      severity: 'warning',
      code: 'properties-reference-cycle',
      message: `${source ? `${source.file}:${source.line}: ` : ''}${cycle[0]} refers to itself (${loop}); its expansion stops after ${EXPANSION_ROUNDS} rounds or ${MAX_EXPANDED_LENGTH} characters with the references left in`,
      ...(source ? { file: source.file, line: source.line } : {}),
      suggestion: 'Give the key a value that does not refer back to it (a .local.txt may override it).',
    };
  });
}

function unresolvedFactWarnings(board: ResolvedBoard): Finding[] {
  const warnings: Finding[] = [];
  for (const key of FACT_KEYS) {
    const value = board.properties.get(key);
    if (value === undefined) continue;
    const missing = unresolvedReferences(value, (name) => board.properties.get(name));
    if (missing.length === 0) continue;
    const source = board.sources.get(key);
    warnings.push({
      severity: 'warning',
      code: 'properties-unknown-reference',
      message: `${source ? `${source.file}:${source.line}: ` : ''}${key}=${value} refers to ${missing.map((name) => `{${name}}`).join(', ')}, which no platform file defines`,
      ...(source ? { file: source.file, line: source.line } : {}),
      suggestion: 'Define the missing key in boards.txt/platform.txt (or a .local.txt), or fix the spelling.',
    });
  }
  return warnings;
}

function filesOf(installed: InstalledPlatforms, dir: string): string[] {
  for (const platform of installed.platforms.values()) if (platform.dir === dir) return platform.files();
  return [];
}
