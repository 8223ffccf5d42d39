// The extension's first run where no agent is ready, against a stand-in for the VS Code
// API (the real IDE cannot run here; the code-server run belongs with the install issue).
// Behind the stand-in everything is real: `boardbridge serve` started from a one-line
// boardbridge.command, the agent set in boardbridge.agent (the real Gemini CLI) refusing to start without
// credentials in an empty HOME, the real claude-code-acp offline against the scripted model
// server, and the webview in headless Chromium at the width of a side view.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_AGENTS } from '../../bridge/agents/profiles.js';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { cliMain, repoRoot, tempSketch } from '../e2e/run-cli.js';
import { alive } from '../support/process-alive.js';
import { launchChromium, screenshot } from './browser.js';
import { agentChildren } from './serve-process.js';
import { standInVscode, StandInWebview, type StandInVscode } from './vscode-stand-in.js';
import { until as untilDone } from '../support/until.js';

// The view, the panel and the bridge behind it start in an extension host beside the rest of the suite.
const until = <T>(what: string, check: () => T | undefined | false) => untilDone(what, check, { timeoutMs: 90_000, stepMs: 50 });

interface ExtensionUnderTest {
  start(): Promise<void>;
  stopBridge(): Promise<void>;
  bridge?: { pid?: number };
}

const load = createRequire(import.meta.url);
const { BoardbridgeExtension } = load(path.join(repoRoot, 'ide-plugins', 'arduino-extension', 'src', 'boardbridge-extension.js')) as {
  BoardbridgeExtension: new (vscode: unknown, context: unknown, env: NodeJS.ProcessEnv) => ExtensionUnderTest;
};

const WAIT = { timeout: 90_000 };
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let model: ModelServer;
let browser: Browser;
let page: Page;
let webview: StandInWebview;
let vscode: StandInVscode;
let extension: ExtensionUnderTest;
let config: Record<string, unknown>;
let sketch: string;
let logDir: string;

const panelFrame = () => until('the panel frame', () => page.frames().find((f: Frame) => f.url().includes('127.0.0.1')));

async function restart(): Promise<void> {
  await vscode.commands.get('boardbridge.restart')!();
}

beforeAll(async () => {
  const temp = tempSketch();
  sketch = temp.sketch;
  logDir = path.join(temp.root, 'extension-logs');
  model = await startModelServer({ turns: [{ whenUserSays: 'which pin', replies: [{ say: 'Pin 13 drives the built-in LED on the Uno.' }] }] });
  const env = agentLaunch('claude-code-acp', model.url, temp.root).env;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  webview = new StandInWebview(page);
  await webview.listen();
  // The command as people type it: one line, the paths quoted.
  // boardbridge.agent names Gemini, whose credentials are not in this HOME.
  config = { command: `${quote(process.execPath)} ${quote(cliMain)}`, agent: 'gemini', embedFrom: [webview.origin], idleExitSeconds: 30 };
  vscode = standInVscode({ folder: sketch, config });
  const context = { subscriptions: [] as unknown[], logUri: { fsPath: logDir } };
  extension = new BoardbridgeExtension(vscode.api, context, { ...env, BOARDBRIDGE_STATE_DIR: path.join(temp.root, 'state') });
  await extension.start();
  vscode.viewProvider()!.resolveWebviewView(webview.view());
});

afterAll(async () => {
  const pid = extension?.bridge?.pid;
  await extension?.stopBridge();
  if (pid && alive(pid)) process.kill(pid, 'SIGTERM');
  await browser?.close();
  await webview?.close();
  await model?.close();
});

describe('the extension when no agent is ready (stand-in VS Code API)', () => {
  it('shows the panel, not a text block: the reason, wrapped to the view, and the agents to start (stand-in)', async () => {
    const frame = await panelFrame();
    await frame.waitForSelector('body[data-agent="unavailable"]', WAIT);
    expect(await frame.textContent('#agent-reason')).toContain('Gemini CLI needs authentication');
    const reason = await frame.locator('#agent-reason').evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    expect(reason.scroll).toBeLessThanOrEqual(reason.client);
    expect(await frame.locator('#agent-choices li').count()).toBe(KNOWN_AGENTS.length);
    expect(agentChildren(extension.bridge!.pid!)).toBe(0);
    await screenshot(page, 'extension-first-run-no-agent');
  });

  it("runs an agent's login command in the IDE's integrated terminal (stand-in)", async () => {
    const frame = await panelFrame();
    await frame.click('#agent-choices li[data-agent="claude"] [data-action="login"] button');
    const terminal = await until('a terminal', () => vscode.terminals[0]);
    expect(terminal).toMatchObject({ shown: true, cwd: sketch });
    // The login the installed adapter really offers (Zed's claude-code-acp: its SDK's Claude Code CLI).
    expect(terminal.sent).toEqual([expect.stringMatching(/^node \S+@anthropic-ai\/claude-agent-sdk\/cli\.js \/login$/)]);
  });

  it('starts the agent picked on the panel in the same bridge, answers the next prompt and remembers it in boardbridge.agent (stand-in)', async () => {
    const pid = extension.bridge!.pid;
    const frame = await panelFrame();
    await frame.click('#agent-choices li[data-agent="claude"] button.start');
    await frame.waitForSelector('body[data-agent="ready"]', WAIT);
    await frame.fill('#prompt', 'which pin drives the LED?');
    await frame.press('#prompt', 'Enter');
    await frame.waitForSelector('#log .msg.agent:has-text("Pin 13 drives the built-in LED on the Uno.")', WAIT);
    await screenshot(page, 'extension-first-run-answered');
    expect(extension.bridge!.pid).toBe(pid);
    await until('boardbridge.agent to be set', () => vscode.configUpdates.some(([key, value, target]) => key === 'agent' && value === 'claude' && target === 1));
    expect(config.agent).toBe('claude');
  });

  it('shows a bridge that does not start as a wrapped message naming boardbridge.command, with Show log and Restart (stand-in)', async () => {
    config.command = 'no-such-boardbridge --here';
    await restart();
    await page.waitForSelector('body[data-state="bridge-failed"]', WAIT);
    expect(await page.textContent('#failure')).toBe('"no-such-boardbridge" could not be started (spawn no-such-boardbridge ENOENT)');
    expect(await page.textContent('#setting')).toBe('Check the setting boardbridge.command (now ["no-such-boardbridge","--here"]).');
    const failure = await page.locator('#failure').evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    expect(failure.scroll).toBeLessThanOrEqual(failure.client);
    await screenshot(page, 'extension-bridge-failed');
    await page.click('#show-log');
    const shown = await until('the log in an editor', () => vscode.shown.at(-1));
    expect(shown.document.uri.fsPath.startsWith(logDir)).toBe(true);
  });

  it('starts again from the Restart button once the setting is fixed, with the agent picked before (stand-in)', async () => {
    config.command = [process.execPath, cliMain];
    await page.click('#restart');
    const frame = await panelFrame();
    await frame.waitForSelector('body[data-agent="ready"]', WAIT);
    expect(await frame.textContent('#agent')).toMatch(/claude/i);
    expect(readFileSync(`/proc/${extension.bridge!.pid}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining(['--agent', 'claude', '--no-remember-agent']));
  });

  it('shows a bridge that stops while its panel is shown, with what it said and Restart (stand-in)', async () => {
    process.kill(extension.bridge!.pid!, 'SIGTERM');
    await page.waitForSelector('body[data-state="bridge-failed"]', WAIT);
    expect(await page.textContent('#failure')).toBe('boardbridge serve stopped.');
    expect(await page.textContent('#said')).toContain('boardbridge panel for');
    await page.click('#restart');
    const frame = await panelFrame();
    await frame.waitForSelector('body[data-agent="ready"]', WAIT);
  });

  it('does not blame boardbridge.command when boardbridge itself refuses to start (stand-in)', async () => {
    config.embedFrom = ['x; script-src *'];
    await restart();
    await page.waitForSelector('body[data-state="bridge-failed"]', WAIT);
    expect(await page.textContent('#failure')).toBe('boardbridge serve stopped (exit 2) before the panel was ready');
    expect(await page.textContent('#said')).toContain('boardbridge: --embed-from takes CSP sources');
    expect(await page.textContent('body')).not.toContain('boardbridge.command');
    config.embedFrom = [webview.origin];
  });

  it('refuses a boardbridge.command that is neither a list nor a line, naming the setting (stand-in)', async () => {
    config.command = 42;
    await restart();
    await page.waitForSelector('body[data-state="bridge-failed"]', WAIT);
    expect(await page.textContent('#failure')).toContain('The setting boardbridge.command must be the command that runs boardbridge, as a list such as ["npx", "boardbridge"] or one line such as "npx boardbridge"');
    expect(vscode.errors.at(-1)).toContain('boardbridge.command');
  });
});
