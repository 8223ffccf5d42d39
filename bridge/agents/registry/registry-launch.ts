// How a registry agent runs: `npx` or `uvx` with its package (they fetch it), or the
// archive for this platform, downloaded once into the cache, checked (sha256 when the
// registry gives one) and unpacked, then its `cmd`.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findExecutable } from '../../../boards/executables.js';
import { boardbridgeCacheDir } from '../../../platform/system-paths.js';
import { BridgeError } from '../../errors.js';
import type { AgentLaunch, BinaryInstall } from '../agent-launch.js';
import { platformKey, type BinaryTarget, type RegistryAgent } from './registry.js';

export type { BinaryInstall };

export function registryLaunch(agent: RegistryAgent, env: NodeJS.ProcessEnv): AgentLaunch {
  const { npx, uvx, binary } = agent.distribution;
  const base = { id: agent.id, title: `${agent.name} (ACP Registry)`, via: 'registry' as const };
  const target: BinaryTarget | undefined = binary?.[platformKey()];
  const binaryDir = path.join(boardbridgeCacheDir(env), 'agents', agent.id, agent.version);
  if (target && existsSync(path.join(binaryDir, target.cmd))) return { ...base, command: path.join(binaryDir, target.cmd), args: target.args ?? [], env: target.env ?? {} };
  if (npx && findExecutable('npx', env.PATH ?? '')) {
    const args = npx.cmd ? ['-y', '--package', npx.package, npx.cmd] : ['-y', npx.package];
    return { ...base, command: 'npx', args: [...args, ...(npx.args ?? [])], env: npx.env ?? {} };
  }
  if (uvx && findExecutable('uvx', env.PATH ?? '')) {
    const args = uvx.cmd ? ['--from', uvx.package, uvx.cmd] : [uvx.package];
    return { ...base, command: 'uvx', args: [...args, ...(uvx.args ?? [])], env: uvx.env ?? {} };
  }
  if (target) {
    return { ...base, command: path.join(binaryDir, target.cmd), args: target.args ?? [], env: target.env ?? {}, install: { archive: target.archive, sha256: target.sha256, dir: binaryDir, cmd: target.cmd } };
  }
  const ways = [npx && 'npx (install Node.js and npm)', uvx && 'uvx (install uv: https://docs.astral.sh/uv/)', binary && `a download for ${Object.keys(binary).join(', ')}`].filter(Boolean);
  throw new BridgeError('agent_not_found', `${agent.name} (ACP Registry) cannot run here: it comes as ${ways.join(' or ')}, and this machine is ${platformKey()}`, ways[0] ? `get ${ways[0]}` : 'see its repository');
}

/** Downloads and unpacks a registry agent's archive into its cache folder. */
export async function installBinary(install: BinaryInstall): Promise<void> {
  let bytes: Buffer;
  try {
    const response = await fetch(install.archive, { signal: AbortSignal.timeout(300_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw new BridgeError('agent_not_found', `could not download ${install.archive}: ${(error as Error).message}`, 'check the network, or install the agent yourself and run it with --agent-command');
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (install.sha256 && digest !== install.sha256.toLowerCase()) {
    throw new BridgeError('agent_not_found', `${install.archive} does not match the registry's sha256 (got ${digest})`, 'nothing was installed; try again later or report it to the agent');
  }
  rmSync(install.dir, { recursive: true, force: true });
  mkdirSync(install.dir, { recursive: true });
  const name = path.basename(new URL(install.archive).pathname);
  const file = path.join(install.dir, name);
  writeFileSync(file, bytes);
  try {
    if (/\.zip$/i.test(name)) execFileSync('unzip', ['-q', '-o', file, '-d', install.dir]);
    else if (/\.(tar\.gz|tgz)$/i.test(name)) execFileSync('tar', ['-xzf', file, '-C', install.dir]);
    else if (/\.(tar\.bz2|tbz2)$/i.test(name)) execFileSync('tar', ['-xjf', file, '-C', install.dir]);
    else writeFileSync(path.join(install.dir, install.cmd), bytes); // a raw binary
  } catch (error) {
    rmSync(install.dir, { recursive: true, force: true });
    throw new BridgeError('agent_not_found', `could not unpack ${name}: ${(error as Error).message}`, 'tar and unzip must be installed');
  }
  rmSync(file, { force: true });
  const command = path.join(install.dir, install.cmd);
  if (!existsSync(command)) {
    rmSync(install.dir, { recursive: true, force: true });
    throw new BridgeError('agent_not_found', `${name} has no ${install.cmd} inside`, 'the registry entry and the archive disagree: report it to the agent');
  }
  chmodSync(command, 0o755);
}
