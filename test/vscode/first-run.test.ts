// The first run of the .vsix in code-server (a real VS Code extension host, installed once by
// test/setup/code-server.sh): a fresh profile whose chosen agent (Gemini CLI, no key) is not
// ready opens the boardbridge view and gets the panel with the choices, not a text block; it
// picks the real claude-code-acp (offline, against the scripted model server), the next prompt is
// answered, and the pick is remembered in boardbridge.agent. Screenshots of each state.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { repoRoot, tempSketch } from '../e2e/run-cli.js';
import { launchChromium, screenshot } from '../panel/browser.js';

const cache = process.env.BOARDBRIDGE_CACHE ?? '/var/cache/boardbridge';
const codeServerDir = path.join(cache, 'code-server');
const codeServer = path.join(codeServerDir, 'bin', 'code-server');
const node24 = path.join(cache, 'node24', 'node_modules', `node-linux-${process.arch}`, 'bin');
const failedReason = existsSync(path.join(codeServerDir, 'failed')) ? readFileSync(path.join(codeServerDir, 'failed'), 'utf8').trim() : undefined;
const installed = existsSync(path.join(codeServerDir, 'installed')) && existsSync(codeServer);
const WAIT = { timeout: 120_000 };

describe.skipIf(!installed && failedReason !== undefined)(`the first run of the .vsix in code-server${failedReason ? ` (skipped: ${failedReason.split('\n')[0]})` : ''}`, () => {
  let model: ModelServer;
  let server: ChildProcess | undefined;
  let serverLog = '';
  let browser: Browser;
  let page: Page;
  let root: string;
  let userData: string;
  let port = 0;
  const panel = (): Frame | undefined => page.frames().find((f) => /^http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/$/.test(f.url()) && !f.url().includes(`:${port}/`));

  beforeAll(async () => {
    if (!installed) throw new Error(`code-server is not installed in ${codeServerDir}: run bash test/setup/code-server.sh (test/ci.sh does)`);
    const temp = tempSketch();
    root = temp.root;
    model = await startModelServer({ turns: [{ whenUserSays: 'which pin', replies: [{ say: 'Pin 13 drives the built-in LED on the Uno.' }] }] });
    const launch = agentLaunch('claude-code-acp', model.url, root);
    const vsix = path.join(root, 'boardbridge-arduino.vsix');
    execFileSync(process.execPath, [path.join(repoRoot, 'ide-plugins', 'arduino-extension', 'build-vsix.mjs'), '--out', vsix], { stdio: 'pipe' });
    userData = path.join(root, 'code-user');
    const extensions = path.join(root, 'code-extensions');
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
    port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    mkdirSync(path.join(userData, 'User'), { recursive: true });
    // A fresh profile: the agent named is Gemini CLI, which has no key here, and no boardbridge.command.
    writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({
      'boardbridge.agent': 'gemini',
      // The extension's bridge is its own process: it leaves 5 s after code-server has gone.
      'boardbridge.idleExitSeconds': 5,
      'boardbridge.embedFrom': [`http://127.0.0.1:${port}`],
      'workbench.startupEditor': 'none',
      'security.workspace.trust.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'update.mode': 'none',
    }));
    const env = {
      ...launch.env,
      PATH: [node24, ...(launch.env.PATH ?? '').split(':').filter((d) => d && !d.includes('node_modules'))].join(':'),
      BOARDBRIDGE_STATE_DIR: path.join(root, 'state'),
    };
    const common = ['--user-data-dir', userData, '--extensions-dir', extensions];
    execFileSync(codeServer, [...common, '--install-extension', vsix], { env, stdio: 'pipe' });
    server = spawn(codeServer, [...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', temp.sketch], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    server.stdout!.setEncoding('utf8').on('data', (t: string) => (serverLog += t));
    server.stderr!.setEncoding('utf8').on('data', (t: string) => (serverLog += t));
    for (let i = 0; i < 600 && !serverLog.includes('HTTP server listening'); i++) await new Promise((r) => setTimeout(r, 100));
    if (!serverLog.includes('HTTP server listening')) throw new Error(`code-server did not start:\n${serverLog}`);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(temp.sketch)}`);
    await page.waitForSelector('.monaco-workbench', WAIT);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    if (server?.pid) {
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // gone already
      }
    }
    await model?.close();
    // The extension's bridge and its agent may still be writing as they leave: a temp folder left behind is no failure.
    if (root) {
      try {
        rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch {
        // removed with the machine's /tmp
      }
    }
  });

  it('opens the view on the panel with the agents to choose from when none is ready', async () => {
    await page.locator('.activitybar [aria-label^="boardbridge"]').first().click(WAIT);
    for (let i = 0; i < 1200 && !panel(); i++) await new Promise((r) => setTimeout(r, 100));
    const frame = panel();
    expect(frame, `frames: ${page.frames().map((f) => f.url()).join('\n')}\ncode-server:\n${serverLog.slice(-3000)}`).toBeDefined();
    await frame!.waitForSelector('body[data-agent="unavailable"]', WAIT);
    expect(await frame!.textContent('#agent-reason')).toMatch(/Gemini/i);
    expect(await frame!.locator('#agent-choices li[data-agent="claude"]').count()).toBe(1);
    await screenshot(page, 'code-server-first-run-no-agent');
  }, 240_000);

  it('starts the picked agent from the panel, answers the next prompt and remembers the pick', async () => {
    const frame = panel()!;
    await frame.click('#agent-choices li[data-agent="claude"] button.start');
    await frame.waitForSelector('body[data-agent="ready"]', WAIT);
    await frame.fill('#prompt', 'which pin drives the LED?');
    await frame.press('#prompt', 'Enter');
    await frame.waitForSelector('#log .msg.agent:has-text("Pin 13 drives the built-in LED on the Uno.")', WAIT);
    await screenshot(page, 'code-server-first-run-answered');
    let settings = '';
    for (let i = 0; i < 100 && !settings.includes('"boardbridge.agent": "claude"') && !settings.includes('"boardbridge.agent":"claude"'); i++) {
      settings = readFileSync(path.join(userData, 'User', 'settings.json'), 'utf8');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(JSON.parse(settings)['boardbridge.agent']).toBe('claude');
  }, 240_000);
});
