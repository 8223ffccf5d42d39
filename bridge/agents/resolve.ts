// Turns `--agent NAME`, `--agent-command LINE` or the config file into a command
// to run, looking on PATH, then in boardbridge's own dependencies, then npx.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { findExecutable, isExecutable } from '../../boards/executables.js';
import { thisSystem, userConfigDir } from '../../boards/system-paths.js';
import { BridgeError } from '../session/errors.js';
import { splitShellWords } from '../shell-words.js';
import { DEFAULT_AGENT, KNOWN_AGENTS, findProfile, type AgentProfile } from './profiles.js';

export interface AgentLaunch {
  id: string;
  title: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  profile?: AgentProfile;
  via: 'path' | 'project' | 'npx' | 'command' | 'config';
}

const ConfigSchema = z.object({
  defaultAgent: z.string().optional(),
  agents: z
    .record(z.string(), z.object({ command: z.string(), args: z.array(z.string()).optional(), env: z.record(z.string(), z.string()).optional() }))
    .optional(),
});
export type BridgeConfig = z.infer<typeof ConfigSchema>;

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userConfigDir(thisSystem(env.HOME || os.homedir(), env)), 'boardbridge', 'config.json');
}

export function loadConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): BridgeConfig {
  const where = file ?? configPath(env);
  if (!existsSync(where)) {
    if (file) throw new Error(`config file ${file} does not exist`);
    return {};
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(where, 'utf8'));
  } catch (error) {
    throw new Error(`config file ${where} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ConfigSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`config file ${where}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  return parsed.data;
}

export interface ResolveOptions {
  agent?: string;
  agentCommand?: string;
  config?: BridgeConfig;
  env?: NodeJS.ProcessEnv;
  /** Allow `npx -y <package>` as the last resort (it may download). */
  allowNpx?: boolean;
}

export function resolveAgent(options: ResolveOptions): AgentLaunch {
  const env = options.env ?? process.env;
  if (options.agentCommand !== undefined) {
    const words = splitShellWords(options.agentCommand);
    if (!words || words.length === 0) throw agentNotFound(`cannot read the agent command: ${options.agentCommand}`, 'quote it as one argument, e.g. --agent-command "my-agent --acp"');
    return { id: path.basename(words[0]), title: words[0], command: words[0], args: words.slice(1), env: {}, via: 'command' };
  }
  const id = options.agent ?? options.config?.defaultAgent ?? DEFAULT_AGENT;
  const configured = options.config?.agents?.[id];
  const profile = findProfile(id);
  if (configured) {
    return { id, title: profile?.title ?? id, command: configured.command, args: configured.args ?? profile?.args ?? [], env: { ...profile?.env, ...configured.env }, profile, via: 'config' };
  }
  if (!profile) {
    const known = [...KNOWN_AGENTS.map((p) => p.id), ...Object.keys(options.config?.agents ?? {})];
    throw agentNotFound(`unknown agent "${id}"`, `known agents: ${known.join(', ')}; any ACP agent runs with --agent-command "<command line>"`);
  }
  const found = locate(profile, env);
  if (found) return { id, title: profile.title, command: found.command, args: [...profile.args], env: { ...profile.env }, profile, via: found.via };
  if (options.allowNpx && profile.npmPackage && findExecutable('npx', env.PATH)) {
    return { id, title: profile.title, command: 'npx', args: ['-y', profile.npmPackage, ...profile.args], env: { ...profile.env }, profile, via: 'npx' };
  }
  throw agentNotFound(
    `${profile.title} is not installed (looked for ${profile.executables.join(', ')} on PATH and in boardbridge's node_modules)`,
    profile.npmPackage ? `install it: npm install -g ${profile.npmPackage}` : `install ${profile.executables[0]}`,
  );
}

export function locate(profile: AgentProfile, env: NodeJS.ProcessEnv): { command: string; via: 'path' | 'project' } | undefined {
  for (const name of profile.executables) {
    const onPath = findExecutable(name, env.PATH);
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


function agentNotFound(message: string, hint: string): BridgeError {
  return new BridgeError('agent_not_found', message, hint);
}

export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return findExecutable(name, env.PATH ?? '');
}
