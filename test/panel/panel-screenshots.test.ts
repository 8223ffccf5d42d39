// The panel as a person sees it in an IDE's side bar, in real headless Chromium against
// `boardbridge serve`: first run with no agent ready (the real Gemini CLI finds no key), the
// person picks Claude (the real claude-code-acp, offline against the scripted model server),
// a reply in markdown with a code block, a permission card with the change's diff, a tool
// call unfolded, and the simulation chart of a 2 s fade. Each state is checked and written to
// docs/screenshots/ at 300 px and 400 px wide (VS Code's side bar by default), light and dark:
// every element that matters is there, visible and inside the view, and no badge or tab is cut.
// The PNGs are pictures, not goldens: rewritten only with UPDATE_GOLDENS=1 (test/support/golden.ts).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { screenshotTurns } from './screenshot-script.js';
import { writeScreenshot } from '../support/golden.js';
import { repoRoot, tempSketch } from '../e2e/run-cli.js';
import { launchChromium } from './browser.js';
import { layoutProblems, settled } from './panel-layout.js';
import { startServe, type ServeProcess } from './serve-process.js';

const WAIT = { timeout: 90_000 };
const OUT = path.join(repoRoot, 'docs', 'screenshots');
const WIDTHS = [300, 400];
const SCHEMES = ['light', 'dark'] as const;
const HEIGHT = 760;

let model: ModelServer;
let served: ServeProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const made = tempSketch();
  model = await startModelServer({ turns: screenshotTurns(made) });
  const env = agentLaunch('claude-code-acp', model.url, made.root).env;
  served = await startServe([made.sketch, '--agent', 'gemini'], { ...env, BOARDBRIDGE_STATE_DIR: path.join(made.root, 'state'), CI: 'true' }, () => model.close());
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: WIDTHS[0]!, height: HEIGHT } });
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

/** Checks and writes the state at every width and scheme. */
async function capture(name: string, must: string[], before: () => Promise<void> = async () => undefined): Promise<void> {
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      await before();
      await settled(page);
      expect(await layoutProblems(page, must), `${name} at ${width} px, ${scheme}`).toEqual([]);
      await writeScreenshot(path.join(OUT, `${name}-${width}-${scheme}.png`), () => page.screenshot());
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function scrollTo(selector: string, block: 'start' | 'end' = 'end'): Promise<void> {
  await page.locator(selector).last().evaluate((e, b) => e.scrollIntoView({ block: b }), block);
}

describe('the panel at side-bar widths, light and dark', { timeout: 240_000 }, () => {
  it('first run: no agent is ready, the choices are listed, the primary button only on installed agents', async () => {
    await page.goto(served.url);
    await page.waitForSelector('#agent-setup:not([hidden]) #agent-choices li', WAIT);
    expect(await page.textContent('#agent')).toBe('No agent');
    // The Board tab works without an agent, and the header names the board.
    await page.waitForFunction(() => document.getElementById('board-port')!.textContent!.includes('Arduino UNO'), undefined, WAIT);
    const primaries = await page.locator('#agent-choices li').evaluateAll((items) =>
      items.map((i) => ({ installed: (i as HTMLElement).dataset.installed, primary: Boolean(i.querySelector('button.start.allow')) })),
    );
    for (const choice of primaries) expect(choice.primary).toBe(choice.installed === 'true');
    await capture('first-run-no-agent', ['#agent-setup h3', '#agent-reason', '#agent-choices li[data-agent="claude"] button.start']);
  });

  it('picking an agent: the Start button of Claude, then the panel while it starts', async () => {
    await capture('pick-agent', ['#agent-choices li[data-agent="claude"] button.start'], async () => {
      await page.locator('#agent-choices li[data-agent="claude"] button.start').scrollIntoViewIfNeeded();
      await page.focus('#agent-choices li[data-agent="claude"] button.start');
    });
    await page.keyboard.press('Enter');
    await page.waitForSelector('body[data-agent="ready"]', WAIT);
    expect(await page.textContent('#agent')).toMatch(/claude/i);
  });

  it('a reply in markdown: bold, a list, inline code and a C++ block coloured by Monaco', async () => {
    await page.fill('#prompt', 'how do I fade the LED?');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#log .line.stop').length >= 1, undefined, WAIT);
    const reply = page.locator('#log .msg.agent').last();
    await reply.locator('pre code[data-colorized="cpp"]').waitFor(WAIT);
    expect(await reply.locator('strong').first().textContent()).toBe('D13');
    expect(await reply.locator('li').count()).toBe(2);
    expect(await reply.locator('code').first().textContent()).toBe('analogWrite');
    // Monaco's tokens: the keyword `for` and the comment in spans of their own classes.
    expect(await reply.locator('pre code span[class*="mtk"]').count()).toBeGreaterThan(5);
    // No markdown syntax left as text.
    expect(await reply.textContent()).not.toMatch(/\*\*|```/);
    await page.waitForSelector('#log .line.stop', WAIT);
    await capture('markdown-reply', ['#log .msg.agent pre'], () => scrollTo('#log .msg.agent pre'));
  });

  it('a permission card with the change’s diff inline and Allow / Reject beside it', async () => {
    await page.fill('#prompt', 'make it fade on D9');
    await page.keyboard.press('Enter');
    const card = page.locator('#log .card.permission:not([data-decided])').last();
    await card.locator('.inline-diff[data-ready="true"] .view-line', { hasText: 'analogWrite' }).first().waitFor(WAIT);
    expect(await card.locator('.title').textContent()).toMatch(/Allow\? Write Blink\.ino/);
    await capture('permission-diff', ['#log .card.permission:not([data-decided]) .inline-diff', '#log .card.permission:not([data-decided]) button[data-kind="allow_once"]'], () =>
      scrollTo('#log .card.permission:not([data-decided])', 'start'),
    );
    await card.locator('button[data-kind="allow_once"]').click();
    await page.waitForFunction(() => document.querySelectorAll('#log .line.stop').length >= 2, undefined, WAIT);
  });

  it('a tool call unfolded: the simulate call’s title, its input and its output', async () => {
    await page.fill('#prompt', 'try the fade in the simulator');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#log .line.stop').length >= 3, undefined, WAIT);
    const card = page.locator('#log .card.tool', { hasText: 'Simulate' }).last();
    expect(await card.locator(':scope > summary .title').textContent()).toBe('Simulate Blink on Arduino UNO for 2.2s');
    expect(await card.locator(':scope > summary .icon').getAttribute('data-icon')).toBe('simulate');
    await page.click('#views-close');
    await card.locator(':scope > summary').click();
    expect(await card.getAttribute('open')).not.toBeNull();
    expect(await card.locator('.detail dl.input').textContent()).toContain('fqbnarduino:avr:uno');
    await capture('tool-call-expanded', ['#log .card.tool[open] .detail dl.input'], () => scrollTo('#log .card.tool[open]', 'start'));
  });

  it('the simulation chart of a 2 s fade: the whole run, the duty ramping on D9', async () => {
    await page.click('#tabs button[data-tab="simulation"]');
    const chart = page.locator('#simulation-chart');
    await chart.locator('.uplot canvas').waitFor(WAIT);
    expect(await chart.getAttribute('data-pins')).toBe('D9');
    // The chart's last point is the run's end, not the 200th pin change.
    expect(Number(await chart.getAttribute('data-seconds'))).toBeCloseTo(2.2, 2);
    expect(await page.textContent('#simulation-head')).toContain('chart: the whole run');
    await capture('simulation-fade', ['#simulation-chart canvas'], async () => {
      await page.locator('#simulation-chart').evaluate((e) => e.scrollIntoView({ block: 'start' }));
    });
  });
});
