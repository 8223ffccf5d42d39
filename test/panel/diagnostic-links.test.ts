// Compile diagnostics in the sidecar panel: the real claude-code-acp agent (offline)
// calls the bridge's MCP `compile` tool, the real arduino-builder fails on the
// sketch, and the `file:line:col` in the tool card opens the file at that line.
import { writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROKEN } from '../rig/sketches.js';
import { launchChromium, screenshot } from './browser.js';
import { servePanel, type ServedPanel } from './serve-process.js';

const WAIT = { timeout: 90_000 };
let panel: ServedPanel;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  // The bridge allows its own tools without asking (they ask themselves before a device change).
  panel = await servePanel(
    ({ sketch }) => ({
      turns: [
        {
          whenUserSays: 'compile',
          replies: [{ tool: { claude: { name: 'mcp__boardbridge__compile', input: { sketch, fqbn: 'arduino:avr:uno' } } } }, { say: 'It does not build: line 6.' }],
        },
        {
          whenUserSays: 'in a terminal',
          replies: [
            { tool: { claude: { name: 'Bash', input: { command: `boardbridge compile --fqbn arduino:avr:uno ${sketch}`, description: 'compile the sketch', timeout: 120000 } } } },
            { say: 'Same error at line 6.' },
          ],
        },
      ],
    }),
  );
  writeFileSync(panel.ino, BROKEN);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
});

describe('compile diagnostics in the sidecar panel', () => {
  it('links the error line in the compile tool card and shows the sketch at that line when clicked', async () => {
    await page.goto(panel.url);
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    await page.fill('#prompt', 'compile the sketch');
    await page.press('#prompt', 'Enter');
    const link = page.locator('#log .card.tool .output a.file-link', { hasText: /Blink\.ino:6:3/ }).first();
    await link.waitFor(WAIT);
    expect(await link.getAttribute('data-line')).toBe('6');
    await link.click();
    await page.waitForSelector('#file-view[data-line="6"] .monaco-editor', WAIT);
    expect(await page.getAttribute('#file-view', 'data-path')).toBe(panel.ino);
    expect(await page.isVisible('#tab-file')).toBe(true);
    const selected = await page.evaluate(() => {
      const w = window as unknown as { monaco: { editor: { getEditors(): { getSelection(): { startLineNumber: number }; getModel(): { getLineContent(n: number): string } }[] } } };
      const editor = w.monaco.editor.getEditors().find((e) => e.getModel()?.getLineContent(6).includes('undeclaredThing'));
      return editor ? editor.getSelection().startLineNumber : undefined;
    });
    expect(selected).toBe(6);
    await screenshot(page, 'panel-diagnostic-link');
  });

  it('shows a terminal compile\'s streamed output in the Bash card with the error line linked', async () => {
    await page.fill('#prompt', 'compile it in a terminal');
    await page.press('#prompt', 'Enter');
    // Bash asks first (the agent's own permission step); the compile then runs in-process on the bridge.
    await page.locator('#log .card.permission:not([data-decided]) button[data-kind="allow_once"]').first().click(WAIT);
    const card = page.locator('#log .card.tool[data-kind="execute"]', { hasText: 'compile the sketch' }).last();
    const link = card.locator('.output a.file-link', { hasText: /Blink\.ino:6:3/ }).first();
    await link.waitFor(WAIT);
    // The output streams in: the link shows as soon as `Blink.ino:6:3` has come, the rest of its line may come later.
    await card.locator('.output pre', { hasText: "error: 'undeclaredThing' was not declared" }).waitFor(WAIT);
    // The bridge's own stream of the terminal, not the agent's summary of it ("Exited with code 1.Final output: …").
    const shown = await card.locator('.output pre').textContent();
    expect(shown).toMatch(/^Compiling .*Blink for arduino:avr:uno/);
    expect(shown).toContain("error: 'undeclaredThing' was not declared");
    // The output sits in the card, not a second time under the `$ boardbridge compile` line.
    expect(await page.locator('#log .line.terminal .output').count()).toBe(0);
    await link.click();
    await page.waitForSelector('#file-view[data-line="6"] .monaco-editor', WAIT);
    await screenshot(page, 'panel-terminal-compile');
  });

  it('refuses to show a file outside the workspace', async () => {
    const problem = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(new URL('socket', location.href).href.replace('http', 'ws'));
          socket.onmessage = (e) => {
            const message = JSON.parse(e.data as string) as { type: string; message?: string };
            if (message.type === 'snapshot') socket.send(JSON.stringify({ type: 'open_file', path: '/etc/passwd' }));
            if (message.type === 'problem' || message.type === 'file') resolve(message.message ?? 'the file was sent');
          };
        }),
    );
    expect(problem).toContain('outside the workspace');
  });
});
