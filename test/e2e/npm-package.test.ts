// The published package as a person gets it: `npm pack` from a copy of the sources with no
// dist/ (prepack builds it), `npm install -g` of the tarball into an empty prefix, and the
// installed `boardbridge` run from a folder outside the checkout, with a PATH that holds no
// node_modules, so nothing resolves from the repository.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeEvent } from '../../bridge/session/events.js';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { claudeCommand, startServe } from '../panel/serve-process.js';
import { repoRoot } from './run-cli.js';

/**
 * What the package may weigh: the tarball in bytes and its number of files. Measured 329 kB and
 * 111 files on 2026-12-01 with the bundled CLI (403 kB and 305 files with tsc's output before);
 * the bundle inlines the cited boards/data files it imports, which also ship as the context cites
 * them by line.
 */
// 700 kB: the CLI bundle's chunks, plus its shell dist/cli/shell.cjs (35 kB, a stored context's whole path in one file,
// so it repeats code the chunks have: that is its point), the circuit still's rasterizer, and dist/cli/context.cjs (705 kB,
// 188 kB packed, measured 2026-12-03: the context command as one script for V8's code cache, bridge/cli/code-cache.ts,
// with the yaml package inside; it too repeats the chunks' code, which the tarball then holds twice: 664 kB in all;
// since 2026-12-06 the yaml reader and the MPLAB X and OpenMV providers are scripts of their own beside it, context-*.cjs).
const BUDGET = { packedBytes: 700_000, files: 350 };
/** What a build needs from the checkout; everything else (tests, fixtures, docs) stays out of the copy. */
const SOURCES = ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'LICENSE', 'bridge', 'boards', 'context-providers', 'platform', 'bench', 'ide-plugins', 'scripts', 'test/support/fixtures.ts'];

interface Packed {
  filename: string;
  size: number;
  entryCount: number;
  files: Array<{ path: string }>;
}

const root = mkdtempSync(path.join(os.tmpdir(), 'bb-npm-package-'));
const prefix = path.join(root, 'prefix');
const outside = path.join(root, 'elsewhere');
const installed = path.join(prefix, 'bin', 'boardbridge');
// A person's shell: the prefix's bin, no node_modules/.bin (npx adds those for the test runner).
const PATH = [path.join(prefix, 'bin'), ...(process.env.PATH ?? '').split(':').filter((d) => d && !d.includes('node_modules'))].join(':');
const npmGet = (key: string) => execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
const npmCache = npmGet('cache');
// The machine's npm settings (its registry, cafile, proxy), as a person's own npm has them: with
// --prefix npm would read the global file from <prefix>/etc, and HOME here is an empty folder, so
// a package not in the cache (a release newer than the lock's) could not be fetched.
const npmConfig = ['globalconfig', 'userconfig'].flatMap((key) => {
  const file = npmGet(key);
  return existsSync(file) ? [`--${key}`, file] : [];
});
let packed: Packed;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--cache', npmCache, ...npmConfig, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    env: { PATH, HOME: path.join(root, 'home') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function boardbridge(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(installed, args, { cwd: outside, env: { PATH, HOME: path.join(root, 'home'), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (t: string) => (body += t));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

beforeAll(() => {
  const checkout = path.join(root, 'clone');
  mkdirSync(checkout);
  for (const name of SOURCES) cpSync(path.join(repoRoot, name), path.join(checkout, name), { recursive: true });
  // The dependencies `npm ci` put in the real checkout (tsc for prepack); no dist/ comes along.
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(checkout, 'node_modules'));
  mkdirSync(path.join(root, 'home'));
  mkdirSync(outside);
  cpSync(path.join(repoRoot, 'examples', 'Blink'), path.join(outside, 'Blink'), { recursive: true });
  [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', root], checkout)) as Packed[];
  npm(['install', '--global', '--prefix', prefix, '--prefer-offline', path.join(root, packed.filename)], outside);
}, 600_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the npm package', () => {
  it('holds only what runs (the build, board data, panel assets, README, LICENSE), within its size budget', () => {
    const files = packed.files.map((f) => f.path);
    // The CLI is one bundle with the chunks its commands load (scripts/bundle-cli.mjs); no tsc output.
    expect(files).toContain('dist/cli/boardbridge.cjs');
    expect(files.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/cli/'))).toEqual([]);
    expect(files).toContain('boards/data/openmv-boards.json');
    expect(files).toContain('boards/data/microchip-families.json');
    expect(files).toContain('ide-plugins/panel/index.html');
    expect(files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
    // boards/data/*.json are the cited data files (the copies tsc writes into dist/ are re-indented).
    expect(files).toContain('boards/data/esp32-chips.json');
    const cited = (f: string) => /^boards\/data\/[^/]+\.json$/.test(f) || f === 'bridge/agents/registry/registry-index.json';
    // The ACP Registry's agents ship, so `boardbridge agents` lists them offline.
    expect(files).toContain('bridge/agents/registry/registry-index.json');
    expect(files.filter((f) => (/^(test|bench|docs|examples|bridge|boards|context-providers)\//.test(f) && !cited(f)) || f.startsWith('dist/bench/') || f.endsWith('.ts') || f.endsWith('.map'))).toEqual([]);
    expect(packed.size).toBeLessThan(BUDGET.packedBytes);
    expect(packed.entryCount).toBeLessThan(BUDGET.files);
  });

  it('installs with runtime dependencies only: no test runner, agent or packaging tool comes along', () => {
    const modules = path.join(prefix, 'lib', 'node_modules', 'boardbridge', 'node_modules');
    expect(existsSync(path.join(modules, 'serialport'))).toBe(true);
    expect(existsSync(path.join(modules, 'monaco-editor', 'min', 'vs', 'loader.js'))).toBe(true);
    for (const dev of ['vitest', 'typescript', 'playwright-core', '@vscode/vsce', '@zed-industries/claude-code-acp', '@google/gemini-cli']) {
      expect(existsSync(path.join(modules, dev)), dev).toBe(false);
    }
  });

  it('the installed boardbridge prints its version', async () => {
    const r = await boardbridge(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe((JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version);
  });

  it('the installed boardbridge doctor says what is missing and how to get it', async () => {
    const r = await boardbridge(['doctor']);
    expect(r.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
    expect(r.stdout).toContain('Node.js');
    expect(r.stdout).toMatch(/Claude.*not installed \(npm install -g \S+\)/);
    expect(r.stdout).toMatch(/arduino-builder|arduino-cli/);
  });

  it('the installed boardbridge agents lists the ACP Registry’s agents from the index the package ships, offline', async () => {
    const r = await boardbridge(['agents']);
    expect(r.code, r.stderr).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('From the ACP Registry'));
    expect(line).toContain(path.join(prefix, 'lib', 'node_modules', 'boardbridge', 'bridge', 'agents', 'registry', 'registry-index.json'));
    expect(line).toMatch(/: .*\bauggie\b.*\bopencode\b/);
  });

  it('the installed boardbridge context reads the Uno from the installed platform files', async () => {
    const r = await boardbridge(['context', 'Blink', '--fqbn', 'arduino:avr:uno']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('MCU: atmega328p');
    expect(r.stdout).toMatch(/PWM \(analogWrite\): D3, D5, D6, D9–D11/);
  });

  describe('with the real claude-code-acp against the scripted model server', () => {
    let model: ModelServer;
    let launch: ReturnType<typeof agentLaunch>;
    beforeAll(async () => {
      model = await startModelServer({
        turns: [{ replies: [{ tool: { claude: { name: 'Write', input: { file_path: path.join(outside, 'Blink', 'Blink.ino'), content: 'void setup() {}\nvoid loop() {}\n' } } } }, { say: 'Emptied the sketch.' }] }],
      });
      launch = agentLaunch('claude-code-acp', model.url, path.join(root, 'agent'));
    });
    afterAll(async () => model?.close());

    it('the installed boardbridge run --json streams the answer and writes through the bridge', async () => {
      const env = { ...launch.env, PATH, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
      const r = await boardbridge(['run', 'Empty the sketch', '--json', '--workspace', path.join(outside, 'Blink'), '--allow', 'edits', '--agent-command', claudeCommand(launch)], env);
      expect(r.code, r.stderr).toBe(0);
      const events = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as BridgeEvent);
      const said = events.flatMap((e) => (e.type === 'message_chunk' && e.role === 'agent' ? [e.text] : [])).join('');
      expect(said).toContain('Emptied the sketch.');
      expect(events.some((e) => e.type === 'file_written')).toBe(true);
      expect(readFileSync(path.join(outside, 'Blink', 'Blink.ino'), 'utf8')).toBe('void setup() {}\nvoid loop() {}\n');
      expect(events.filter((e) => e.type === 'stop')).toEqual([{ type: 'stop', stopReason: 'end_turn' }]);
    });

    it('the installed boardbridge serve serves the panel page, its scripts and Monaco from the package', async () => {
      const served = await startServe([path.join(outside, 'Blink'), '--agent-command', claudeCommand(launch)], { ...launch.env, PATH, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') }, undefined, [installed]);
      try {
        for (const file of ['', 'panel.js', 'panel.css', 'vs/loader.js', 'vs/editor/editor.main.js']) {
          const r = await get(served.url + file);
          expect(r.status, `${file}: ${r.body.slice(0, 200)}`).toBe(200);
        }
      } finally {
        await served.stop();
      }
    });
  });
});
