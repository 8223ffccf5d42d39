// The sidecar panel in real headless Chromium against `boardbridge serve` running
// the real claude-code-acp agent offline: one session, driven by clicks and typing
// as a person would, checked on the page and on disk. The steps build on each other.
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { WebSocket as NodeSocket } from 'ws';
import { openBoardEnd } from '../rig/board-end.js';
import { until } from '../support/until.js';
import { ptyPair, stop as stopSocat, type PtyPair } from '../rig/pty-pair.js';
import { launchChromium, screenshot } from './browser.js';
import { servePanel, type ServedPanel } from './serve-process.js';

const FADE = 'void setup() {\n  pinMode(9, OUTPUT);\n}\n\nvoid loop() {\n  for (int i = 0; i < 255; i++) { analogWrite(9, i); delay(4); }\n}\n';
const FASTER = FADE.replace('delay(4)', 'delay(1)');
const WAIT = { timeout: 45_000 };

let panel: ServedPanel;
let browser: Browser;
let page: Page;
let pair: PtyPair | undefined;

beforeAll(async () => {
  panel = await servePanel(({ ino }) => ({
    turns: [
      { whenUserSays: 'which pin', replies: [{ say: 'Pin 13 drives the built-in LED on the Uno; pins 3, 5, 6, 9, 10 and 11 have PWM.' }] },
      {
        whenUserSays: 'plan',
        replies: [
          {
            tool: {
              claude: {
                name: 'TodoWrite',
                input: {
                  todos: [
                    { content: 'Read the Uno pin map', status: 'completed', activeForm: 'Reading the Uno pin map' },
                    { content: 'Move the LED to a PWM pin', status: 'in_progress', activeForm: 'Moving the LED' },
                  ],
                },
              },
            },
          },
          { say: 'Here is the plan.' },
        ],
      },
      { whenUserSays: 'fade', replies: [{ tool: { claude: { name: 'Write', input: { file_path: ino, content: FADE } } } }, { say: 'The LED on pin 9 now fades.' }] },
      { whenUserSays: 'pin 3', replies: [{ tool: { claude: { name: 'Write', input: { file_path: ino, content: 'void setup() {}\nvoid loop() {}\n' } } } }, { say: 'Moved.' }] },
      { whenUserSays: 'faster', replies: [{ tool: { claude: { name: 'Write', input: { file_path: ino, content: FASTER } } } }, { say: 'It fades four times faster.' }] },
    ],
  }));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
  if (pair) await stopSocat(pair.socat);
});

let turns = 0;
async function send(text: string): Promise<void> {
  turns++;
  await page.fill('#prompt', text);
  await page.press('#prompt', 'Enter');
}

/** Waits for the stop line of the turn sent last. */
async function turnDone(): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll('#log .line.stop').length >= n, turns, WAIT);
}

describe('the sidecar panel in Chromium with a real agent', () => {
  it('opens on the served session and shows the board context as a pin table', async () => {
    await page.goto(panel.url);
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    expect(await page.textContent('#agent')).toMatch(/claude/i);
    await page.click('#tabs button[data-tab="board"]');
    await page.waitForSelector('#pins:not([hidden]) tbody tr', WAIT);
    expect(await page.textContent('#board-name')).toContain('arduino:avr:uno');
    const builtin = await page.locator('#pins tbody tr', { hasText: 'LED_BUILTIN' }).first().textContent();
    expect(builtin).toContain('13');
    await screenshot(page, 'panel-board-pins');
    await page.click('#tabs button[data-tab="changes"]');
  });

  it('sends a prompt and streams the reply into the conversation', async () => {
    await send('which pin drives the LED?');
    await page.waitForSelector('#log .msg.user:has-text("which pin drives the LED?")', WAIT);
    await turnDone();
    const reply = page.locator('#log .msg.agent').last();
    expect(await reply.textContent()).toBe('Pin 13 drives the built-in LED on the Uno; pins 3, 5, 6, 9, 10 and 11 have PWM.');
    expect(Number(await reply.getAttribute('data-chunks'))).toBeGreaterThan(1);
    expect(await page.textContent('#log .line.stop')).toBe('done (end_turn)');
    await screenshot(page, 'panel-streamed-reply');
  });

  it('shows the agent\'s plan as a checklist', async () => {
    await send('plan the change first');
    await turnDone();
    await page.waitForSelector('#plan:not([hidden]) li', WAIT);
    expect(await page.locator('#plan li').allTextContents()).toEqual(['☑ Read the Uno pin map', '☐ Move the LED to a PWM pin']);
    expect(await page.locator('#plan li').evaluateAll((items) => items.map((i) => i.className))).toEqual(['completed', 'in_progress']);
  });

  it('shows the tool call as a card and takes the permission answer from a click', async () => {
    await send('make the LED fade');
    const allow = page.locator('#log .card.permission button[data-kind="allow_once"]').last();
    await allow.waitFor(WAIT);
    const options = await page.locator('#log .card.permission').last().locator('button').allTextContents();
    expect(options).toEqual(['Always Allow', 'Allow', 'Reject']);
    const tool = page.locator('#log .card.tool').last();
    expect(await tool.getAttribute('data-kind')).toBe('edit');
    expect(await tool.locator('summary .title').textContent()).toMatch(/Write .*Blink\.ino/);
    // The change itself is in the card, in Monaco's diff editor, beside Allow and Reject.
    const diff = page.locator('#log .card.permission').last().locator('.inline-diff[data-ready="true"]');
    await diff.waitFor(WAIT);
    await diff.locator('.view-line', { hasText: 'analogWrite' }).first().waitFor(WAIT);
    await screenshot(page, 'panel-permission');
    await allow.click();
    await page.waitForSelector('#log .card.permission[data-decided="allowed"]', WAIT);
    await page.waitForSelector('#log .card.tool[data-status="completed"]', WAIT);
    await turnDone();
    expect(readFileSync(panel.ino, 'utf8')).toBe(FADE);
  });

  it('shows the change in a Monaco diff editor and keeps the file when the person accepts it', async () => {
    const item = page.locator(`#reviews li[data-path="${panel.ino}"]`);
    await item.waitFor(WAIT);
    expect(await item.getAttribute('data-status')).toBe('pending');
    await page.waitForSelector(`#diff[data-ready="${panel.ino}"] .monaco-diff-editor`, WAIT);
    await page.waitForSelector('#diff .modified-in-monaco-diff-editor .view-line:has-text("analogWrite")', WAIT);
    await screenshot(page, 'panel-diff');
    await item.locator('button.allow').click();
    await page.waitForSelector(`#reviews li[data-path="${panel.ino}"][data-status="accepted"]`, WAIT);
    expect(readFileSync(panel.ino, 'utf8')).toBe(FADE);
  });

  it('puts the previous content back from the journal when the person rejects a change', async () => {
    await send('make it fade faster');
    const allow = page.locator('#log .card.permission button[data-kind="allow_once"]').last();
    await allow.waitFor(WAIT);
    await allow.click();
    await turnDone();
    expect(readFileSync(panel.ino, 'utf8')).toBe(FASTER);
    const item = page.locator(`#reviews li[data-path="${panel.ino}"][data-status="pending"]`);
    await item.waitFor(WAIT);
    await item.locator('button.reject').click();
    await page.waitForSelector(`#reviews li[data-path="${panel.ino}"][data-status="rejected"]`, WAIT);
    expect(readFileSync(panel.ino, 'utf8')).toBe(FADE);
  });

  it('shows the same session after a reload and in a second tab, without starting a second agent', async () => {
    const sessionId = await page.getAttribute('body', 'data-session-id');
    const conversation = await page.locator('#log').innerText();
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]', WAIT);
    expect(await page.getAttribute('body', 'data-session-id')).toBe(sessionId);
    expect(await page.locator('#log').innerText()).toBe(conversation);
    expect(await page.getAttribute(`#reviews li[data-path="${panel.ino}"]`, 'data-status')).toBe('rejected');
    // The session's id is the header's tooltip, not a line of the conversation.
    expect(conversation).not.toContain(sessionId);
    expect(await page.getAttribute('#agent', 'title')).toContain(`session ${sessionId}`);
    await screenshot(page, 'panel-after-reload');

    const second = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await second.goto(panel.url);
    await second.waitForSelector('body[data-ready="true"]', WAIT);
    expect(await second.getAttribute('body', 'data-session-id')).toBe(sessionId);
    expect(await second.locator('#log').innerText()).toBe(conversation);
    await second.close();
    expect(panel.agentProcesses()).toBe(1);
  });

  it('keeps a permission request open across a reload, and Stop cancels the turn and withdraws it', async () => {
    await send('move the LED to pin 3');
    await page.locator('#log .card.permission:not([data-decided]) button').first().waitFor(WAIT);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"][data-busy="true"]', WAIT);
    const open = page.locator('#log .card.permission:not([data-decided])');
    expect(await open.locator('button').allTextContents()).toEqual(['Always Allow', 'Allow', 'Reject']);
    await page.click('#stop');
    await page.waitForSelector('#log .card.permission[data-decided="withdrawn"]', WAIT);
    await turnDone();
    expect(await page.locator('#log .line.stop').last().textContent()).toBe('done (cancelled)');
    await page.waitForSelector('body[data-busy="false"]', WAIT);
    expect(readFileSync(panel.ino, 'utf8')).toBe(FADE);
  });
});

describe('the serial monitor pane', () => {
  it('shows what the board sends, sends the person\'s line, and keeps recent output across a reload', async () => {
    pair = await ptyPair();
    const board = await openBoardEnd(pair.board);
    try {
      await page.click('#tabs button[data-tab="serial"]');
      await page.fill('#serial-port', pair.device);
      await page.selectOption('#serial-baud', '115200');
      await page.click('#serial-connect');
      await page.waitForSelector('#serial-state[data-state="open"]', WAIT);
      await board.write('temperature 21.5 C\r\n');
      await page.waitForSelector('#serial-out:has-text("temperature 21.5 C")', WAIT);
      await page.fill('#serial-input', 'led on');
      await page.press('#serial-input', 'Enter');
      await until('the typed line at the board', () => board.received().toString().includes('led on\n'));
      expect(board.received().toString()).toBe('led on\n');
      await screenshot(page, 'panel-serial-monitor');

      await page.reload();
      await page.waitForSelector('body[data-ready="true"]', WAIT);
      await page.click('#tabs button[data-tab="serial"]');
      expect(await page.textContent('#serial-out')).toContain('temperature 21.5 C');
      expect(await page.getAttribute('#serial-state', 'data-state')).toBe('open');
      await page.click('#serial-disconnect');
      await page.waitForSelector('#serial-state[data-state="closed"]', WAIT);
    } finally {
      await board.close();
    }
  });
});

describe('who may use the panel', () => {
  it('listens on the loopback address only', () => {
    const portHex = panel.port.toString(16).toUpperCase().padStart(4, '0');
    const listening = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[1]?.endsWith(`:${portHex}`) && f[3] === '0A');
    expect(listening.map((f) => f[1])).toEqual([`0100007F:${portHex}`]);
    expect(readFileSync('/proc/net/tcp6', 'utf8')).not.toMatch(new RegExp(`:${portHex} [0-9A-F]+:0000 0A`));
  });

  it('refuses requests without the token, with a wrong token, a foreign Host or a foreign Origin', async () => {
    const base = `http://127.0.0.1:${panel.port}`;
    expect((await get(`${base}/${panel.token}/`)).status).toBe(200);
    expect((await get(`${base}/${panel.token}/vs/loader.js`)).status).toBe(200);
    expect((await get(`${base}/`)).status).toBe(403);
    expect((await get(`${base}/vs/loader.js`)).status).toBe(403);
    expect((await get(`${base}/${panel.token.slice(0, -1)}x/`)).status).toBe(403);
    // A DNS-rebinding page reaches 127.0.0.1 under its own host name.
    const rebound = await get(`${base}/${panel.token}/`, { host: `attacker.example:${panel.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('Host');
    const foreign = await get(`${base}/${panel.token}/`, { origin: 'http://attacker.example' });
    expect(foreign.status).toBe(403);
    expect((await get(`${base}/${panel.token}/%2e%2e/%2e%2e/package.json`)).status).toBe(404);
    expect((await get(`${base}/${panel.token}/`, {}, 'POST')).status).toBe(405);
  });

  it('opens the socket only for the panel itself: a foreign Origin or a missing token is refused', async () => {
    const socketUrl = `ws://127.0.0.1:${panel.port}/${panel.token}/socket`;
    const own = await openSocket(socketUrl, `http://127.0.0.1:${panel.port}`);
    expect(own).toMatchObject({ opened: true, first: { type: 'snapshot' } });
    expect(await openSocket(socketUrl, 'http://attacker.example')).toEqual({ opened: false, status: 403 });
    expect(await openSocket(`ws://127.0.0.1:${panel.port}/socket`, `http://127.0.0.1:${panel.port}`)).toEqual({ opened: false, status: 403 });
  });

  it('keeps another web page in the browser from driving the bridge, even one that knows the URL', async () => {
    const other = createServer((_, res) => res.end('<!doctype html><title>another site</title>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as AddressInfo).port;
    const foreignPage = await browser.newPage();
    try {
      await foreignPage.goto(`http://localhost:${otherPort}/`);
      const outcome = await foreignPage.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(url);
            ws.onopen = () => resolve('opened');
            ws.onclose = () => resolve('refused');
          }),
        `ws://127.0.0.1:${panel.port}/${panel.token}/socket`,
      );
      expect(outcome).toBe('refused');
    } finally {
      await foreignPage.close();
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

// The path goes out exactly as written (a URL string would have its dot segments resolved).
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  const rawPath = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path: rawPath, method, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (t: string) => (body += t));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

function openSocket(url: string, origin: string): Promise<{ opened: true; first: unknown } | { opened: false; status: number }> {
  return new Promise((resolve, reject) => {
    const ws = new NodeSocket(url, { origin });
    ws.once('message', (data) => {
      resolve({ opened: true, first: JSON.parse(data.toString()) });
      ws.close();
    });
    ws.once('unexpected-response', (_, response) => {
      resolve({ opened: false, status: response.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', reject);
  });
}
