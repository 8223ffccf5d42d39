// arduino-builder, the compiler front end of Arduino IDE 1.8 and the one Debian packages.
// `-logger machine` gives parseable progress, memory use and used libraries; gcc's own lines
// pass through untouched and are parsed for diagnostics.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from '../../platform/path-join.js';
import { loadExeca } from '../packages.js';
import {
  ToolchainError,
  type BuildTool,
  type CompileRequest,
  type CompileResult,
  type MemoryUse,
  type UsedLibrary,
} from './build-tool.js';
import { arduinoDirectories } from '../../platform/arduino/directories.js';
import { discoverPlatforms } from '../../platform/arduino/platforms.js';
import { fullFqbn, resolveFqbn } from '../../platform/arduino/resolve.js';
import { boardbridgeCacheDir } from '../../platform/system-paths.js';
import { parseGccDiagnostics } from './gcc-diagnostics.js';
import { buildFolder, findImage, locateSketch } from './sketch.js';

export interface ArduinoBuilderLayout {
  /** Folders holding `<vendor>/<arch>/` platforms, before the sketchbook's hardware/; absolute. */
  hardware: string[];
  tools: string[];
  /** Library folders before the sketchbook's libraries/. */
  libraries: string[];
  /**
   * The sketchbook whose hardware/ and libraries/ are searched too. Default: the one the Arduino
   * configuration names at each compile (arduinoDirectories), with its built-in libraries.
   */
  sketchbook?: string;
  /** Build properties always passed with `-prefs`. */
  prefs: Record<string, string>;
  /** Where compiled cores (`core.a`) are kept and reused across sketches (`-build-cache`). */
  coreCache?: string;
}

/** The folders of one run: the layout's, then the sketchbook's that exist. */
interface BuilderFolders {
  hardware: string[];
  libraries: string[];
  builtInLibraries: string[];
}

/**
 * Debian's layout. Its AVR core fails with Debian's gcc-avr 5.4 ("'DECIMAL_DIG' was not
 * declared") unless DECIMAL_DIG is defined from the compiler's own __DECIMAL_DIG__.
 */
export function debianLayout(
  sketchbook?: string,
  coreCache = join(boardbridgeCacheDir(), 'arduino-core'),
): ArduinoBuilderLayout {
  return {
    hardware: ['/usr/share/arduino/hardware', '/usr/share/arduino-builder'],
    tools: ['/usr/share/arduino-builder'],
    libraries: [],
    ...(sketchbook === undefined ? {} : { sketchbook }),
    prefs: { 'compiler.cpp.extra_flags': '-DDECIMAL_DIG=__DECIMAL_DIG__' },
    coreCache,
  };
}

interface MachineMessage {
  level: string;
  format: string;
  args: string[];
}

/** `===info ||| Sketch uses {0} bytes … ||| [1926 32256 5]`; arguments are URL-encoded. */
function parseMachineLine(line: string): MachineMessage | undefined {
  const match = /^===(\w+) \|\|\| (.*) \|\|\| \[(.*)\]$/.exec(line);
  if (!match) return undefined;
  const args = match[3] === '' ? [] : match[3].split(' ').map((arg) => decodeURIComponent(arg));
  return { level: match[1], format: match[2], args };
}

function formatMessage(message: MachineMessage): string {
  return message.format.replace(/\{(\d+)\}/g, (_, index: string) => message.args[Number(index)] ?? '').replace(/%%/g, '%');
}

export class ArduinoBuilder implements BuildTool {
  readonly name = 'arduino-builder' as const;

  constructor(
    readonly executable: string,
    private readonly layout: ArduinoBuilderLayout = debianLayout(),
  ) {}

  /**
   * arduino-builder passes an empty value for a menu option the FQBN leaves out (a Nano
   * without `cpu=` gets `-mmcu=`), where arduino-cli takes the menu's first option: the
   * builder gets the FQBN with each option written out, as its own platforms resolve it.
   * One that does not resolve is passed as given, for arduino-builder to name the problem.
   */
  private async builderFqbn(fqbn: string, folders: BuilderFolders): Promise<string> {
    try {
      const installed = await discoverPlatforms({ dataDirs: [], sketchbookDirs: [], includeDebian: false, hardwareDirs: folders.hardware, builtinLibraryDirs: [] });
      return fullFqbn(resolveFqbn(fqbn, installed));
    } catch {
      return fqbn;
    }
  }

  /** Checked at each run: the configuration, or the sketchbook's folders, may have changed since. */
  private async folders(): Promise<BuilderFolders> {
    const configured = this.layout.sketchbook === undefined ? await arduinoDirectories() : undefined;
    const sketchbook = this.layout.sketchbook ?? configured!.user;
    const existing = (dirs: Array<string | undefined>): string[] => dirs.filter((dir): dir is string => dir !== undefined && existsSync(dir));
    return {
      hardware: [...this.layout.hardware, ...existing([join(sketchbook, 'hardware')])],
      libraries: [...this.layout.libraries, ...existing([join(sketchbook, 'libraries')])],
      builtInLibraries: existing([configured?.builtinLibraries]),
    };
  }

  async compile(request: CompileRequest): Promise<CompileResult> {
    const sketch = locateSketch(request.sketch);
    const buildPath = request.buildPath ?? buildFolder(sketch.dir, request.fqbn);
    const folders = await this.folders();
    const builderFqbn = await this.builderFqbn(request.fqbn, folders);
    mkdirSync(buildPath, { recursive: true });
    if (this.layout.coreCache) mkdirSync(this.layout.coreCache, { recursive: true });
    const args = [
      '-compile',
      '-verbose',
      '-logger',
      'machine',
      ...this.commonArgs(folders, builderFqbn, buildPath, request.buildProperties, request.libraries),
      sketch.main,
    ];
    const result: CompileResult = {
      success: false,
      tool: this.name,
      sketch: sketch.dir,
      fqbn: request.fqbn,
      buildPath,
      diagnostics: [],
      libraries: [],
      output: '',
      command: [this.executable, ...args],
    };
    const compilerLines: string[] = [];
    const shown: string[] = [];
    const execa = await loadExeca();
    const child = execa(this.executable, args, {
      all: true,
      reject: false,
      env: { LC_ALL: 'C' },
      cancelSignal: request.signal,
    });
    for await (const line of child.iterable({ from: 'all' })) {
      const message = parseMachineLine(line);
      if (!message) {
        compilerLines.push(line);
        shown.push(line);
        request.onOutput?.(line);
        continue;
      }
      if (message.format.startsWith('Progress')) {
        request.onProgress?.(Number(message.args[0]));
        continue;
      }
      this.collect(message, result);
      const text = formatMessage(message);
      shown.push(text);
      request.onOutput?.(text);
    }
    const finished = await child;
    if (finished.isCanceled) throw new ToolchainError(`compile of ${sketch.main} was cancelled`);
    if (finished.failed && finished.exitCode === undefined) {
      throw new ToolchainError(`cannot run ${this.executable}: ${finished.shortMessage}`);
    }
    result.success = finished.exitCode === 0;
    result.output = shown.join('\n');
    result.diagnostics = parseGccDiagnostics(compilerLines.join('\n'));
    if (result.success) result.image = findImage(buildPath, sketch.name);
    return result;
  }

  async boardProperties(fqbn: string, sketch?: string): Promise<Record<string, string>> {
    const buildPath = sketch ? buildFolder(locateSketch(sketch).dir, fqbn) : undefined;
    if (buildPath) mkdirSync(buildPath, { recursive: true });
    const folders = await this.folders();
    const args = ['-dump-prefs', ...this.commonArgs(folders, await this.builderFqbn(fqbn, folders), buildPath)];
    if (sketch) args.push(locateSketch(sketch).main);
    const execa = await loadExeca();
    const finished = await execa(this.executable, args, { reject: false, env: { LC_ALL: 'C' } });
    if (finished.exitCode !== 0) {
      throw new ToolchainError(
        `${this.executable} -dump-prefs for ${fqbn} failed: ${(finished.stdout + finished.stderr).trim().split('\n').at(-1)}`,
      );
    }
    const properties: Record<string, string> = {};
    for (const line of finished.stdout.split('\n')) {
      const equals = line.indexOf('=');
      if (equals > 0) properties[line.slice(0, equals)] = line.slice(equals + 1);
    }
    return properties;
  }

  private commonArgs(
    folders: BuilderFolders,
    fqbn: string,
    buildPath: string | undefined,
    extra: Record<string, string> = {},
    libraries: string[] = [],
  ): string[] {
    const prefs = { ...this.layout.prefs };
    for (const [key, value] of Object.entries(extra)) prefs[key] = prefs[key] ? `${prefs[key]} ${value}` : value;
    return [
      ...folders.hardware.flatMap((dir) => ['-hardware', dir]),
      ...this.layout.tools.flatMap((dir) => ['-tools', dir]),
      ...folders.builtInLibraries.flatMap((dir) => ['-built-in-libraries', dir]),
      ...[...folders.libraries, ...libraries].flatMap((dir) => ['-libraries', dir]),
      '-fqbn',
      fqbn,
      ...Object.entries(prefs).map(([key, value]) => `-prefs=${key}=${value}`),
      ...(buildPath ? ['-build-path', buildPath] : []),
      ...(this.layout.coreCache ? ['-build-cache', this.layout.coreCache] : []),
    ];
  }

  private collect(message: MachineMessage, result: CompileResult): void {
    const number = (index: number): number => Number(message.args[index]);
    if (message.format.startsWith('Sketch uses {0} bytes')) {
      result.flash = memory(number(0), number(1));
    } else if (message.format.startsWith('Global variables use {0} bytes')) {
      result.ram = memory(number(0), number(1));
    } else if (message.format.startsWith('Using library {0} at version {1} in folder: {2}')) {
      const library: UsedLibrary = { name: message.args[0], version: message.args[1] || undefined, path: message.args[2] };
      result.libraries.push(library);
    }
  }
}

function memory(used: number, max: number): MemoryUse {
  return Number.isFinite(max) && max > 0 ? { used, max } : { used };
}
