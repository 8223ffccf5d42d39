// The first run of `boardbridge serve` on a machine where no agent is ready, in real
// headless Chromium: HOME is an empty temporary folder (only Claude Code's onboarding
// marked done, as test/support/agents.ts sets it up), so the agent asked for, the real
// Gemini CLI from node_modules, finds no credentials and refuses to start a session. The
// bridge stays up, the panel says why and lists the agents; the person tries again, then
// picks Claude, which runs the real claude-code-acp offline against the scripted model
// server with a fake key, and the next prompt is answered.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { KNOWN_AGENTS } from '../../bridge/agents/profiles.js';
import { agentLaunch } from '../support/agents.js';
import { until } from '../support/until.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { tempSketch } from '../e2e/run-cli.js';
import { launchChromium, screenshot } from './browser.js';
import { startServe, type ServeProcess } from './serve-process.js';

const WAIT = { timeout: 90_000 };

let model: ModelServer;
let served: ServeProcess;
let browser: Browser;
let page: Page;
let home: string;

beforeAll(async () => {
  const { root, sketch } = tempSketch();
  model = await startModelServer({ turns: [{ whenUserSays: 'which pin', replies: [{ say: 'Pin 13 drives the built-in LED on the Uno.' }] }] });
  // Claude's key and model address are in the environment; Gemini's key is not.
  const env = agentLaunch('claude-code-acp', model.url, root).env;
  home = env.HOME;
  // Named, so the case stays the same whichever agent boardbridge picks by default.
  served = await startServe([sketch, '--agent', 'gemini'], { ...env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), CI: 'true' }, () => model.close());
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

describe('boardbridge serve when no agent is ready', () => {
  it('stays up and says in the terminal why the agent did not start', async () => {
    await until("serve's list of the agents it knows", () => served.output().includes('The panel lists'), { timeoutMs: 90_000 });
    expect(served.output()).toContain('boardbridge: Gemini CLI needs authentication');
    expect(served.output()).toContain('The panel lists the agents boardbridge knows');
    expect(served.agentProcesses()).toBe(0);
  });

  it('shows the reason, wrapped, and every known agent with its login command and a Start button', async () => {
    await page.goto(served.url);
    await page.waitForSelector('body[data-agent="unavailable"]', WAIT);
    expect(await page.textContent('#agent-reason')).toContain('Gemini CLI needs authentication: Gemini API key is missing or not configured.');
    // Gemini's only way in is a key: the hint says so beside the key, and offers no "login" that is an export.
    expect(await page.textContent('#agent-hint')).toBe('set GEMINI_API_KEY (e.g. export GEMINI_API_KEY=...): a paid Gemini API key; Google-account logins ended on 2026-06-18');
    expect(await page.locator('#agent-choices li').evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset.agent))).toEqual(KNOWN_AGENTS.map((p) => p.id));
    // The login the installed adapter really offers (Zed's claude-code-acp: its SDK's Claude Code CLI).
    expect(await page.textContent('#agent-choices li[data-agent="claude"] [data-action="login"] code')).toMatch(/^node \S+@anthropic-ai\/claude-agent-sdk\/cli\.js \/login$/);
    expect(await page.textContent('#agent-choices li[data-agent="claude"]')).toContain('ANTHROPIC_API_KEY is set');
    // The reason wraps inside the panel instead of running off its edge.
    const box = await page.locator('#agent-reason').evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    await screenshot(page, 'first-run-no-agent');
  });

  it('answers a prompt sent while no agent runs with what to do instead', async () => {
    await page.fill('#prompt', 'hello?');
    await page.press('#prompt', 'Enter');
    await page.waitForSelector('#problem:not([hidden])', WAIT);
    expect(await page.textContent('#problem')).toBe('no agent is running — start one of the agents listed above');
  });

  it('tries the same agent again from the panel, without restarting the bridge', async () => {
    await page.click('#agent-retry');
    await page.waitForSelector('body[data-agent="starting"]', WAIT);
    expect(await page.isDisabled('#agent-choices li[data-agent="claude"] button.start')).toBe(true);
    await screenshot(page, 'first-run-starting');
    await page.waitForSelector('body[data-agent="unavailable"]', WAIT);
    expect(await page.textContent('#agent-reason')).toContain('Gemini CLI needs authentication');
    // serve's terminal and the page learn of the failure by different ways: wait for the second line itself.
    await until("serve's line about the second failure", () => (served.output().match(/Gemini CLI needs authentication/g)?.length ?? 0) >= 2);
    expect(served.output().match(/Gemini CLI needs authentication/g)?.length).toBe(2);
  });

  it('starts the agent the person picks, answers the next prompt, and remembers the choice in the config file', async () => {
    await page.click('#agent-choices li[data-agent="claude"] button.start');
    await page.waitForSelector('body[data-agent="ready"]', WAIT);
    expect(await page.isHidden('#agent-setup')).toBe(true);
    expect(await page.textContent('#agent')).toMatch(/claude/i);
    await page.fill('#prompt', 'which pin drives the LED?');
    await page.press('#prompt', 'Enter');
    await page.waitForSelector('#log .msg.agent:has-text("Pin 13 drives the built-in LED on the Uno.")', WAIT);
    await page.waitForSelector('#log .line.stop', WAIT);
    await screenshot(page, 'first-run-answered');
    expect(served.agentProcesses()).toBe(1);
    const config = path.join(home, '.config', 'boardbridge', 'config.json');
    expect(existsSync(config)).toBe(true);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ defaultAgent: 'claude' });
    expect(served.output()).toContain(`Remembered claude as defaultAgent in ${config}`);
  });

  it('shows a page that opens later the running session, not the choices', async () => {
    const late = await browser.newPage();
    await late.goto(served.url);
    await late.waitForSelector('body[data-ready="true"]', WAIT);
    expect(await late.getAttribute('body', 'data-agent')).toBe('ready');
    expect(await late.textContent('#log')).toContain('Pin 13 drives the built-in LED');
    await late.close();
  });
});

describe('boardbridge serve whose agent fails while the panel is open', () => {
  let slow: ServeProcess;
  afterAll(async () => slow?.stop());

  it('drops "starting …" from the header once the agent turns out not to start', async () => {
    const { root, sketch } = tempSketch();
    // An agent that takes a while to fail, so the page is there while it starts.
    slow = await startServe([sketch, '--agent-command', "sh -c 'sleep 4; echo no key here >&2; exit 3'"], { ...process.env, HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), CI: 'true' });
    const early = await browser.newPage();
    await early.goto(slow.url);
    await early.waitForSelector('body[data-agent="unavailable"]', WAIT);
    expect(await early.textContent('#agent-reason')).toContain('sh exited with code 3');
    expect(await early.textContent('#agent')).not.toMatch(/starting/);
    expect(await early.isHidden('#agent-starting')).toBe(true);
    await early.close();
  });
});
