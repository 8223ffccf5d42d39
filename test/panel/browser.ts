// Debian's Chromium, headless, driven by playwright-core with the flags that keep
// it off the network (browser-tests.md in the project's shared docs), and the screenshot folder.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from '../e2e/run-cli.js';

export const screenshotDir = path.join(repoRoot, 'test-artifacts', 'screenshots');

export async function launchChromium(): Promise<Browser> {
  // playwright gives every launch a new empty --user-data-dir of its own.
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}
