// The agent's own simulation in the panel's Circuit tab, in real headless Chromium: the real
// claude-code-acp (offline, scripted model) behind `boardbridge serve` starts the counter sketch
// with its diagram through the MCP sim_* tools and runs it; the page, which started nothing
// itself, shows that run's parts live — the LED on PWM pin 9 lit at half, the 7-segment's 0 —
// marked as the agent's, with the page's Stop not offered for it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { COUNTER, COUNTER_DIAGRAM } from '../rig/circuit-sketches.js';
import { launchChromium } from './browser.js';
import { servePanel, type ServedPanel } from './serve-process.js';

const WAIT = { timeout: 120_000 };
let panel: ServedPanel;
let browser: Browser;
let page: Page;

const tool = (name: string, input: Record<string, unknown> = {}) => ({ tool: { claude: { name: `mcp__boardbridge__${name}`, input } } });

beforeAll(async () => {
  panel = await servePanel(() => ({
    turns: [
      {
        whenUserSays: 'simulator',
        replies: [tool('sim_start', { fqbn: 'arduino:avr:uno' }), tool('sim_run', { until: '^count=0' }), tool('sim_run', { for: '200ms' }), { say: 'The LED glows at half and the display shows 0.' }],
      },
    ],
  }));
  writeFileSync(panel.ino, COUNTER);
  writeFileSync(path.join(panel.sketch, 'diagram.json'), JSON.stringify(COUNTER_DIAGRAM, null, 2) + '\n');
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
});

const element = (id: string) => `#circuit-stage [data-part="${id}"]`;

describe('the agent’s simulation in the panel’s circuit view', () => {
  it('shows the parts of a run the agent started through MCP, lit as the run has them', async () => {
    await page.goto(panel.url);
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    await page.click('#tab-circuit-button');
    await page.waitForSelector(element('led1'), WAIT);
    expect(await page.getAttribute('#tab-circuit', 'data-running')).toBe('false');

    await page.fill('#prompt', 'Run it on the simulator and tell me what the LED does.');
    await page.press('#prompt', 'Enter');
    await page.waitForSelector('#tab-circuit[data-running="true"][data-agent="true"]', WAIT);
    await page.waitForSelector(`${element('led1')}[data-state="on 50 %"]`, WAIT);
    await page.waitForSelector(`${element('sevseg1')}[data-state='shows "0"']`, WAIT);
    const led = await page.$eval(element('led1'), (el) => [(el as unknown as { value: boolean }).value, (el as unknown as { brightness: number }).brightness]);
    expect(led[0]).toBe(true);
    expect(led[1] as number).toBeCloseTo(0.5, 1);
    expect(await page.textContent('#circuit-state')).toBe("the agent's simulation running");
    expect(await page.isDisabled('#circuit-stop')).toBe(true);
    await page.waitForFunction(() => document.getElementById('circuit-serial')?.textContent?.includes('count=0'), undefined, WAIT);
    // The agent finished its turn; its simulation stays where it paused, and is shown so.
    await page.locator('#log', { hasText: 'The LED glows at half' }).waitFor(WAIT);
  }, 300_000);
});
