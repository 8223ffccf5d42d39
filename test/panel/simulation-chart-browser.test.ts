// The panel's Simulation tab in real headless Chromium: `boardbridge serve` runs the real
// claude-code-acp (offline, scripted model), the agent calls the MCP simulate tool on Blink,
// and the page draws D13's trace with uPlot (served under /uplot/ as Monaco is under /vs/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser.js';
import { servePanel, type ServedPanel } from './serve-process.js';

const WAIT = { timeout: 90_000 };
let panel: ServedPanel;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  panel = await servePanel(({ sketch }) => ({
    turns: [
      {
        whenUserSays: 'simulate',
        replies: [
          { tool: { claude: { name: 'mcp__boardbridge__simulate', input: { sketch, fqbn: 'arduino:avr:uno', for: '2.2s', pins: ['13=low@200ms'] } } } },
          { say: 'D13 blinks at 1 Hz in the simulator.' },
        ],
      },
    ],
  }));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
});

describe('the panel’s simulation chart in Chromium', () => {
  it('shows the agent’s simulation run as a uPlot timing chart with the serial output and the run’s notes', async () => {
    await page.goto(panel.url);
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    await page.fill('#prompt', 'simulate the sketch');
    await page.press('#prompt', 'Enter');
    await page.waitForSelector('#tab-simulation:not([hidden]) #simulation-chart .uplot canvas', WAIT);
    expect(await page.getAttribute('#simulation-chart', 'data-pins')).toBe('D13');
    expect(Number(await page.getAttribute('#simulation-chart', 'data-points'))).toBeGreaterThan(4);
    expect(await page.textContent('#simulation-serial')).toContain('Blink ready');
    expect(await page.textContent('#simulation-pins')).toMatch(/D13: 3 rising edges, period 1\.000 s, 1\.000 Hz, duty 50 %/);
    expect(await page.textContent('#simulation-chart .u-legend')).toContain('D13');
    // The scripted level on D13, which the sketch drives as an output, is said to have had no effect.
    expect(await page.textContent('#simulation-notes')).toBe('Note: --pin D13=low@0.2s: the sketch drives D13 high as an output then, so the scripted level has no effect while it stays an output.');
    // The chart is drawn, not empty: the canvas has coloured pixels of D13's line.
    const inked = await page.$eval('#simulation-chart canvas', (canvas) => {
      const c = canvas as HTMLCanvasElement;
      const pixels = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let count = 0;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i + 3] > 0 && pixels[i + 2] > 150 && pixels[i] < 100) count++;
      return count;
    });
    expect(inked).toBeGreaterThan(50);
    await screenshot(page, 'simulation-chart');
  });
});
