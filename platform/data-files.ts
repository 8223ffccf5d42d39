// Where a cited data file of boards/data/ is: the package's own copy, never the one tsc writes
// into dist/ (tsc re-indents the JSON it copies, so the line numbers facts cite would be wrong).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const found = new Map<string, string>();

// The outermost folder above this module that holds boards/data/<name>: in a checkout that is
// the repository (not dist/, whose copy tsc re-indented), in the npm package and the .vsix the
// package's own copy.
function locate(name: string): string {
  let best: string | undefined;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'boards', 'data', name);
    if (existsSync(candidate)) best = candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (!best) throw new Error(`boards/data/${name} not found above ${fileURLToPath(import.meta.url)}: the boardbridge package is incomplete`);
  return best;
}

/** The absolute path of `boards/data/<name>` in the installed package. */
export function dataFile(name: string): string {
  let path = found.get(name);
  if (!path) found.set(name, (path = locate(name)));
  return path;
}
