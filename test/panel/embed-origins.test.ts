// The extension's default `boardbridge.embedFrom` (CSP frame-ancestors) against the
// frame chain Arduino IDE 2.x builds, rebuilt in real Chromium: a file: top window,
// a Theia webview at http://<uuid>.webview.localhost:<port>, its sandboxed same-origin
// content frame, then the panel. Theia itself does not run here (stand-in pages with
// Theia's origins and sandbox flags); the browser's CSP check is the real one. The same
// chain under an ordinary web page must be refused.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/run-cli.js';
import { launchChromium } from './browser.js';
import { servePanel, type ServedPanel } from './serve-process.js';

const WAIT = { timeout: 45_000 };
const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'ide-plugins', 'arduino-extension', 'package.json'), 'utf8'));
const defaultEmbedFrom: string[] = manifest.contributes.configuration.properties['boardbridge.embedFrom'].default;
// Theia's webview iframe and its content frame (plugin-ext webview.ts, pre/main.js).
const WEBVIEW_SANDBOX = 'allow-scripts allow-forms allow-same-origin allow-downloads';
const CONTENT_SANDBOX = 'allow-same-origin allow-scripts allow-downloads allow-forms';

let panel: ServedPanel;
let browser: Browser;
let page: Page;
let webviewHost: Server;
let webviewPort: number;

beforeAll(async () => {
  panel = await servePanel(() => ({ turns: [] }), ['--embed-from', ...defaultEmbedFrom]);
  // Serves the webview's index.html and its content frame for any *.webview.localhost host, as Theia's backend does.
  webviewHost = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    if (request.url?.startsWith('/webview/fake.html')) return response.end(`<!doctype html><iframe id="panel" src="${panel.url}" allow="clipboard-read; clipboard-write" style="width:900px;height:600px"></iframe>`);
    response.end(`<!doctype html><iframe src="./fake.html" sandbox="${CONTENT_SANDBOX}" style="width:960px;height:660px"></iframe>`);
  });
  await new Promise<void>((resolve) => webviewHost.listen(0, '127.0.0.1', resolve));
  webviewPort = (webviewHost.address() as AddressInfo).port;
  browser = await launchChromium();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => webviewHost?.close(resolve));
  await panel?.stop();
});

/** The top document holds Theia's webview iframe. */
function topPage(): string {
  const webview = `http://4d2f7a9e-1c3b-4b8e-9f21-0a6c5d7e8b90.webview.localhost:${webviewPort}/webview/index.html`;
  return `<!doctype html><title>IDE window</title><iframe src="${webview}" sandbox="${WEBVIEW_SANDBOX}" style="width:1000px;height:700px"></iframe>`;
}

async function panelFrame(): Promise<Frame | undefined> {
  for (let i = 0; i < 400; i++) {
    const frame = page.frames().find((f) => f.parentFrame()?.url().includes('/webview/fake.html'));
    if (frame && frame.url() !== 'about:blank') return frame;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

describe("the panel framed by the IDE's webview, with the extension's default embedFrom (Theia stand-in pages, real Chromium CSP)", () => {
  it('loads under a file: window → *.webview.localhost webview → sandboxed content frame, as in Arduino IDE 2.x', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bb-ide-window-'));
    writeFileSync(path.join(dir, 'index.html'), topPage());
    await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
    const frame = await panelFrame();
    expect(frame?.url()).toBe(panel.url);
    await frame!.waitForSelector('body[data-ready="true"]', WAIT);
    expect(await frame!.textContent('#agent')).toMatch(/claude/i);
  });

  it('is refused when the same chain sits under an ordinary web page', async () => {
    const site = createServer((_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(topPage());
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const refused = new Promise<string>((resolve) => page.on('console', (m) => m.text().includes('frame-ancestors') && resolve(m.text())));
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
      // The panel answered (the embedding webview's Origin is allowed to load it); the browser then refused the frame.
      expect(await refused).toMatch(/^Framing 'http:\/\/127\.0\.0\.1:\d+\/' violates the following Content Security Policy directive: "frame-ancestors http:\/\/\*\.webview\.localhost:\* file:/);
      const frame = await panelFrame();
      await expect.poll(() => frame?.url(), WAIT).toBe('chrome-error://chromewebdata/');
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });
});
