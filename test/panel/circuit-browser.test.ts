// The panel's Circuit tab in real headless Chromium: `boardbridge serve` on a sketch with a
// Wokwi diagram.json; the page draws it with Wokwi's own elements (@wokwi/elements, served
// under /wokwi/), the person presses Run (a real arduino-builder build, avr8js run paced to the
// wall clock), the LED on PWM pin 9 glows at half, the 7-segment shows 0, a click on the button
// is a press the sketch counts, and the digit becomes 1 — in the simulator's part state and on
// the element. The whole drawing fits the pane.
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../e2e/run-cli.js';
import { COUNTER, COUNTER_DIAGRAM } from '../rig/circuit-sketches.js';
import { launchChromium, screenshot, screenshotDir } from './browser.js';
import { servePanel, type ServedPanel } from './serve-process.js';
import { writeScreenshot } from '../support/golden.js';

const WAIT = { timeout: 120_000 };
let panel: ServedPanel;
let browser: Browser;
let page: Page;

/** The segments A–G, DP of the digits 0 and 1 (docs.wokwi.com/parts/wokwi-7segment: `values`, A first). */
const ZERO = [1, 1, 1, 1, 1, 1, 0, 0];
const ONE = [0, 1, 1, 0, 0, 0, 0, 0];

beforeAll(async () => {
  panel = await servePanel(() => ({ turns: [] }));
  // The served folder is "Blink": its sketch becomes the counter, with the diagram beside it.
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
const prop = <T>(id: string, name: string) => page.$eval(element(id), (el, key) => (el as unknown as Record<string, unknown>)[key], name) as Promise<T>;

describe('the panel’s circuit view in Chromium', () => {
  it('draws the diagram with Wokwi’s elements, runs it live, and a click on the button changes the run', async () => {
    await page.goto(panel.url);
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    await page.click('#tab-circuit-button');
    // Every part is Wokwi's element for its type, placed where the diagram says; every wire is drawn.
    await page.waitForSelector(`${element('sevseg1')}`, WAIT);
    for (const [id, tag] of [['uno', 'wokwi-arduino-uno'], ['sevseg1', 'wokwi-7segment'], ['led1', 'wokwi-led'], ['btn1', 'wokwi-pushbutton'], ['r1', 'wokwi-resistor']]) {
      expect(await page.$eval(element(id), (el) => el.localName)).toBe(tag);
      expect(await page.$eval(element(id), (el) => customElements.get(el.localName) !== undefined)).toBe(true);
    }
    expect(await page.$eval(element('led1'), (el) => [(el as HTMLElement).style.left, (el as HTMLElement).style.top])).toEqual(['118px', '-150px']);
    expect(await page.$eval(element('r1'), (el) => (el as HTMLElement).style.transform)).toBe('rotate(90deg)');
    expect(await page.$$eval('#circuit-wires path', (paths) => paths.length)).toBe(COUNTER_DIAGRAM.connections.length);
    // A wire ends on its pin: D9's wire starts where the Uno element says pin 9 is.
    const [wireStart, pinAt] = await page.$eval('#circuit-wires path[data-from="uno:9"]', (wire) => {
      const uno = document.querySelector('[data-part="uno"]') as HTMLElement & { pinInfo: Array<{ name: string; x: number; y: number }> };
      const pin = uno.pinInfo.find((p) => p.name === '9')!;
      const [x, y] = wire.getAttribute('d')!.split(' ').slice(1, 3).map(Number);
      return [[x, y], [uno.offsetLeft + pin.x + parseFloat(uno.style.translate.split(' ')[0]), uno.offsetTop + pin.y + parseFloat(uno.style.translate.split(' ')[1])]];
    });
    expect(wireStart[0]).toBeCloseTo(pinAt[0], 3);
    expect(wireStart[1]).toBeCloseTo(pinAt[1], 3);

    await page.click('#circuit-run');
    await page.waitForSelector('#tab-circuit[data-running="true"]', WAIT);
    await page.waitForSelector(`${element('sevseg1')}[data-state='shows "0"']`, WAIT);
    await page.waitForSelector(`${element('led1')}[data-state="on 50 %"]`, WAIT);
    expect(await prop<boolean>('led1', 'value')).toBe(true);
    expect(await prop<number>('led1', 'brightness')).toBeCloseTo(0.5, 1);
    expect(await prop<number[]>('sevseg1', 'values')).toEqual(ZERO);
    // The element draws the segments lit: segment A's polygon has the display's colour, G the off colour.
    const fills = await page.$eval(element('sevseg1'), (el) => [...el.shadowRoot!.querySelectorAll('polygon')].map((p) => p.getAttribute('fill') ?? getComputedStyle(p).fill));
    expect(fills[0]).toBe('#ff3030');
    expect(fills[6]).not.toBe('#ff3030');
    await page.waitForFunction(() => document.getElementById('circuit-serial')?.textContent?.includes('count=0'), undefined, WAIT);

    await page.click(element('btn1'));
    await page.waitForSelector(`${element('sevseg1')}[data-state='shows "1"']`, WAIT);
    expect(await prop<number[]>('sevseg1', 'values')).toEqual(ONE);
    await page.waitForFunction(() => document.getElementById('circuit-serial')?.textContent?.includes('count=1'), undefined, WAIT);
    // Released again: the run got the press and the release.
    await page.waitForSelector(`${element('btn1')}[data-state="released"]`, WAIT);
    expect(await prop<boolean>('btn1', 'pressed')).toBe(false);
    expect(Number(await page.getAttribute('#tab-circuit', 'data-at'))).toBeGreaterThan(0);

    // The whole drawing is in view: every part inside the pane, with nothing to scroll to.
    const placed = await page.evaluate((ids) => {
      const pane = document.getElementById('tab-circuit')!;
      const room = pane.getBoundingClientRect();
      const out = ids.filter((id) => {
        const r = document.querySelector(`#circuit-stage [data-part="${id}"]`)!.getBoundingClientRect();
        return !(r.left >= room.left - 0.5 && r.right <= room.right + 0.5 && r.top >= room.top - 0.5 && r.bottom <= room.bottom + 0.5);
      });
      return { out, scrolls: pane.scrollHeight > pane.clientHeight + 1 };
    }, COUNTER_DIAGRAM.parts.map((p) => p.id));
    expect(placed).toEqual({ out: [], scrolls: false });

    await screenshot(page, 'panel-circuit');
    await writeScreenshot(path.join(repoRoot, 'docs', 'screenshots', 'panel-circuit.png'), () => readFile(path.join(screenshotDir, 'panel-circuit.png')));

    await page.click('#circuit-stop');
    await page.waitForSelector('#tab-circuit[data-running="false"]', WAIT);
    expect(await page.textContent('#circuit-state')).toBe('stopped: stopped');
    // A build, a paced run and a browser on a shared machine: a bound, not a figure.
  }, 300_000);
});
