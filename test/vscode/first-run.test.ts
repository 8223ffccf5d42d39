// The first run of the .vsix in code-server (a real VS Code extension host, installed once by
// test/setup/code-server.sh): a fresh profile whose chosen agent (Gemini CLI, no key) is not
// ready opens the boardbridge view and gets the panel with the choices, not a text block; it
// picks the real claude-code-acp (offline, against the scripted model server), the next prompt is
// answered, and the pick is remembered in boardbridge.agent. Screenshots of each state.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { repoRoot, tempSketch } from '../e2e/run-cli.js';
import { screenshot } from '../panel/browser.js';
import { until } from '../support/until.js';
import { codeServerFailed, openCodeServer, skipCodeServer, WAIT, type CodeServerHost } from './code-server-host.js';

describe.skipIf(skipCodeServer)(`the first run of the .vsix in code-server${codeServerFailed ? ` (skipped: ${codeServerFailed.split('\n')[0]})` : ''}`, () => {
  let model: ModelServer;
  let host: CodeServerHost;

  beforeAll(async () => {
    const { root, sketch } = tempSketch();
    model = await startModelServer({ turns: [{ whenUserSays: 'which pin', replies: [{ say: 'Pin 13 drives the built-in LED on the Uno.' }] }] });
    const launch = agentLaunch('claude-code-acp', model.url, root);
    // A fresh profile: the agent named is Gemini CLI, which has no key here, and no boardbridge.command.
    // The extension's bridge is its own process: it leaves 5 s after code-server has gone.
    host = await openCodeServer(root, sketch, { 'boardbridge.agent': 'gemini', 'boardbridge.idleExitSeconds': 120 }, { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') });
  }, 300_000);

  afterAll(async () => {
    await host?.close();
    await model?.close();
  });

  it('opens the view on the panel with the agents to choose from when none is ready', async () => {
    const { page } = host;
    await page.locator('.activitybar [aria-label^="boardbridge"]').first().click(WAIT);
    const frame = await until('the panel in the boardbridge webview', () => host.panel(), { timeoutMs: 180_000, stepMs: 100, detail: () => `frames: ${page.frames().map((f) => f.url()).join('\n')}\ncode-server:\n${host.log().slice(-3000)}` });
    await frame.waitForSelector('body[data-agent="unavailable"]', WAIT);
    expect(await frame.textContent('#agent-reason')).toMatch(/Gemini/i);
    expect(await frame.locator('#agent-choices li[data-agent="claude"]').count()).toBe(1);
    await screenshot(host.page, 'code-server-first-run-no-agent');
  }, 240_000);

  it('starts the picked agent from the panel, answers the next prompt and remembers the pick', async () => {
    const frame = host.panel()!;
    await frame.click('#agent-choices li[data-agent="claude"] button.start');
    await frame.waitForSelector('body[data-agent="ready"]', WAIT);
    // The claude-code-acp on the profile's PATH (the one of the checkout), not one npx fetched.
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', '@zed-industries', 'claude-code-acp', 'package.json'), 'utf8')) as { version: string };
    expect(await frame.textContent('#agent')).toBe(`claude-code-acp ${version}`);
    await frame.fill('#prompt', 'which pin drives the LED?');
    await frame.press('#prompt', 'Enter');
    await frame.waitForSelector('#log .msg.agent:has-text("Pin 13 drives the built-in LED on the Uno.")', WAIT);
    await screenshot(host.page, 'code-server-first-run-answered');
    let settings = '';
    for (let i = 0; i < 100 && !settings.includes('"boardbridge.agent": "claude"') && !settings.includes('"boardbridge.agent":"claude"'); i++) {
      settings = readFileSync(path.join(host.userData, 'User', 'settings.json'), 'utf8');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(JSON.parse(settings)['boardbridge.agent']).toBe('claude');
  }, 240_000);
});
