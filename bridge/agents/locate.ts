// Where a named agent's executable is: on PATH, else in boardbridge's own node_modules.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findExecutable, isExecutable } from '../../boards/executables.js';
import type { AgentProfile } from './profiles.js';

export function locate(profile: AgentProfile, env: NodeJS.ProcessEnv): { command: string; via: 'path' | 'project' } | undefined {
  for (const name of profile.executables) {
    const onPath = findExecutable(name, env.PATH ?? '');
    if (onPath) return { command: onPath, via: 'path' };
  }
  for (const name of profile.executables) {
    const local = path.join(packageRoot(), 'node_modules', '.bin', name);
    if (isExecutable(local)) return { command: local, via: 'project' };
  }
  return undefined;
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
