// Agents from the ACP Registry: the shipped index works offline, `agents --refresh`
// saves a newer one, and a binary-distributed agent is downloaded (here from a local
// HTTP server: the stand-in agent packed as a tar.gz), checked against its sha256,
// unpacked into the cache and run.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { platformKey, loadRegistry } from '../../bridge/agents/registry/registry.js';
import { registryLaunch } from '../../bridge/agents/registry/registry-launch.js';
import { resolveAgent } from '../../bridge/agents/resolve.js';
import { node22Binary, TEST_AGENTS_BIN } from '../support/agents.js';
import { ofType, repoRoot, runCli, tempSketch } from './run-cli.js';

const PATH = (process.env.PATH ?? '').split(':').filter((d) => !d.includes('node_modules')).join(':');
let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** A local "CDN": the index at /registry.json and the stand-in agent as /standin-<platform>.tar.gz. */
async function serveRegistry(options: { badChecksum?: boolean } = {}) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bb-registry-'));
  mkdirSync(path.join(work, 'pack', 'bin'), { recursive: true });
  const script = path.join(work, 'pack', 'bin', 'standin');
  writeFileSync(script, `#!/bin/sh\nexec '${process.execPath}' '${path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')}' "$@"\n`);
  chmodSync(script, 0o755);
  const archive = path.join(work, 'standin.tar.gz');
  execFileSync('tar', ['-czf', archive, '-C', path.join(work, 'pack'), 'bin']);
  const bytes = readFileSync(archive);
  const sha256 = options.badChecksum ? '0'.repeat(64) : createHash('sha256').update(bytes).digest('hex');
  const hits: string[] = [];
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/registry.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(index));
    if (req.url === `/standin-${platformKey()}.tar.gz`) return void res.writeHead(200).end(bytes);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const index = {
    version: '1.0.0',
    agents: [
      {
        id: 'standin-bin',
        name: 'Stand-in (binary)',
        version: '1.2.3',
        description: 'the stand-in agent as a download',
        distribution: { binary: { [platformKey()]: { archive: `${base}/standin-${platformKey()}.tar.gz`, cmd: './bin/standin', sha256 } } },
      },
      { id: 'Not Valid', name: 'x', version: '1', description: 'bad id', distribution: {} },
    ],
    extensions: [],
  };
  const home = path.join(work, 'home');
  mkdirSync(home);
  const env = { PATH, HOME: home, XDG_CACHE_HOME: path.join(work, 'cache'), BOARDBRIDGE_REGISTRY_URL: `${base}/registry.json` };
  return { env, hits, cache: path.join(work, 'cache', 'boardbridge') };
}

describe('ACP Registry agents', { timeout: 120_000 }, () => {
  it('ships a copy of the index that resolves offline: npx entries, and ones boardbridge knows run locally', async () => {
    const registry = loadRegistry({ PATH, HOME: mkdtempSync(path.join(os.tmpdir(), 'bb-home-')) });
    expect(registry.source).toBe(path.join(repoRoot, 'bridge', 'agents', 'registry', 'registry-index.json'));
    expect(registry.skipped).toEqual([]);
    const auggie = registry.agents.find((a) => a.id === 'auggie')!;
    expect(registryLaunch(auggie, { PATH })).toMatchObject({ command: 'npx', args: ['-y', auggie.distribution.npx!.package, '--acp'], env: { AUGMENT_DISABLE_AUTO_UPDATE: '1' }, via: 'registry' });
    const node22 = node22Binary();
    if (node22) {
      // qwen-code's package is the one the qwen profile runs: the installed one (on PATH), under Node 22.
      const qwen = await resolveAgent({ agent: 'qwen-code', env: { PATH: `${PATH}:${TEST_AGENTS_BIN}`, HOME: os.tmpdir(), BOARDBRIDGE_NODE: node22 } });
      expect(qwen).toMatchObject({ id: 'qwen-code', command: node22, via: 'path' });
    }
  });

  it('says what a registry agent needs when this machine cannot run it (uvx without uv, no build for this platform)', () => {
    const uvxOnly = { id: 'py-agent', name: 'Py Agent', version: '1.0.0', description: '', distribution: { uvx: { package: 'py-agent' } } };
    expect(() => registryLaunch(uvxOnly, { PATH: '/nonexistent' })).toThrow(/comes as uvx \(install uv/);
    const otherOs = { ...uvxOnly, distribution: { binary: { 'plan9-mips': { archive: 'https://example.invalid/a.zip', cmd: './a' } } } };
    expect(() => registryLaunch(otherOs, { PATH: '/nonexistent' })).toThrow(`this machine is ${platformKey()}`);
  });

  it('agents --refresh saves the published index (skipping entries that break the format); a failed refresh keeps the copy', async () => {
    const { env, cache } = await serveRegistry();
    const refreshed = await runCli(['agents', '--refresh'], { env });
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stderr).toContain(`ACP Registry: 1 agents saved to ${path.join(cache, 'registry.json')}; skipped agents[1] (Not Valid): id`);
    expect(refreshed.stdout).toContain('From the ACP Registry (--agent <id>;');
    expect(refreshed.stdout).toMatch(/: standin-bin\n/);
    const failed = await runCli(['agents', '--refresh'], { env: { ...env, BOARDBRIDGE_REGISTRY_URL: 'http://127.0.0.1:9/registry.json' } });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('could not fetch the ACP Registry from http://127.0.0.1:9/registry.json');
    expect(failed.stderr).toContain(`the copy in use stays (${path.join(cache, 'registry.json')})`);
  });

  it('downloads a binary agent once, checks its sha256, unpacks it into the cache and runs it with --agent <id>', async () => {
    const { env, hits, cache } = await serveRegistry();
    expect((await runCli(['agents', '--refresh'], { env })).code).toBe(0);
    const { sketch } = tempSketch();
    const first = await runCli(['run', 'hello', '--json', '--agent', 'standin-bin', '--workspace', sketch], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('Downloading Stand-in (binary) (ACP Registry)');
    expect(ofType(first.events, 'message_chunk').map((e) => e.text).join('')).toContain('stopping with end_turn');
    expect(existsSync(path.join(cache, 'agents', 'standin-bin', '1.2.3', 'bin', 'standin'))).toBe(true);
    const second = await runCli(['run', 'hello', '--json', '--agent', 'standin-bin', '--workspace', sketch], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(hits.filter((h) => h.endsWith('.tar.gz'))).toHaveLength(1);
  });

  it('refuses an archive whose sha256 differs from the registry, installing nothing', async () => {
    const { env, cache } = await serveRegistry({ badChecksum: true });
    expect((await runCli(['agents', '--refresh'], { env })).code).toBe(0);
    const { sketch } = tempSketch();
    const r = await runCli(['run', 'hello', '--agent', 'standin-bin', '--workspace', sketch], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("does not match the registry's sha256");
    expect(existsSync(path.join(cache, 'agents', 'standin-bin', '1.2.3'))).toBe(false);
  });
});
