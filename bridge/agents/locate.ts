// Where a named agent's executable is: on PATH, else in boardbridge's own node_modules.
import path from 'node:path';
import { findExecutable, isExecutable } from '../../boards/executables.js';
import type { AgentProfile } from './profiles.js';
import { packageRoot } from '../cli-entry.js';

export { packageRoot };

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

