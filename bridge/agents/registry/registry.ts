// Agents from the ACP Registry (github.com/agentclientprotocol/registry): `--agent <id>`
// for any agent listed there. A copy of the index ships with boardbridge
// (registry-index.json: the registry's agent.json files at commit 3de1678, 2026-02-07,
// Apache-2.0, icons left out); `boardbridge agents --refresh` saves the published index
// (REGISTRY_URL) in the cache folder, which is used from then on.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { boardbridgeCacheDir } from '../../../platform/system-paths.js';
import { packageRoot } from '../locate.js';

export const REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

const PackageDistribution = z.object({ package: z.string().min(1), cmd: z.string().optional(), args: z.array(z.string()).optional(), env: z.record(z.string(), z.string()).optional() });
const BinaryTarget = z.object({ archive: z.string().url(), cmd: z.string().min(1), args: z.array(z.string()).optional(), env: z.record(z.string(), z.string()).optional(), sha256: z.string().optional() });
export const RegistryAgent = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/),
  name: z.string(),
  version: z.string(),
  description: z.string(),
  distribution: z.object({ npx: PackageDistribution.optional(), uvx: PackageDistribution.optional(), binary: z.record(z.string(), BinaryTarget).optional() }),
});
export type RegistryAgent = z.infer<typeof RegistryAgent>;
export type BinaryTarget = z.infer<typeof BinaryTarget>;
const RegistryIndex = z.object({ version: z.string(), agents: z.array(z.unknown()) });

export interface Registry {
  agents: RegistryAgent[];
  /** Where it was read from, and entries that did not match the format (skipped, never fatal). */
  source: string;
  skipped: string[];
}

export const shippedIndex = () => path.join(packageRoot(), 'bridge', 'agents', 'registry', 'registry-index.json');
const refreshedIndex = (env: NodeJS.ProcessEnv) => path.join(boardbridgeCacheDir(env), 'registry.json');

/** The refreshed index when there is a readable one, else the shipped copy ($BOARDBRIDGE_REGISTRY overrides both). */
export function loadRegistry(env: NodeJS.ProcessEnv = process.env): Registry {
  const candidates = env.BOARDBRIDGE_REGISTRY ? [env.BOARDBRIDGE_REGISTRY] : [refreshedIndex(env), shippedIndex()];
  let problem = '';
  for (const file of candidates) {
    if (!existsSync(file)) continue;
    try {
      return { ...parseRegistry(JSON.parse(readFileSync(file, 'utf8'))), source: file };
    } catch (error) {
      problem = `${file}: ${(error as Error).message}`;
    }
  }
  return { agents: [], source: problem || 'none found', skipped: [] };
}

export function parseRegistry(data: unknown): Omit<Registry, 'source'> {
  const index = RegistryIndex.parse(data);
  const agents: RegistryAgent[] = [];
  const skipped: string[] = [];
  index.agents.forEach((raw, i) => {
    const parsed = RegistryAgent.safeParse(raw);
    if (parsed.success) agents.push(parsed.data);
    else skipped.push(`agents[${i}]${raw && typeof raw === 'object' && 'id' in raw ? ` (${String(raw.id)})` : ''}: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
  });
  return { agents, skipped };
}

/** Fetches the published index, checks it, and saves it as the one to use. */
export async function refreshRegistry(env: NodeJS.ProcessEnv = process.env, url = env.BOARDBRIDGE_REGISTRY_URL || REGISTRY_URL): Promise<Registry> {
  let data: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(20_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    data = await response.json();
  } catch (error) {
    throw new Error(`could not fetch the ACP Registry from ${url}: ${(error as Error).message}; the copy in use stays (${loadRegistry(env).source})`);
  }
  const parsed = parseRegistry(data);
  const file = refreshedIndex(env);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(data));
  renameSync(`${file}.tmp`, file);
  return { ...parsed, source: file };
}

/** The registry's platform key for this machine (linux-x86_64, darwin-aarch64, …). */
export function platformKey(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  const os = platform === 'win32' ? 'windows' : platform;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : arch;
  return `${os}-${cpu}`;
}
