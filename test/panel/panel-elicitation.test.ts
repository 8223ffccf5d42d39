// The panel answers an agent's form (ACP elicitation) in real headless Chromium,
// against `boardbridge serve` with the stand-in agent (no agent here asks for a form
// offline): the fields drawn from the schema, a bad value refused by the bridge, the
// corrected form sent, and a declined one.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, tempSketch } from '../e2e/run-cli.js';
import { launchChromium, screenshot } from './browser.js';
import { startServe, type ServeProcess } from './serve-process.js';

const WAIT = { timeout: 45_000 };
let served: ServeProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const { root, sketch } = tempSketch();
  const standin = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')}`;
  served = await startServe([sketch, '--agent-command', standin], { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), CI: 'true' });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(served.url);
  await page.waitForSelector('body[data-ready="true"]', WAIT);
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

async function ask(): Promise<void> {
  await page.fill('#prompt', 'elicit-form');
  await page.press('#prompt', 'Enter');
  await page.waitForSelector('#log .card.elicitation:not([data-decided]) form .field', WAIT);
}

describe('an agent form in the panel (stand-in agent)', { timeout: 120_000 }, () => {
  it('draws the fields, refuses a bad number, then sends the corrected form', async () => {
    await ask();
    const card = page.locator('#log .card.elicitation').last();
    expect(await card.locator('.title').textContent()).toBe('The agent asks: Which board is connected?');
    expect(await card.locator('.field .name').allTextContents()).toEqual(['Serial port', 'Baud rate *', 'Board *', 'Verbose upload', 'Note']);
    expect(await card.locator('[data-field="port"] input').inputValue()).toBe('/dev/ttyACM0');
    expect(await card.locator('[data-field="board"] option').allTextContents()).toEqual(['', 'Arduino Uno', 'Arduino Mega']);
    expect(await card.locator('[data-field="verbose"] input').isChecked()).toBe(false);
    await screenshot(page, 'panel-elicitation-form');
    await card.locator('[data-field="baud"] input').fill('1');
    await card.locator('[data-field="board"] select').selectOption('mega');
    await card.locator('button[type="submit"]').click();
    await page.waitForSelector('#problem:not([hidden]):has-text("Baud rate: at least 300")', WAIT);
    await card.locator('[data-field="baud"] input').fill('115200');
    await card.locator('[data-field="verbose"] input').check();
    await card.locator('button[type="submit"]').click();
    await page.waitForSelector('#log .card.elicitation[data-decided="sent"]', WAIT);
    await page.waitForSelector('#log .msg.agent:has-text("elicitation answer")', WAIT);
    // The reply's element shows with its first chunk; its text is whole once the turn has ended.
    await page.waitForSelector('body[data-busy="false"]', WAIT);
    expect(await page.locator('#log .msg.agent').last().textContent()).toBe(
      'elicitation answer: {"action":"accept","content":{"port":"/dev/ttyACM0","baud":115200,"board":"mega","verbose":true}}',
    );
  });

  it('declines a form with its Decline button', async () => {
    await ask();
    await page.locator('#log .card.elicitation').last().locator('button.reject').click();
    await page.waitForFunction(() => [...document.querySelectorAll('#log .msg.agent')].some((m) => m.textContent === 'elicitation answer: {"action":"decline"}'), undefined, WAIT);
    expect(await page.locator('#log .card.elicitation').last().getAttribute('data-decided')).toBe('declined');
  });
});

describe('a URL the agent asks the person to open, in the panel (stand-in agent)', { timeout: 120_000 }, () => {
  it('is a link only when it is an http(s) address: a javascript: URL stays text and cannot run', async () => {
    const { root, sketch } = tempSketch();
    const standin = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')}`;
    const hostile = await startServe([sketch, '--agent-command', standin], {
      PATH: process.env.PATH ?? '',
      HOME: root,
      BOARDBRIDGE_STATE_DIR: path.join(root, 'state'),
      CI: 'true',
      STANDIN_ELICIT_URL: 'javascript:document.title="pwned"//https://example.invalid/',
    });
    const other = await browser.newPage();
    try {
      await other.goto(hostile.url);
      await other.waitForSelector('body[data-ready="true"]', WAIT);
      await other.fill('#prompt', 'elicit-url');
      await other.press('#prompt', 'Enter');
      await other.waitForSelector('#log .card.elicitation .url', WAIT);
      const card = other.locator('#log .card.elicitation').last();
      expect(await card.locator('a.url').count()).toBe(0);
      expect(await card.locator('.url').textContent()).toBe('javascript:document.title="pwned"//https://example.invalid/');
      await card.locator('.url').click();
      expect(await other.title()).not.toBe('pwned');
      expect(await card.locator('.description').textContent()).toContain('Not a web address');
    } finally {
      await other.close();
      await hostile.stop();
    }
  });
});
