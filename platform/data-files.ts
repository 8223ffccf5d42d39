// Where a cited data file of boards/data/ is: the package's own copy, never the one tsc writes
// into dist/ (tsc re-indents the JSON it copies, so the line numbers facts cite would be wrong).
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { join } from './path-join.js';
import { fileURLToPath } from 'node:url';

const found = new Map<string, string>();
let dataDirs: string[] | undefined;

// The boards/data folders above this module, outermost first, found in one walk up (a command
// asks for several data files; each walk is a stat per folder level).
function candidateDirs(): string[] {
  if (dataDirs) return dataDirs;
  const dirs: string[] = [];
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'boards', 'data');
    if (existsSync(candidate)) dirs.unshift(candidate);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return (dataDirs = dirs);
}

// The outermost folder above this module that holds boards/data/<name>: in a checkout that is
// the repository (not dist/, whose copy tsc re-indented), in the npm package and the .vsix the
// package's own copy.
function locate(name: string): string {
  for (const dir of candidateDirs()) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`boards/data/${name} not found above ${fileURLToPath(import.meta.url)}: the boardbridge package is incomplete`);
}

/** The absolute path of `boards/data/<name>` in the installed package. */
export function dataFile(name: string): string {
  let path = found.get(name);
  if (!path) found.set(name, (path = locate(name)));
  return path;
}

export interface DataSource<T> {
  file: string;
  /** The file's text, for the line a fact cites. */
  text: string;
  data: T;
}

const read = new Map<string, DataSource<unknown>>();

/**
 * `boards/data/<name>`, read and parsed when a caller first needs it rather than at start-up, so
 * a command pays only for the data files it uses; the text is kept for the lines facts cite. The
 * type comes from the file itself: `typeof import('…/x.json', …)` (type-only, the build erases it).
 */
export function dataSource<T>(name: string): DataSource<T> {
  let source = read.get(name);
  if (!source) {
    const file = dataFile(name);
    try {
      const text = readFileSync(file, 'utf8');
      source = { file, text, data: JSON.parse(text) };
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}; the boardbridge package is damaged, reinstall it`);
    }
    read.set(name, source);
  }
  return source as DataSource<T>;
}

/** The parsed content of `boards/data/<name>` (dataSource's). */
export function dataJson<T>(name: string): T {
  return dataSource<T>(name).data;
}

/** A value built from data files the first time it is asked for, then kept. */
export function lazily<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}
