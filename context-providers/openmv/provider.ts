// The OpenMV context provider: recognises a camera script (a .py importing `sensor` or `csi`) or a
// camera drive (`openmv.config`), and builds the board's context with the script's findings.
import { promises as fs } from 'node:fs';
import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import { join } from '../../platform/path-join.js';
import type { ContextProvider, DetectedProject, HardwareContext, LibraryRef, Selection } from '../types.js';
import { analyzeScript, type ScriptAnalysis } from './analyze-script.js';
import { lookupBoard, type Generation, type OpenMvBoard } from './board-facts.js';
import { OPENMV_CONFIG, readOpenMvConfig } from './openmv-config.js';
import { PythonSource } from './python-source.js';
import { boardFacts, upstreamRef } from './context-facts.js';
import { renderOpenMvContext } from './render.js';
import { firmwareGeneration } from './script-checks.js';
import { dataFile } from '../../platform/data-files.js';
import { readRegularFile } from '../../platform/regular-file.js';

/** The board a user asked for is not an OpenMV board (or none was given). */
export class OpenMvBoardError extends Error {
  constructor(
    message: string,
    readonly known: string[],
    readonly nearest?: string,
  ) {
    super(message);
    this.name = 'OpenMvBoardError';
  }
}

const CAMERA_MODULES = ['sensor', 'csi'];
// A camera drive or project folder holds a handful of scripts; never read a whole disk.
const MAX_SCRIPTS_SCANNED = 50;
const MAX_SCRIPT_BYTES = 1024 * 1024;

const DATA_FILES = ['openmv-boards.json', 'openmv-camera-api.json'].map((name) =>
  dataFile(name),
);

async function readScript(path: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(path);
    if (!stat.isFile() || stat.size > MAX_SCRIPT_BYTES) return undefined;
    return await readRegularFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

async function isCameraScript(path: string): Promise<boolean> {
  const text = await readScript(path);
  if (text === undefined) return false;
  return new PythonSource(text).importedModules().some((m) => CAMERA_MODULES.includes(m));
}

async function exists(path: string): Promise<boolean> {
  return fs.stat(path).then(() => true, () => false);
}

async function detect(root: string): Promise<DetectedProject | undefined> {
  const stat = await fs.stat(root).catch(() => undefined);
  if (!stat) return undefined;
  if (stat.isFile()) {
    if (basename(root) === OPENMV_CONFIG) return detect(dirname(root));
    if (extname(root) !== '.py' || !(await isCameraScript(root))) return undefined;
    return { kind: 'openmv', root: dirname(root), main: root };
  }
  if (!stat.isDirectory()) return undefined;
  const names = await fs.readdir(root).catch(() => [] as string[]);
  // The camera runs main.py at boot, so it is the main script when it exists.
  const scripts = names.filter((n) => n.endsWith('.py')).sort((a, b) => Number(b === 'main.py') - Number(a === 'main.py') || a.localeCompare(b));
  for (const name of scripts.slice(0, MAX_SCRIPTS_SCANNED)) {
    if (await isCameraScript(join(root, name))) return { kind: 'openmv', root, main: join(root, name) };
  }
  if (names.includes(OPENMV_CONFIG)) {
    const main = names.includes('main.py') ? join(root, 'main.py') : undefined;
    return { kind: 'openmv', root, main };
  }
  return undefined;
}

function selectBoard(selection: Selection): { board: OpenMvBoard; generation?: Generation } {
  const result = lookupBoard(selection.board ?? '');
  if (result.ok) return { board: result.board, generation: result.generation };
  const message = selection.board
    ? result.message
    : `No OpenMV board selected: pass --board with one of ${result.known.join(', ')} (or connect the camera).`;
  throw new OpenMvBoardError(message, result.known, result.nearest);
}

async function load(project: DetectedProject, selection: Selection): Promise<HardwareContext> {
  const { board, generation: usbGeneration } = selectBoard(selection);
  const configPath = join(project.root, OPENMV_CONFIG);
  const config = await readOpenMvConfig(configPath);
  const files = (selection.files ?? []).filter((f) => f.endsWith('.py')).map((f) => (isAbsolute(f) ? f : resolve(project.root, f)));
  const scripts = files.length > 0 ? files : project.main ? [project.main] : [];
  const context: HardwareContext = {
    kind: 'openmv',
    board: {
      name: board.name,
      id: board.id,
      mcu: board.mcu,
      architecture: board.firmware['4'].arch,
      sources: { architecture: upstreamRef(board.firmware['4'].sources.arch), mcu: upstreamRef(board.firmware['5'].sources.mcu ?? board.firmware['4'].sources.mcu ?? '') },
    },
    pins: [],
    buses: [],
    libraries: [],
    limits: [],
    findings: [],
    warnings: [...(config?.warnings ?? [])],
    readOnlyRoots: [],
    inputs: [...DATA_FILES, configPath, ...scripts],
    notes: [],
  };
  if (selection.firmware) context.toolchain = { name: 'OpenMV firmware', version: selection.firmware };
  const analyses: ScriptAnalysis[] = [];
  for (const script of scripts) {
    const text = await readScript(script);
    if (text === undefined) {
      context.warnings.push({ code: 'missing-file', severity: 'warning', file: script, message: `cannot read ${script}` });
      continue;
    }
    const analysis = analyzeScript(text, { board, firmware: selection.firmware, generation: usbGeneration, file: script });
    analyses.push(analysis);
    context.findings.push(...analysis.findings);
    context.libraries.push(...(await importsOf(text, script)));
  }
  const generation: Generation = firmwareGeneration(selection.firmware) ?? usbGeneration ?? analyses[0]?.generation ?? '4';
  const firmware = selection.firmware ?? (usbGeneration ? `${usbGeneration}.x` : undefined);
  boardFacts(context, board, generation, analyses, firmware, config);
  return context;
}

/** The script's imports: a module file beside the script is the user's, anything else the firmware's. */
async function importsOf(text: string, file: string): Promise<LibraryRef[]> {
  return Promise.all(
    new PythonSource(text).importedModules().map(async (name) => {
      const local = join(dirname(file), `${name}.py`);
      return (await exists(local))
        ? { include: name, name, path: local, location: 'sketch', source: { file } }
        : { include: name, name, location: 'builtin', source: { file } };
    }),
  );
}

export const openmvProvider: ContextProvider = {
  kind: 'openmv',
  detect,
  load,
  render: renderOpenMvContext,
};
