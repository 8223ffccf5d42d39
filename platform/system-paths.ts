// Where other systems keep things, and how they compare paths: the per-user settings folder,
// arduino-cli's default folders, boardbridge's own cache folder, and case-insensitive path comparison on Windows and macOS.
// Pure path logic, given the platform, environment and home folder, so every system's answer
// can be checked on any machine.
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import { join } from './path-join.js';

export interface SystemPlace {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

export const thisSystem = (home: string, env: NodeJS.ProcessEnv = process.env): SystemPlace => ({ platform: process.platform, env, home });

const pathsOf = (platform: NodeJS.Platform) => (platform === 'win32' ? win32 : posix);

/**
 * The per-user settings folder: $XDG_CONFIG_HOME wherever it is set, else %APPDATA% on Windows,
 * ~/Library/Application Support on macOS and ~/.config elsewhere.
 */
export function userConfigDir({ platform, env, home }: SystemPlace): string {
  const p = pathsOf(platform);
  if (env.XDG_CONFIG_HOME) return env.XDG_CONFIG_HOME;
  if (platform === 'win32') return env.APPDATA || p.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return p.join(home, 'Library', 'Application Support');
  return p.join(home, '.config');
}

/**
 * boardbridge's cache folder (contexts, builds, the registry, downloaded agents): $BOARDBRIDGE_CACHE_DIR,
 * else $XDG_CACHE_HOME/boardbridge, else ~/.cache/boardbridge. An empty variable counts as unset.
 */
export function boardbridgeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.BOARDBRIDGE_CACHE_DIR || join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'boardbridge');
}

/** arduino-cli's default data folder (directories.data): ~/.arduino15, ~/Library/Arduino15, %LOCALAPPDATA%\Arduino15. */
export function arduinoDataDir({ platform, env, home }: SystemPlace): string {
  const p = pathsOf(platform);
  if (platform === 'win32') return p.join(env.LOCALAPPDATA || p.join(home, 'AppData', 'Local'), 'Arduino15');
  if (platform === 'darwin') return p.join(home, 'Library', 'Arduino15');
  return p.join(home, '.arduino15');
}

/** arduino-cli's default sketchbook (directories.user): ~/Arduino on Linux, ~/Documents/Arduino on macOS and Windows. */
export function arduinoSketchbookDir({ platform, home }: SystemPlace): string {
  const p = pathsOf(platform);
  return platform === 'linux' || (platform !== 'win32' && platform !== 'darwin') ? p.join(home, 'Arduino') : p.join(home, 'Documents', 'Arduino');
}

/** Whether the file system usually ignores case: NTFS on Windows, APFS and HFS+ as macOS formats them. */
export const ignoresCase = (platform: NodeJS.Platform): boolean => platform === 'win32' || platform === 'darwin';

/** A form of `file` to compare: resolved, and lower-cased where the system ignores case. */
export function comparablePath(file: string, platform: NodeJS.Platform = process.platform): string {
  const resolved = pathsOf(platform).resolve(file);
  return ignoresCase(platform) ? resolved.toLowerCase() : resolved;
}

/** Whether `file` is `folder` or lies inside it, comparing as the system does. */
export function isInsideFolder(file: string, folder: string, platform: NodeJS.Platform = process.platform): boolean {
  const inner = comparablePath(file, platform);
  const outer = comparablePath(folder, platform);
  const sep = pathsOf(platform).sep;
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
}
