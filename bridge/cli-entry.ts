// The file that starts this command line, for what runs it again (the MCP stdio relay an agent
// starts, the command `setup` writes into an editor's settings): the bundle when boardbridge runs
// bundled (dist/cli/boardbridge.cjs, whose chunks sit in dist/cli/chunks/), else tsc's
// dist/bridge/cli/main.js.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findExecutable } from '../boards/executables.js';
import { isInsideFolder } from '../platform/system-paths.js';
import { shellWord } from './shell-words.js';

export function cliEntry(): string {
  const here = fileURLToPath(import.meta.url);
  if (path.basename(here) === 'cli-entry.js') return path.join(path.dirname(here), 'cli', 'main.js');
  // The sources run directly (the tests): the build's CLI.
  if (path.basename(here) === 'cli-entry.ts') return path.join(path.dirname(here), '..', 'dist', 'bridge', 'cli', 'main.js');
  // Bundled: this code is inlined in the entry file or in one of its chunks.
  const dir = path.dirname(here);
  return path.join(path.basename(dir) === 'chunks' ? path.dirname(dir) : dir, 'boardbridge.cjs');
}

/** How this boardbridge was started, which decides how a message names it. */
export type StartedAs = 'npm-start' | 'path' | 'npx' | 'clone' | 'bundled';

export function startedAs(env: NodeJS.ProcessEnv = process.env, entry: string = cliEntry()): StartedAs {
  if (env.npm_lifecycle_event === 'start' && env.npm_package_name === 'boardbridge') return 'npm-start';
  const real = realEntry(entry);
  const onPath = findExecutable('boardbridge', env.PATH ?? '');
  if (onPath && realEntry(onPath) === real) return 'path';
  // npx keeps what it downloads in <npm cache>/_npx/<hash>/node_modules.
  if (real.split(path.sep).includes('_npx')) return 'npx';
  // A clone has the sources beside the build; an installed package (a project's dependency, the .vsix's bridge) has only the build.
  return existsSync(path.join(packageRoot(), 'bridge', 'cli-entry.ts')) ? 'clone' : 'bundled';
}

/**
 * The command line that runs `boardbridge <args>` in a terminal at `cwd`, as this one was started:
 * `boardbridge …` when that name on PATH is this CLI, `npx boardbridge …` inside a clone or after
 * npx, else node and the full path of this CLI.
 */
export function cliCommand(args: string, env: NodeJS.ProcessEnv = process.env, cwd?: string): string {
  const how = startedAs(env);
  const where = cwd ?? shownAt(env);
  if (how === 'path') return `boardbridge ${args}`;
  if (how === 'npx') return `npx boardbridge ${args}`;
  if ((how === 'clone' || how === 'npm-start') && isInsideFolder(where, packageRoot())) return `npx boardbridge ${args}`;
  return `${shellWord(process.execPath)} ${shellWord(cliEntry())} ${args}`;
}

function realEntry(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** The folder that holds boardbridge's package.json (works from dist/ and from sources). */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dir;
}

/** Where the person typed the command that started boardbridge: npm runs scripts in the package folder, INIT_CWD is where it was typed. */
export function shownAt(env: NodeJS.ProcessEnv = process.env): string {
  return env.INIT_CWD ?? process.cwd();
}
