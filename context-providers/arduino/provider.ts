// The Arduino context provider: recognises a sketch folder (<name>/<name>.ino), picks the board
// (the face's selection, else sketch.yaml), resolves it against the installed platforms and
// builds the HardwareContext, cached until one of its files changes.
import type { ContextProvider, DetectedProject, HardwareContext, Selection, SourceRef } from '../types.js';
import { StampedCache } from './cache.js';
import { BoardCache } from './board-cache.js';
import type { DiscoverOptions, InstalledPlatforms } from '../../platform/arduino/platforms.js';
import { renderArduinoContext } from './render.js';
import type { BuildSize } from './sketch-check.js';
import type { SketchProject } from './sketch.js';
import { cacheEnvironment, cliProviderOptions, contextKey, detectSketch, isStoredContext, storedContextKey, storedContexts } from './stored-context.js';

export interface ArduinoProviderOptions extends DiscoverOptions {
  /** Flash/RAM of the sketch's last build, when the caller knows it (e.g. from compile --json). */
  buildSize?(sketchDir: string): BuildSize | undefined;
  /** Keep built contexts and resolved boards in this folder between processes (DiskCache, BoardCache); default: none. */
  cacheDir?: string;
}

/** No board could be chosen, or the chosen one does not resolve; the message says what to do. */
export class ArduinoBoardError extends Error {
  constructor(
    message: string,
    readonly choices: string[] = [],
  ) {
    super(message);
    this.name = 'ArduinoBoardError';
  }
}

interface BoardChoice {
  fqbn: string;
  source?: SourceRef;
}

/** selection.board, else sketch.yaml's default profile, else its default_fqbn. */
export function chooseBoard(selection: Selection, sketch: SketchProject | undefined): BoardChoice | undefined {
  if (selection.board) return { fqbn: selection.board };
  const yaml = sketch?.yaml;
  if (!yaml) return undefined;
  const profile = yaml.profiles.find((entry) => entry.name === yaml.defaultProfile);
  if (profile?.fqbn) return { fqbn: profile.fqbn, source: { file: yaml.file, line: profile.fqbnLine } };
  if (yaml.defaultFqbn) return { fqbn: yaml.defaultFqbn, source: { file: yaml.file, line: yaml.defaultFqbnLine } };
  return undefined;
}

function noBoardMessage(dir: string, installed: InstalledPlatforms, sketch: SketchProject | undefined): string {
  const examples = [...installed.platforms.values()].slice(0, 3).flatMap((platform) => [...platform.load().boards.keys()].slice(0, 2).map((id) => `${platform.id}:${id}`));
  // Profiles without a default one that names them: say which there are (arduino-cli needs --profile then).
  const yaml = sketch?.yaml;
  const named = yaml?.profiles.filter((profile) => profile.fqbn) ?? [];
  const profiles = yaml && named.length > 0
    ? [`  • ${yaml.file} has the profiles ${named.map((profile) => `${profile.name} (${profile.fqbn})`).join(', ')} but ${yaml.defaultProfile ? `its default_profile "${yaml.defaultProfile}" is none of them` : 'no default_profile'}: add "default_profile: ${named[0].name}" to it`]
    : [];
  return [
    `No board selected for the sketch in ${dir}. Pick one of:`,
    ...profiles,
    '  • pass --fqbn VENDOR:ARCH:BOARD (e.g. arduino:avr:uno)',
    `  • add "default_fqbn: <fqbn>" to ${dir}/sketch.yaml (arduino-cli board attach -b <fqbn> does this)`,
    '  • select the board in Arduino IDE 2.x (the extension passes it on)',
    examples.length > 0 ? `Installed boards include: ${examples.join(', ')} (arduino-cli board listall lists all).` : 'No Arduino platform is installed: arduino-cli core install arduino:avr.',
  ].join('\n');
}

/** The BoardCache key of a board: the FQBN as given, under one environment. */
export function boardCacheKey(options: DiscoverOptions, fqbn: string): string {
  return `${cacheEnvironment(options)}\0${fqbn}`;
}

export function createArduinoProvider(options: ArduinoProviderOptions = {}): ContextProvider {
  const cache = new StampedCache<HardwareContext>(32);
  const disk = options.cacheDir ? storedContexts(options.cacheDir) : undefined;
  // The markdown of the contexts this provider returned, rendered once: when it stores a context
  // (with its markdown) and when ContextService asks for it right after.
  const rendered = new WeakMap<HardwareContext, string>();
  const render = (context: HardwareContext): string => {
    let markdown = rendered.get(context);
    if (markdown === undefined) rendered.set(context, (markdown = renderArduinoContext(context)));
    return markdown;
  };
  const boards = options.cacheDir ? new BoardCache(options.cacheDir) : undefined;

  async function detect(root: string): Promise<DetectedProject | undefined> {
    return detectSketch(root);
  }

  async function load(project: DetectedProject, selection: Selection): Promise<HardwareContext> {
    const ide = selection.arduinoIde;
    const ideDigest = ide ? (await import('./ide-digest.js')).ideDigest(ide) : null;
    const key = contextKey(project, selection, ideDigest);
    const cached = cache.get(key);
    if (cached) return cached;
    const diskKey = disk ? storedContextKey(options, project, selection, ideDigest) : undefined;
    const stored = diskKey ? disk!.get(diskKey) : undefined;
    if (stored && isStoredContext(stored.value)) {
      const { context, markdown } = stored.value;
      rendered.set(context, markdown);
      cache.set(key, context, [...context.inputs, ...stored.watched]);
      return context;
    }
    // What builds a context loads only when it must be built: a stored one needs none of it.
    const [{ buildBoardContext, libraryFolders }, { addLastCompile, applyIdeProperties, ideBuildProperties, lastCompileSize }, { discoverPlatforms }, { ResolveError, resolveFqbn }, { readSketch }] = await Promise.all([
      import('./board-context.js'),
      import('./ide-state.js'),
      import('../../platform/arduino/platforms.js'),
      import('../../platform/arduino/resolve.js'),
      import('./sketch.js'),
    ]);
    // No main: the board alone (a workspace without a sketch); a main of another name: the lone .ino found there.
    const sketch = project.main ? await readSketch(project.root, project.main) : undefined;

    // The IDE's own data folder and sketchbook are where its platforms and libraries are.
    const installed = await discoverPlatforms({
      ...options,
      dataDirs: options.dataDirs ?? (ide?.dataDir ? [ide.dataDir] : undefined),
      sketchbookDirs: options.sketchbookDirs ?? (ide?.userDir ? [ide.userDir] : undefined),
    });
    const choice = chooseBoard(selection, sketch);
    if (!choice) throw new ArduinoBoardError(noBoardMessage(project.root, installed, sketch), sketch?.yaml?.profiles.flatMap((profile) => (profile.fqbn ? [profile.fqbn] : [])) ?? []);
    const boardKey = boardCacheKey(options, choice.fqbn);
    let board = boards?.get(boardKey, installed);
    try {
      if (!board) {
        board = resolveFqbn(choice.fqbn, installed);
        boards?.set(boardKey, board, installed);
      }
    } catch (error) {
      if (error instanceof ResolveError) {
        const from = choice.source ? ` (from ${choice.source.file})` : '';
        throw new ArduinoBoardError(`Board ${choice.fqbn}${from}: ${error.message}`, error.choices);
      }
      throw error;
    }
    const ideProperties = ideBuildProperties(ide, board);
    const ideNote = ideProperties ? applyIdeProperties(board, ideProperties) : undefined;
    const context = buildBoardContext({
      board,
      installed,
      sketch,
      buildSize: options.buildSize?.(project.root) ?? lastCompileSize(ide),
      selectionSource: choice.source,
      cacheDir: options.cacheDir,
    });
    if (ideNote) (context.notes ??= []).push(ideNote);
    addLastCompile(context, ide);
    // A boards.local.txt or a new library folder appearing must rebuild too.
    const watched = [...board.platform.files(), ...libraryFolders(board, installed).map((folder) => folder.dir), project.root];
    cache.set(key, context, [...context.inputs, ...watched]);
    if (diskKey) disk!.set(diskKey, { context, markdown: render(context) }, context.inputs, watched);
    return context;
  }

  return { kind: 'arduino', detect, load, render };
}

export const arduinoProvider: ContextProvider = createArduinoProvider(cliProviderOptions());
