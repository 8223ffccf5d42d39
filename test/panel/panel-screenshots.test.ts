// The panel as a person sees it in an IDE's side bar, in real headless Chromium against
// `boardbridge serve`: first run with no agent ready (the real Gemini CLI finds no key), the
// person picks Claude (the real claude-code-acp, offline against the scripted model server),
// a reply in markdown with a code block, a permission card with the change's diff, a tool
// call unfolded, and the simulation chart of a 2 s fade. Each state is checked and written to
// docs/screenshots/ at 300 px and 400 px wide (VS Code's side bar by default), light and dark:
// every element that matters is there, visible and inside the view, and no badge or tab is cut.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { repoRoot, tempSketch } from '../e2e/run-cli.js';
import { launchChromium } from './browser.js';
import { startServe, type ServeProcess } from './serve-process.js';

const WAIT = { timeout: 90_000 };
const OUT = path.join(repoRoot, 'docs', 'screenshots');
const WIDTHS = [300, 400];
const SCHEMES = ['light', 'dark'] as const;
const HEIGHT = 760;
// analogWrite's duty from 0 to 254 in 8 ms steps: one fade takes 2.03 s.
const FADE = 'void setup() {\n  pinMode(9, OUTPUT);\n}\n\nvoid loop() {\n  for (int i = 0; i < 255; i++) {\n    analogWrite(9, i);\n    delay(8);\n  }\n}\n';
const REPLY = [
  'The LED is on **D13**, which has no PWM. To fade it, move it to one of the PWM pins:',
  '',
  '- **D9** (Timer 1, 490 Hz)',
  '- D3, D5, D6, D10 or D11',
  '',
  'Then ramp the duty with `analogWrite`:',
  '',
  '```cpp',
  'for (int i = 0; i < 255; i++) {',
  '  analogWrite(9, i);  // 0..255',
  '  delay(8);',
  '}',
  '```',
].join('\n');

let model: ModelServer;
let served: ServeProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const made = tempSketch();
  model = await startModelServer({
    turns: [
      { whenUserSays: 'how do I fade', replies: [{ say: REPLY }] },
      { whenUserSays: 'make it fade', replies: [{ tool: { claude: { name: 'Write', input: { file_path: made.ino, content: FADE } } } }, { say: 'D9 now fades up in about 2 s.' }] },
      {
        whenUserSays: 'try the fade',
        replies: [
          { tool: { claude: { name: 'mcp__boardbridge__simulate', input: { sketch: made.sketch, fqbn: 'arduino:avr:uno', for: '2.2s' } } } },
          { say: 'D9 ramps from 0 to 100 % duty over 2 s, then starts again.' },
        ],
      },
    ],
  });
  const env = agentLaunch('claude-code-acp', model.url, made.root).env;
  served = await startServe([made.sketch, '--agent', 'gemini'], { ...env, BOARDBRIDGE_STATE_DIR: path.join(made.root, 'state'), CI: 'true' }, () => model.close());
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: WIDTHS[0]!, height: HEIGHT } });
  mkdirSync(OUT, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

/** What is wrong with the layout now: elements missing, hidden, outside the view or cut. */
async function layoutProblems(must: string[]): Promise<string[]> {
  return page.evaluate((selectors) => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const height = window.innerHeight;
    if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    const inside = (e: Element, what: string, vertical: boolean) => {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return problems.push(`${what} is not visible`);
      if (r.left < -0.5 || r.right > width + 0.5) problems.push(`${what} sticks out sideways (${Math.round(r.left)}..${Math.round(r.right)} of ${width})`);
      if (vertical && (r.top < -0.5 || r.bottom > height + 0.5)) problems.push(`${what} is outside the view (${Math.round(r.top)}..${Math.round(r.bottom)} of ${height})`);
    };
    for (const selector of selectors) {
      const found = document.querySelector(selector);
      if (!found) problems.push(`${selector} is missing`);
      else inside(found, selector, true);
    }
    // Always: the header, the composer and its buttons in the view, and no badge, status or tab cut.
    for (const selector of ['header', '#composer', '#send', '#stop', '#prompt', '#tabs']) inside(document.querySelector(selector)!, selector, true);
    for (const e of document.querySelectorAll('#tabs button:not([hidden]), .badge:not([hidden]), .status, #agent-choices button')) {
      const box = e as HTMLElement;
      if (box.offsetParent === null) continue;
      if (box.scrollWidth > box.clientWidth + 1) problems.push(`"${box.textContent?.trim()}" is cut (${box.scrollWidth} > ${box.clientWidth})`);
      const r = box.getBoundingClientRect();
      const scroller = box.closest('#log, #agent-setup, .tab');
      const view = scroller ? scroller.getBoundingClientRect() : { left: 0, right: width };
      if (r.left < view.left - 0.5 || r.right > view.right + 0.5) problems.push(`"${box.textContent?.trim()}" sticks out of its box`);
    }
    return problems;
  }, must);
}

/** Checks and writes the state at every width and scheme. */
async function capture(name: string, must: string[], before: () => Promise<void> = async () => undefined): Promise<void> {
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      await before();
      // Monaco and uPlot lay out on their own frames after a resize.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(await layoutProblems(must), `${name} at ${width} px, ${scheme}`).toEqual([]);
      writeFileSync(path.join(OUT, `${name}-${width}-${scheme}.png`), await page.screenshot());
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
