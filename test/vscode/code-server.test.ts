// The .vsix in a real VS Code extension host: code-server (VS Code in the browser, from npm,
// installed once by test/setup/code-server.sh into a cache folder outside the clone), the
// extension installed by `code-server --install-extension`, and the workbench driven by
// playwright-core in Debian's Chromium. The board comes from sketch.yaml (vscode-arduino-api
// exists only inside the Arduino IDE); the agent is the real claude-code-acp, offline against
// the scripted model server. When the cached install failed, these tests are skipped and say
// why; when the set-up never ran, they fail and say how to run it.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { tempSketch } from '../e2e/run-cli.js';
import { screenshot } from '../panel/browser.js';
import { claudeCommand } from '../panel/serve-process.js';
import { until } from '../support/until.js';
import { codeServerFailed, openCodeServer, skipCodeServer, WAIT, type CodeServerHost } from './code-server-host.js';

const FADE = 'void setup() { pinMode(9, OUTPUT); }\nvoid loop() { analogWrite(9, 100); }\n';

describe.skipIf(skipCodeServer)(`the .vsix in code-server, a real VS Code extension host${codeServerFailed ? ` (skipped: ${codeServerFailed.split('\n')[0]})` : ''}`, () => {
  let model: ModelServer;
  let host: CodeServerHost;
  let ino: string;
  const panel = () => host.panel();

  beforeAll(async () => {
    const temp = tempSketch();
    ino = temp.ino;
    model = await startModelServer({
      turns: [
        { whenUserSays: 'which board', replies: [{ say: 'This sketch is for the Uno.' }] },
        { whenUserSays: 'fade', replies: [{ tool: { claude: { name: 'Write', input: { file_path: ino, content: FADE } } } }, { say: 'It fades now.' }] },
      ],
    });
    const launch = agentLaunch('claude-code-acp', model.url, temp.root);
    host = await openCodeServer(temp.root, temp.sketch, { 'boardbridge.agentCommand': claudeCommand(launch), 'boardbridge.idleExitSeconds': 120 }, { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(temp.root, 'state') });
  }, 300_000);

  afterAll(async () => {
    await host?.close();
    await model?.close();
  });

  it('installs the .vsix with code-server --install-extension and opens the boardbridge view for a sketch folder with sketch.yaml', async () => {
    await host.page.locator('.activitybar [aria-label^="boardbridge"]').first().click(WAIT);
    await host.page.waitForFunction(() => document.querySelector('.pane-header[aria-label*="Chat"]') !== null, undefined, WAIT);
    const frame = await until('the panel in the boardbridge webview', panel, { timeoutMs: 150_000, stepMs: 100, detail: () => `frames: ${host.page.frames().map((f) => f.url()).join('\n')}\ncode-server:\n${host.log().slice(-3000)}` });
    expect(frame.url(), 'the panel is served by the bridge on loopback').toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  }, 180_000);

  it('loads the panel inside the real webview, with the board from sketch.yaml', async () => {
    const frame = panel()!;
    await frame.waitForSelector('body[data-ready="true"]', WAIT);
    expect(await frame.textContent('#agent')).toMatch(/claude/i);
    await frame.click('#tabs button[data-tab="board"]');
    await frame.waitForSelector('#board-name:has-text("arduino:avr:uno")', WAIT);
    await screenshot(host.page, 'code-server-panel');
  }, 180_000);

  it('sends a prompt to the real claude-code-acp and shows its answer', async () => {
    const frame = panel()!;
    await frame.click('#tabs button[data-tab="chat"]').catch(() => undefined);
    await frame.fill('#prompt', 'which board is this?');
    await frame.press('#prompt', 'Enter');
    const answer = await frame.waitForSelector('#log .msg.agent:has-text("This sketch is for the Uno.")', WAIT);
    expect(await answer.textContent()).toContain('This sketch is for the Uno.');
  }, 180_000);

  it("applies the agent's write as an edit of the open document and opens it in VS Code's diff view", async () => {
    // Open Blink.ino in the editor first, as a person working on the sketch has it.
    await host.page.locator('.activitybar [aria-label^="Explorer"]').first().click(WAIT);
    await host.page.locator('.explorer-folders-view .monaco-list-row[aria-label^="Blink.ino"]').first().click(WAIT);
    await host.page.waitForSelector('.tabs-container .tab[aria-label^="Blink.ino"]', WAIT);
    await host.page.locator('.activitybar [aria-label^="boardbridge"]').first().click(WAIT);
    // The bridge's own write replaces the file (a new inode, by rename); VS Code's save of the edited document writes it in place.
    const inode = statSync(ino).ino;
    const frame = panel()!;
    await frame.fill('#prompt', 'make it fade');
    await frame.press('#prompt', 'Enter');
    const allow = frame.locator('#log .card.permission button[data-kind="allow_once"]');
    await allow.waitFor(WAIT);
    await allow.click();
    await frame.waitForSelector('#log .msg.agent:has-text("It fades now.")', WAIT);
    // The extension opens each agent write in the diff view: the original on the left, the edited document on the right.
    const diff = host.page.locator('.monaco-diff-editor').first();
    await diff.waitFor(WAIT).catch(async (error: unknown) => {
      await screenshot(host.page, 'code-server-no-diff');
      throw error;
    });
    // Monaco renders spaces as no-break spaces; a narrow window shows the diff inline (one view for both sides).
    const shown = async () => ((await diff.textContent()) ?? '').replace(/\u00a0/g, ' ');
    await until('the diff view to show the edit', async () => (await shown()).includes('analogWrite(9, 100)'), { timeoutMs: 60_000, stepMs: 100, detail: () => `on disk: ${readFileSync(ino, 'utf8')}` });
    expect(await shown(), `on disk: ${readFileSync(ino, 'utf8')}`).toContain('analogWrite(9, 100)');
    expect(await shown()).toContain('Serial.println("Blink ready");');
    await host.page.waitForSelector('.tabs-container .tab[aria-label*="before the agent"]', WAIT);
    // Saved at once, as the extension does after its edit.
    await until('the edited document to be saved', () => readFileSync(ino, 'utf8') === FADE, { timeoutMs: 60_000, stepMs: 100 });
    expect(readFileSync(ino, 'utf8')).toBe(FADE);
    expect(statSync(ino).ino, 'the file was replaced on disk, not saved from the edited document').toBe(inode);
    await screenshot(host.page, 'code-server-diff');
  }, 300_000);
});
