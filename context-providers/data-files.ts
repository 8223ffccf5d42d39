// Where a cited data file of boards/data/ is: the package's own copy, never the one tsc writes
// into dist/ (tsc re-indents the JSON it copies, so the line numbers facts cite would be wrong).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let packageRoot: string | undefined;

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'boards', 'data'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`boards/data not found above ${fileURLToPath(import.meta.url)}: the boardbridge package is incomplete`);
    dir = parent;
  }
}

/** The absolute path of `boards/data/<name>` in the installed package. */
export function dataFile(name: string): string {
  packageRoot ??= findPackageRoot();
  return join(packageRoot, 'boards', 'data', name);
}
