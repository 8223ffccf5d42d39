// Finding programs on a search path, and how to start what was found: toolchains here, agents
// in the bridge. On Windows a program found on PATH is often a shim npm wrote (claude.cmd,
// claude.ps1) that Node cannot spawn by itself.
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

export interface SearchSystem {
  platform?: NodeJS.Platform;
  /** Windows: the extensions a bare name may have (%PATHEXT%). */
  pathext?: string;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on `search` (PATH by default) that may be run; a name with a path separator is checked as it is. */
export function findExecutable(name: string, search = process.env.PATH ?? '', system: SearchSystem = {}): string | undefined {
  const platform = system.platform ?? process.platform;
  const windows = platform === 'win32';
  // Windows has no execute bit: a file that exists with a runnable extension runs.
  const runs = windows ? existsSync : isExecutable;
  const names = windows ? windowsNames(name, system.pathext ?? process.env.PATHEXT ?? DEFAULT_PATHEXT) : [name];
  if (name.includes('/') || (windows && name.includes('\\'))) return names.find(runs);
  for (const dir of search.split(windows ? ';' : ':').filter(Boolean)) {
    for (const candidate of names) {
      const file = path.join(dir, candidate);
      if (runs(file)) return file;
    }
  }
  return undefined;
}

// A bare name tries each %PATHEXT% extension, then npm's PowerShell shim; a name with a
// runnable extension is taken as it is.
function windowsNames(name: string, pathext: string): string[] {
  const extensions = pathext.split(';').filter(Boolean).map((e) => e.toLowerCase());
  if (extensions.includes(path.extname(name).toLowerCase()) || path.extname(name).toLowerCase() === '.ps1') return [name];
  return [...extensions.map((e) => name + e), `${name}.ps1`];
}

export interface SpawnForm {
  command: string;
  args: string[];
  /** Node must pass the arguments to cmd.exe as they are (they are quoted here already). */
  windowsVerbatimArguments?: boolean;
}

/**
 * How to spawn `command` with `args`: as it is, except on Windows, where a .cmd/.bat shim runs
 * through cmd.exe (Node refuses to spawn them directly) and a .ps1 shim through PowerShell.
 */
export function spawnForm(command: string, args: string[], system: SearchSystem & { env?: NodeJS.ProcessEnv } = {}): SpawnForm {
  if ((system.platform ?? process.platform) !== 'win32') return { command, args };
  const env = system.env ?? process.env;
  const file = findExecutable(command, env.PATH ?? env.Path ?? '', { platform: 'win32', pathext: system.pathext ?? env.PATHEXT }) ?? command;
  const extension = path.extname(file).toLowerCase();
  if (extension === '.ps1') return { command: 'powershell.exe', args: ['-NoProfile', '-ExecutionPolicy', 'Bypass', '-File', file, ...args] };
  if (extension !== '.cmd' && extension !== '.bat') return { command: file, args };
  // npm's .cmd shims hand %* on to node, so cmd.exe reads each argument twice: escape twice.
  const line = [cmdQuote(file, 1), ...args.map((arg) => cmdQuote(arg, 2))].join(' ');
  return { command: env.ComSpec ?? env.COMSPEC ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
}

// One argument as the C runtime reads it (quotes, backslashes before quotes doubled), with
// cmd.exe's special characters escaped by ^ once per reading.
function cmdQuote(arg: string, readings: number): string {
  let quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')}"`;
  for (let i = 0; i < readings; i++) quoted = quoted.replace(/[()\][%!^"`<>&|;, *?]/g, '^$&');
  return quoted;
}
