// Which project MPLAB X or OpenMV IDE has open, read from the settings file the
// IDE writes (research: /tmp/research-ide-settings.md, from NetBeans' and Qt
// Creator's sources). The readers are pure; `settingsFileOf` finds the file.
//   MPLAB X (NetBeans): <userdir>/config/Preferences/org/netbeans/modules/projectui.properties,
//     `mainProjectURL` and `openProjectsURLs.N` as `file:` URLs, rewritten ~200 ms after each change.
//   OpenMV IDE (QSettings INI): OpenMV/OpenMVIDE.ini, `[RecentFiles] Files` most recent first,
//     `[OpenMV] LastSerialPortState`, `[OpenMVSerialPort] <port>=<drive>`; written on exit or Options only.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseProperties } from './java-properties.js';
import { iniList, iniString, parseQSettingsIni } from './qsettings-ini.js';

export type IdeKind = 'mplabx' | 'openmv';

export const IDE_TITLE: Record<IdeKind, string> = { mplabx: 'MPLAB X', openmv: 'OpenMV IDE' };

export type Platform = NodeJS.Platform;

export interface MplabxProjects {
  main?: string;
  open: string[];
}

export interface OpenmvState {
  /** The most recent .py in the IDE's recent files. */
  script?: string;
  /** The serial port the IDE last connected to, as a device path. */
  port?: string;
  /** The camera's drive the IDE associates with that port. */
  drive?: string;
}

export type Read<T> = { ok: true; value: T } | { ok: false; error: string };

/** The project folders MPLAB X records in projectui.properties. */
export function readMplabxProjects(text: string, platform: Platform = process.platform): Read<MplabxProjects> {
  const parsed = parseProperties(text);
  if (!parsed.ok) return { ok: false, error: `line ${parsed.line}: ${parsed.error}` };
  const open: string[] = [];
  // NetBeans reads a list up to its first missing index.
  for (let i = 0; parsed.values.has(`openProjectsURLs.${i}`); i++) {
    const dir = fileUrlToPath(parsed.values.get(`openProjectsURLs.${i}`)!, platform);
    if (typeof dir !== 'string') return { ok: false, error: `openProjectsURLs.${i}: ${dir.error}` };
    open.push(dir);
  }
  const mainUrl = parsed.values.get('mainProjectURL');
  if (mainUrl === undefined || mainUrl === '') return { ok: true, value: { open } };
  const main = fileUrlToPath(mainUrl, platform);
  if (typeof main !== 'string') return { ok: false, error: `mainProjectURL: ${main.error}` };
  return { ok: true, value: { main, open } };
}

/** The project to follow: the main project, else the only open one. */
export function mplabxFollowedProject(projects: MplabxProjects): { project: string } | { reason: string } {
  if (projects.main) return { project: projects.main };
  if (projects.open.length === 1) return { project: projects.open[0]! };
  if (projects.open.length === 0) return { reason: 'MPLAB X has no project open' };
  return {
    reason: `MPLAB X has ${projects.open.length} projects open and none is the main project: set one with Run → Set Main Project (or right-click the project → Set as Main Project)`,
  };
}

/** `file:/home/u/My%20Stuff/Blink.X/` → `/home/u/My Stuff/Blink.X`; `file:/C:/u/B.X/` → `C:\u\B.X` on Windows. */
export function fileUrlToPath(url: string, platform: Platform = process.platform): string | { error: string } {
  if (!/^file:/i.test(url)) return { error: `"${url}" is not a file: URL` };
  let rest = url.slice(5);
  // file:///p and file:/p are local; file://host/share and file:////host/share are UNC shares.
  if (rest.startsWith('////')) rest = rest.slice(2);
  else if (rest.startsWith('///')) rest = rest.slice(2);
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return { error: `"${url}" has a malformed %-escape` };
  }
  if (decoded.length > 1 && decoded.endsWith('/')) decoded = decoded.slice(0, -1);
  if (platform !== 'win32') return decoded;
  if (/^\/[A-Za-z]:/.test(decoded)) decoded = decoded.slice(1);
  if (/^[A-Za-z]:$/.test(decoded)) decoded += '/';
  return decoded.replace(/\//g, '\\');
}

/** What OpenMV IDE records in OpenMVIDE.ini: its latest script, the last port and that port's drive. */
export function readOpenmvState(text: string, platform: Platform = process.platform): Read<OpenmvState> {
  const parsed = parseQSettingsIni(text);
  if (!parsed.ok) return { ok: false, error: `line ${parsed.line}: ${parsed.error}` };
  const state: OpenmvState = {};
  const script = iniList(parsed.values.get('RecentFiles/Files')).find((file) => /\.py$/i.test(file));
  if (script) state.script = platform === 'win32' ? script.replace(/\//g, '\\') : script;
  const portName = iniString(parsed.values.get('OpenMV/LastSerialPortState'));
  const port = portName ? serialDevice(portName, platform) : undefined;
  if (port) state.port = port;
  const drive = portName ? iniString(parsed.values.get(`OpenMVSerialPort/${portName}`)) : undefined;
  if (drive) state.drive = drive;
  return { ok: true, value: state };
}

// Qt names a port without its folder (ttyACM0, cu.usbmodem1, COM5); a WiFi camera is `name:ip:port`.
function serialDevice(name: string, platform: Platform): string | undefined {
  if (platform === 'win32') return /^COM\d+$/i.test(name) ? name.toUpperCase() : undefined;
  if (name.startsWith('/')) return name;
  if (name.includes(':')) return undefined;
  return `/dev/${name}`;
}

export interface SettingsPlace {
  /** The file to read, when one could be chosen. */
  file?: string;
  /** Where it was looked for, for the message when it is missing. */
  lookedAt: string;
}

export interface Environment {
  platform: Platform;
  home: string;
  env: Record<string, string | undefined>;
}

export const thisEnvironment = (): Environment => ({ platform: process.platform, home: process.env.HOME ?? process.env.USERPROFILE ?? '', env: process.env });

const PROJECTUI = path.join('config', 'Preferences', 'org', 'netbeans', 'modules', 'projectui.properties');

/** Where the IDE keeps the settings file on this OS (an explicit file wins). */
export function settingsFileOf(ide: IdeKind, override: string | undefined, environment: Environment = thisEnvironment()): SettingsPlace {
  if (override) return { file: path.resolve(override), lookedAt: path.resolve(override) };
  const p = environment.platform === 'win32' ? path.win32 : path.posix;
  const appData = environment.env.APPDATA ?? p.join(environment.home, 'AppData', 'Roaming');
  if (ide === 'openmv') {
    const root = environment.platform === 'win32' ? appData : environment.env.XDG_CONFIG_HOME || p.join(environment.home, '.config');
    const file = p.join(root, 'OpenMV', 'OpenMVIDE.ini');
    return { file, lookedAt: file };
  }
  const dev =
    environment.platform === 'win32'
      ? p.join(appData, 'mplab_ide', 'dev')
      : environment.platform === 'darwin'
        ? p.join(environment.home, 'Library', 'Application Support', 'mplab_ide', 'dev')
        : p.join(environment.home, '.mplab_ide', 'dev');
  const lookedAt = p.join(dev, 'v*', PROJECTUI);
  return { file: newestVersionFile(dev, p), lookedAt };
}

// Every MPLAB X version has its own folder: follow the one whose projectui.properties changed last.
function newestVersionFile(dev: string, p: path.PlatformPath): string | undefined {
  let versions: string[];
  try {
    versions = readdirSync(dev).filter((name) => /^v\d/.test(name));
  } catch {
    return undefined;
  }
  let best: { file: string; mtime: number } | undefined;
  for (const version of versions) {
    const file = p.join(dev, version, PROJECTUI);
    try {
      const mtime = statSync(file).mtimeMs;
      if (!best || mtime > best.mtime) best = { file, mtime };
    } catch {
      // this version has not recorded a project
    }
  }
  return best?.file;
}
