// The main file of a sketch folder: <name>/<name>.ino (or .pde), as the IDE opens it.
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { join } from '../../platform/path-join.js';

export function sketchMainFile(dir: string): string | undefined {
  const name = basename(dir);
  return ['.ino', '.pde'].map((extension) => join(dir, name + extension)).find((file) => existsSync(file));
}
