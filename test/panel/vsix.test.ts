// The .vsix as a person installs it: built by build-vsix.mjs, unzipped, and its bundled
// extension (dist/extension.cjs) activated with only its own files, against the stand-in
// VS Code API (a real extension host is test/vscode/). No `boardbridge` is on PATH: the
// extension must find the bridge it carries and run it on the host's executable.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../../bridge/agents/resolve.js';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { alive } from '../support/process-alive.js';
import { openBoardEnd } from '../rig/board-end.js';
import { ptyPair, stop } from '../rig/pty-pair.js';
import { repoRoot, tempSketch } from '../e2e/run-cli.js';
import { launchChromium } from './browser.js';
import { claudeCommand } from './serve-process.js';
import { standInVscode } from './vscode-stand-in.js';

/** What the .vsix may weigh (measured 6.7 MB on 2026-12-01, 1008 files: Monaco's min/vs is 13 MB unpacked of it). */
const BUDGET_BYTES = 8_000_000;
const WAIT = { timeout: 45_000 };

const root = mkdtempSync(path.join(os.tmpdir(), 'bb-vsix-'));
const vsix = path.join(root, 'boardbridge-arduino.vsix');
const unpacked = path.join(root, 'unpacked', 'extension');
const bundledCli = path.join(unpacked, 'bridge', 'dist', 'cli', 'boardbridge.cjs');
const savedEnv = { ...process.env };
let model: ModelServer;
let browser: Browser;
let extension: { activate(context: unknown): Promise<void>; deactivate(): Promise<void> };
let memento: Map<string, unknown>;
let sketch: string;
let vscode: ReturnType<typeof standInVscode>;

const bridgeState = () => memento.get('boardbridge.bridge') as { pid: number; url: string; logFile: string } | undefined;

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(repoRoot, 'ide-plugins', 'arduino-extension', 'build-vsix.mjs'), '--out', vsix], { stdio: 'pipe' });
  execFileSync('unzip', ['-q', vsix, '-d', path.join(root, 'unpacked')]);
  const temp = tempSketch();
  sketch = temp.sketch;
  model = await startModelServer({ turns: [{ replies: [{ say: 'The bundled bridge answers.' }] }] });
  const launch = agentLaunch('claude-code-acp', model.url, temp.root);
  // The extension host's environment: the agent's HOME and keys, and a PATH without node_modules
  // (nothing of the test runner's: NODE_ENV=test makes Claude Code fail session/new).
  const PATH = (launch.env.PATH ?? '').split(':').filter((d) => d && !d.includes('node_modules')).join(':');
  process.env = { ...launch.env, PATH, BOARDBRIDGE_STATE_DIR: path.join(temp.root, 'state') };

  // The extension host answers require('vscode') with its API: so does this one, with the stand-in.
  vscode = standInVscode({ folder: sketch, config: { agentCommand: claudeCommand(launch), idleExitSeconds: 60 } });
  const Module = createRequire(import.meta.url)('node:module') as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = Module._load;
  Module._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode.api : load.call(this, request, ...rest);
  };
  extension = createRequire(import.meta.url)(path.join(unpacked, 'dist', 'extension.cjs'));
  memento = new Map();
  // The browser first, and a minute's idle exit: the bridge stops once no page has connected for
  // idleExitSeconds, and Chromium's start and Monaco's load on a loaded machine take seconds
  // (with 2 s the bridge had gone before the page's socket connected).
  browser = await launchChromium();
  await extension.activate({
    subscriptions: [],
    extensionPath: unpacked,
    workspaceState: { get: (key: string) => memento.get(key), update: async (key: string, value: unknown) => void memento.set(key, value) },
    logUri: { fsPath: path.join(root, 'logs') },
  });
}, 300_000);

afterAll(async () => {
  const pid = bridgeState()?.pid;
  await extension?.deactivate();
  if (pid && alive(pid)) process.kill(pid, 'SIGTERM');
  await browser?.close();
  await model?.close();
  process.env = savedEnv;
  rmSync(root, { recursive: true, force: true });
});

describe('the self-contained .vsix', () => {
  it('is within its size budget and carries serialport prebuilds for linux x64/arm64, macOS x64/arm64 and Windows x64 only', () => {
    expect(statSync(vsix).size).toBeLessThan(BUDGET_BYTES);
    const prebuilds = path.join(unpacked, 'bridge', 'node_modules', '@serialport', 'bindings-cpp', 'prebuilds');
    expect(readdirSync(prebuilds).sort()).toEqual(['darwin-x64+arm64', 'linux-arm64', 'linux-x64', 'win32-x64']);
    expect(existsSync(path.join(unpacked, 'bridge', 'node_modules', 'monaco-editor', 'min', 'vs', 'loader.js'))).toBe(true);
    // The panel's markdown renderer, served under /markdown-it/.
    expect(existsSync(path.join(unpacked, 'bridge', 'node_modules', 'markdown-it', 'dist', 'markdown-it.min.js'))).toBe(true);
    expect(existsSync(path.join(unpacked, 'bridge', 'ide-plugins', 'panel', 'index.html'))).toBe(true);
  });

  it('starts its bundled bridge on the host executable with ELECTRON_RUN_AS_NODE=1, with no boardbridge on PATH (stand-in VS Code API)', () => {
    expect(findOnPath('boardbridge')).toBeUndefined();
    expect(vscode.errors).toEqual([]);
    const state = bridgeState();
    expect(state?.url, state?.logFile && readFileSync(state.logFile, 'utf8')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const argv = readFileSync(`/proc/${state!.pid}/cmdline`, 'utf8').split('\0');
    expect(argv.slice(0, 4)).toEqual([process.execPath, bundledCli, 'serve', sketch]);
    expect(readFileSync(`/proc/${state!.pid}/environ`, 'utf8').split('\0')).toContain('ELECTRON_RUN_AS_NODE=1');
  });

  it('serves the panel from its own files, and a prompt there reaches the real claude-code-acp and its answer shows (stand-in VS Code API)', async () => {
    const page = await browser.newPage();
    await page.goto(bridgeState()!.url);
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    for (const file of ['vs/loader.js', 'vs/editor/editor.main.js', 'uplot/uPlot.iife.min.js', 'wokwi/wokwi-elements.bundle.min.js', 'circuit.js']) expect((await page.request.get(bridgeState()!.url + file)).status(), file).toBe(200);
    await page.fill('#prompt', 'does the bundle work?');
    await page.press('#prompt', 'Enter');
    await page.waitForSelector('#log .msg.agent:has-text("The bundled bridge answers.")', WAIT);
    await page.close();
  });

  it('its bundled CLI lists the ACP Registry’s agents from the index the .vsix carries, with no cache and no network', () => {
    const cache = mkdtempSync(path.join(root, 'cache-'));
    const out = execFileSync(process.execPath, [bundledCli, 'agents'], {
      // No proxy and an empty cache folder: the list can come only from the shipped index.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', BOARDBRIDGE_CACHE_DIR: cache, HTTPS_PROXY: '', https_proxy: '' },
      encoding: 'utf8',
    });
    const line = out.split('\n').find((l) => l.startsWith('From the ACP Registry'));
    expect(line, out).toContain(path.join(unpacked, 'bridge', 'bridge', 'agents', 'registry', 'registry-index.json'));
    expect(line).toMatch(/: .*\bauggie\b.*\bopencode\b/);
  });

  it('its bundled CLI reads a serial port through the native binding it carries (socat pty)', async () => {
    const pair = await ptyPair();
    const board = await openBoardEnd(pair.board);
    const ticking = setInterval(() => void board.write('hello from the board\n'), 200);
    try {
      const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
        const child = spawn(process.execPath, [bundledCli, 'monitor', '--port', pair.device, '--baud', '115200', '--until', 'hello from', '--for', '30s'], {
          env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let text = '';
        child.stdout.setEncoding('utf8').on('data', (t: string) => (text += t));
        child.stderr.setEncoding('utf8').on('data', (t: string) => (text += t));
        child.on('close', (code) => resolve({ code, text }));
      });
      expect(output.code, output.text).toBe(0);
      expect(output.text).toContain('hello from the board');
    } finally {
      clearInterval(ticking);
      await board.close();
      await stop(pair.socat);
    }
  });
});
