// A Node.js new enough for an agent that needs a newer one than the bridge runs on
// (Qwen Code needs 22): one the person names, the bridge's own, the one on PATH, or
// the npm package `node` installed in boardbridge's data folder.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { findExecutable, isExecutable } from '../../boards/executables.js';

export interface NodeRuntime {
  path: string;
  version: string;
}

export const NODE_ENV_VAR = 'BOARDBRIDGE_NODE';

/** Where `npm install --prefix <dir> node@N` puts a Node for boardbridge's agents. */
export function nodeInstallDir(env: NodeJS.ProcessEnv = process.env): string {
  const data = env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), '.local', 'share');
  return path.join(data, 'boardbridge', 'node');
}

export function nodeInstallHint(major: number, env: NodeJS.ProcessEnv = process.env): string {
  return `install one from npm beside boardbridge: npm install --prefix ${nodeInstallDir(env)} node@${major} (or set ${NODE_ENV_VAR}=/path/to/node${major})`;
}

export function findNode(minMajor: number, env: NodeJS.ProcessEnv = process.env): NodeRuntime | undefined {
  const candidates = [
    env[NODE_ENV_VAR],
    process.execPath,
    findExecutable('node', env.PATH ?? ''),
    path.join(nodeInstallDir(env), 'node_modules', 'node', 'bin', 'node'),
  ];
  for (const candidate of candidates) {
    if (!candidate || !isExecutable(candidate)) continue;
    const version = candidate === process.execPath ? process.version : versionOf(candidate);
    if (version && majorOf(version) >= minMajor) return { path: candidate, version };
  }
  return undefined;
}

export function majorOf(version: string): number {
  return Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
}

function versionOf(node: string): string | undefined {
  const result = spawnSync(node, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  const text = result.stdout?.trim();
  return result.status === 0 && text && /^v\d+/.test(text) ? text : undefined;
}
