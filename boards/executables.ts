// Finding programs on a search path: toolchains here, agents in the bridge.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on `path` (PATH by default) that may be run; a name with a slash is checked as it is. */
export function findExecutable(name: string, path = process.env.PATH ?? ''): string | undefined {
  if (name.includes('/')) return isExecutable(name) ? name : undefined;
  const names = process.platform === 'win32' ? [`${name}.exe`, name] : [name];
  for (const dir of path.split(delimiter).filter(Boolean)) {
    for (const candidate of names) {
      const file = join(dir, candidate);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}
