// The sidecar panel in real headless Chromium against `boardbridge serve` running the real
// claude-code-acp offline: the person refuses a terminal command on its permission card, and
// the tool call reads "refused" (the answer the bridge recorded), not the agent's "failed".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { servePanel, type ServedPanel } from './serve-process.js';

const WAIT = { timeout: 45_000 };

let panel: ServedPanel;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  panel = await servePanel(() => ({
    turns: [{ whenUserSays: 'greet', replies: [{ tool: { claude: { name: 'Bash', input: { command: 'echo never-ran', description: 'Say hello', timeout: 60_000 } } } }, { say: 'Not run, then.' }] }],
  }));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
});

describe('the sidecar panel in Chromium with a real agent, when the person refuses', () => {
  it('shows the refused terminal command as refused, not failed, once Reject is clicked on its card', async () => {
    await page.goto(panel.url);
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    await page.fill('#prompt', 'greet the world');
    await page.press('#prompt', 'Enter');
    const reject = page.locator('#log .card.permission button[data-kind="reject_once"]').last();
    await reject.waitFor(WAIT);
    await reject.click();
    await page.waitForSelector('#log .card.permission[data-decided="refused"]', WAIT);
    const tool = page.locator('#log .card.tool[data-kind="execute"]').last();
    await page.waitForSelector('#log .card.tool[data-kind="execute"][data-status="failed"]', WAIT);
    await page.waitForSelector('#log .line.stop', WAIT);
    const status = tool.locator('summary .status');
    expect(await status.textContent()).toBe('refused');
    expect(await status.getAttribute('class')).toBe('status refused');
    expect(await page.locator('#log .card.tool summary .status.failed').count()).toBe(0);
    expect(await tool.textContent()).not.toContain('never-ran\n');
  });
});
