// Turns `--agent NAME`, `--agent-command LINE` or the config file into a command
// to run, looking on PATH, then in boardbridge's own dependencies, then npx.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findExecutable } from '../../boards/executables.js';
import { thisSystem, userConfigDir } from '../../platform/system-paths.js';
import { cliCommand } from '../cli-entry.js';
import { BridgeError } from '../errors.js';
import { splitShellWords } from '../shell-words.js';
import { locate } from './locate.js';
import { findNode, NODE_ENV_VAR, nodeInstallDir, nodeInstallHint } from './node-runtime.js';
import { KNOWN_AGENTS, findProfile, type AgentProfile } from './profiles.js';
import { agentStatuses, type AgentStatus } from './status.js';
import type { AgentLaunch } from './agent-launch.js';

export type { AgentLaunch };

export { locate, packageRoot } from './locate.js';

/** The config file's contents (configPath). */
export interface BridgeConfig {
  defaultAgent?: string;
  agents?: Record<string, { command: string; args?: string[]; env?: Record<string, string> }>;
}

// zod (and the ACP Registry's reader, below) load only when they are needed: a command that starts
// an agent resolves it before anything else, and the agent starts that much sooner.
async function configSchema() {
  const { z } = await import('zod');
  return z.object({
    defaultAgent: z.string().optional(),
    agents: z
      .record(z.string(), z.object({ command: z.string(), args: z.array(z.string()).optional(), env: z.record(z.string(), z.string()).optional() }))
      .optional(),
  });
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userConfigDir(thisSystem(env.HOME || os.homedir(), env)), 'boardbridge', 'config.json');
}

export async function loadConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<BridgeConfig> {
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
  const parsed = (await configSchema()).safeParse(data);
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

export async function resolveAgent(options: ResolveOptions): Promise<AgentLaunch> {
  const env = options.env ?? process.env;
  if (options.agentCommand !== undefined) {
    const words = splitShellWords(options.agentCommand);
    if (!words || words.length === 0) throw agentNotFound(`cannot read the agent command: ${options.agentCommand}`, 'quote it as one argument, e.g. --agent-command "my-agent --acp"');
    return { id: path.basename(words[0]), title: words[0], command: words[0], args: words.slice(1), env: {}, via: 'command' };
  }
  const id = options.agent ?? options.config?.defaultAgent ?? chooseDefault(env);
  const configured = options.config?.agents?.[id];
  const profile = findProfile(id);
  if (configured) {
    return { id, title: profile?.title ?? id, command: configured.command, args: configured.args ?? profile?.args ?? [], env: { ...profile?.env, ...configured.env }, profile, via: 'config' };
  }
  if (!profile) {
    const [{ loadRegistry }, { registryLaunch }] = await Promise.all([import('./registry/registry.js'), import('./registry/registry-launch.js')]);
    const registry = loadRegistry(env);
    const listed = registry.agents.find((a) => a.id === id);
    // A registry agent boardbridge knows by another name runs as that one (installed, tested, offline).
    const same = listed && KNOWN_AGENTS.find((p) => p.npmPackage && p.npmPackage === packageName(listed.distribution.npx?.package));
    if (same && locate(same, env)) return { ...(await resolveAgent({ ...options, agent: same.id })), id };
    if (listed) return registryLaunch(listed, env);
    const known = [...KNOWN_AGENTS.map((p) => p.id), ...Object.keys(options.config?.agents ?? {})];
    throw agentNotFound(
      `unknown agent "${id}"`,
      `known agents: ${known.join(', ')}; from the ACP Registry: ${registry.agents.map((a) => a.id).join(', ') || `none (${registry.source})`}; any ACP agent runs with --agent-command "<command line>"`,
    );
  }
  const found = locate(profile, env);
  if (found) return { id, title: profile.title, ...underNode(profile, found.command, profile.args, env), env: { ...profile.env }, profile, via: found.via };
  if (options.allowNpx && profile.npmPackage && findExecutable('npx', env.PATH)) {
    return { id, title: profile.title, command: 'npx', args: ['-y', profile.npmPackage, ...profile.args], env: { ...profile.env }, profile, via: 'npx' };
  }
  throw agentNotFound(
    `${profile.title} is not installed (looked for ${profile.executables.join(', ')} on PATH and in boardbridge's node_modules)`,
    profile.npmPackage ? `install it: npm install -g ${profile.npmPackage}` : `install ${profile.executables[0]}`,
  );
}

/**
 * An agent that needs a newer Node than the one on PATH runs as `<node> <script>`: its
 * `#!/usr/bin/env node` line would pick the old one.
 */
function underNode(profile: AgentProfile, command: string, args: string[], env: NodeJS.ProcessEnv): { command: string; args: string[] } {
  if (!profile.minNode) return { command, args: [...args] };
  const node = findNode(profile.minNode, env);
  if (!node) {
    const looked = `${NODE_ENV_VAR}, node on PATH, ${nodeInstallDir(env)}`;
    throw new BridgeError('agent_start', `${profile.title} needs Node.js ${profile.minNode} or newer; boardbridge runs on ${process.version} and found no newer one (looked at ${looked})`, nodeInstallHint(profile.minNode, env));
  }
  return { command: node.path, args: [realpathSync(command), ...args] };
}

/** The first agent, in KNOWN_AGENTS order, that is installed and logged in. */
export function chooseDefault(env: NodeJS.ProcessEnv): string {
  const statuses = agentStatuses(env);
  const ready = statuses.find((s) => s.ready);
  if (ready) return ready.id;
  throw new NoAgentReady(statuses);
}

/** No named agent is installed and logged in: the faces show the options, it is not a failure. */
export class NoAgentReady extends BridgeError {
  constructor(readonly statuses: AgentStatus[]) {
    super('agent_not_found', 'no agent is ready to use: none of the known agents is both installed and logged in', `run: ${cliCommand('agents')}`);
  }
}

/** `@scope/name@1.2.3` → `@scope/name`. */
function packageName(spec: string | undefined): string | undefined {
  return spec?.replace(/(.)@[^@/]*$/, '$1');
}

function agentNotFound(message: string, hint: string): BridgeError {
  return new BridgeError('agent_not_found', message, hint);
}

export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return findExecutable(name, env.PATH ?? '');
}
