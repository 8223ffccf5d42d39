// Finding the installed Arduino platforms: the arduino-cli data directory, the sketchbook's
// hardware/ folder and Debian's /usr/share/arduino/hardware, laid out as arduino-cli's loader
// expects (hardware/<vendor>/<arch>/ or packages/<vendor>/hardware/<arch>/<version>/).
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { join } from '../path-join.js';
import type { Finding } from '../finding.js';
import { PlatformRelease } from './platform-release.js';
import { loadPropertiesFile, Properties, type OsSuffix } from './properties.js';
import { compareVersions } from './version.js';
import { arduinoDirectories, type ArduinoDirectories } from './directories.js';
import { isDir } from './folders.js';
import { readRegularFileSync } from '../regular-file.js';

export interface ToolRelease {
  vendor: string;
  name: string;
  version: string;
  dir: string;
}

/** A folder in the pre-1.5 layout (`hardware/<vendor>/boards.txt`) that no current tool loads. */
export interface LegacyPlatform {
  vendor: string;
  dir: string;
  boardIds: string[];
  reason: string;
}

export interface InstalledPlatforms {
  /** `vendor:arch` → the release arduino-cli would use. */
  platforms: Map<string, PlatformRelease>;
  tools: ToolRelease[];
  /**
   * Hardware-root `platform.txt` files ("global platform.txt"). arduino-cli merges them over every
   * board (`over`); arduino-builder (IDE 1.8, whose tree Debian's folder is) merges them beneath
   * the platform (`under`).
   */
  globalProperties: { over: Properties; under: Properties };
  legacy: LegacyPlatform[];
  /** Hardware folders that were searched, in order. */
  hardwareDirs: string[];
  /** Sketchbook folders in effect (their libraries/ hold the user's libraries). */
  sketchbookDirs: string[];
  /** Folders of built-in libraries (Arduino IDE 2.x: `<data dir>/libraries`; Debian's IDE 1.8 folder). */
  builtinLibraryDirs: string[];
  /** The user's folders as the Arduino configuration states them (before any override below). */
  directories: ArduinoDirectories;
  /** Every file discovery read (arduino-cli.yaml, global platform.txt). */
  inputs: string[];
  warnings: Finding[];
}

export interface DiscoverOptions {
  /** arduino-cli data directories (`directories.data`); default: as arduinoDirectories() finds it. */
  dataDirs?: string[];
  /** Sketchbook folders (`directories.user`); default: as arduinoDirectories() finds it. */
  sketchbookDirs?: string[];
  /** Also read /usr/share/arduino/hardware (Debian's arduino-core-avr); default true. */
  includeDebian?: boolean;
  /** More folders laid out as hardware/<vendor>/<arch>/. */
  hardwareDirs?: string[];
  /** Built-in library folders; default `directories.builtin.libraries` and, with Debian, /usr/share/arduino/libraries. */
  builtinLibraryDirs?: string[];
  /** Home folder for the defaults (tests point it elsewhere); default os.homedir(). */
  home?: string;
  os?: OsSuffix;
}

export const DEBIAN_HARDWARE_DIR = '/usr/share/arduino/hardware';
export const DEBIAN_LIBRARIES_DIR = '/usr/share/arduino/libraries';

export async function discoverPlatforms(options: DiscoverOptions = {}): Promise<InstalledPlatforms> {
  const directories = await arduinoDirectories({ home: options.home ?? homedir() });
  const result: InstalledPlatforms = {
    platforms: new Map(),
    tools: [],
    globalProperties: { over: new Properties(), under: new Properties() },
    legacy: [],
    hardwareDirs: [],
    sketchbookDirs: [],
    builtinLibraryDirs: [],
    directories,
    inputs: directories.configFile ? [directories.configFile] : [],
    warnings: [...directories.warnings],
  };
  const dataDirs = options.dataDirs ?? [directories.data];
  const sketchbooks = options.sketchbookDirs ?? [directories.user];
  result.sketchbookDirs = sketchbooks.map((dir) => resolve(dir));
  result.builtinLibraryDirs = options.builtinLibraryDirs ?? [
    ...(directories.builtinLibraries ? [directories.builtinLibraries] : []),
    ...(options.includeDebian === false ? [] : [DEBIAN_LIBRARIES_DIR]),
  ];

  // arduino-cli's order: the data dir's packages first, then the sketchbook's hardware folder.
  const roots = [
    ...dataDirs.map((dir) => ({ dir: join(dir, 'packages'), managed: true })),
    ...sketchbooks.map((dir) => ({ dir: join(dir, 'hardware'), managed: false })),
    ...(options.includeDebian === false ? [] : [{ dir: DEBIAN_HARDWARE_DIR, managed: false }]),
    ...(options.hardwareDirs ?? []).map((dir) => ({ dir, managed: false })),
  ];
  for (const root of roots) scanHardwareDir(resolve(root.dir), root.managed, result, options.os);
  return result;
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.') && (entry.isDirectory() || (entry.isSymbolicLink() && isDir(join(dir, entry.name)))))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}


function scanHardwareDir(root: string, managed: boolean, result: InstalledPlatforms, os?: OsSuffix): void {
  if (!isDir(root)) return;
  result.hardwareDirs.push(root);
  const globalTxt = join(root, 'platform.txt');
  if (existsSync(globalTxt)) {
    const loaded = loadPropertiesFile(globalTxt, os);
    const layer = root === DEBIAN_HARDWARE_DIR ? 'under' : 'over';
    result.globalProperties[layer].merge(loaded.properties);
    result.warnings.push(...loaded.warnings);
    result.inputs.push(globalTxt);
  }
  for (const vendor of listDirs(root)) {
    if (vendor === 'tools') continue;
    const vendorDir = join(root, vendor);
    if (existsSync(join(vendorDir, 'boards.txt'))) {
      result.legacy.push(describeLegacy(vendor, vendorDir));
      continue;
    }
    const hardwareSub = join(vendorDir, 'hardware');
    const archParent = isDir(hardwareSub) ? hardwareSub : vendorDir;
    for (const architecture of listDirs(archParent)) {
      if (architecture === 'tools') continue;
      addPlatform(vendor, architecture, join(archParent, architecture), managed, result, os);
    }
    scanTools(vendor, join(vendorDir, 'tools'), result);
  }
}

function addPlatform(vendor: string, architecture: string, dir: string, managed: boolean, result: InstalledPlatforms, os?: OsSuffix): void {
  const candidates: PlatformRelease[] = [];
  if (existsSync(join(dir, 'boards.txt'))) {
    const version = loadPropertiesFile(join(dir, 'platform.txt'), os).properties.get('version') ?? '0.0.0';
    candidates.push(new PlatformRelease(vendor, architecture, version, dir, managed, os));
  } else {
    for (const version of listDirs(dir)) {
      if (existsSync(join(dir, version, 'boards.txt'))) {
        candidates.push(new PlatformRelease(vendor, architecture, version, join(dir, version), managed, os));
      }
    }
  }
  for (const candidate of candidates) {
    const current = result.platforms.get(candidate.id);
    if (!current || isBetterRelease(candidate, current)) result.platforms.set(candidate.id, candidate);
  }
}

// arduino-cli's GetInstalledPlatformRelease: a Boards-Manager install beats a manual one,
// otherwise the higher version wins.
function isBetterRelease(candidate: PlatformRelease, current: PlatformRelease): boolean {
  if (candidate.managed !== current.managed) return candidate.managed;
  return compareVersions(candidate.version, current.version) > 0;
}

function scanTools(vendor: string, toolsDir: string, result: InstalledPlatforms): void {
  for (const name of listDirs(toolsDir)) {
    for (const version of listDirs(join(toolsDir, name))) {
      result.tools.push({ vendor, name, version, dir: join(toolsDir, name, version) });
    }
  }
}

function describeLegacy(vendor: string, dir: string): LegacyPlatform {
  let boardIds: string[] = [];
  try {
    boardIds = [...new Set(readRegularFileSync(join(dir, 'boards.txt'), 'utf8').split('\n').map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#') && line.includes('.name='))
      .map((line) => line.slice(0, line.indexOf('.'))))];
  } catch {
    // Unreadable: the reason below still applies.
  }
  const noPlatformTxt = existsSync(join(dir, 'platform.txt')) ? '' : ' and has no platform.txt';
  return {
    vendor,
    dir,
    boardIds,
    reason:
      `${dir} uses the pre-1.5 hardware layout (boards.txt directly in the vendor folder, no architecture ` +
      `folder${noPlatformTxt}). arduino-cli, Arduino IDE 2.x and arduino-builder skip it, so its boards ` +
      `(${boardIds.join(', ') || 'none found'}) cannot be compiled or resolved. Install a 1.5-format release ` +
      `of this core (Boards Manager), or move it to ${dir}/avr/ with a platform.txt.`,
  };
}
