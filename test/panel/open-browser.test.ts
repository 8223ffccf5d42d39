// `serve` opens the panel in the person's browser when there is a desktop; the browser
// here is a stand-in script named by $BROWSER (no desktop on this machine), which
// records the URL it was given and, as a real browser would, loads it.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import { browserCommand } from '../../bridge/cli/open-browser.js';
import { standinLaunch, tempSketch } from '../e2e/run-cli.js';
import { startServe } from './serve-process.js';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const agentCommand = [standinLaunch.command, ...standinLaunch.args].map(quote).join(' ');

describe('which browser serve opens', () => {
  it('prefers $BROWSER, opens nothing without a desktop or under CI, else the desktop opener', () => {
    const url = 'http://127.0.0.1:4000/tok/';
    expect(browserCommand(url, { BROWSER: '/usr/bin/firefox', CI: 'true' }, 'linux')).toEqual({ command: ['/usr/bin/firefox', url] });
    expect(browserCommand(url, { CI: 'true', DISPLAY: ':0' }, 'linux')).toEqual({ skipped: 'CI is set' });
    expect(browserCommand(url, {}, 'linux')).toEqual({ skipped: 'no desktop (DISPLAY is not set)' });
    expect(browserCommand(url, { WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toEqual({ command: ['xdg-open', url] });
    expect(browserCommand(url, {}, 'darwin')).toEqual({ command: ['open', url] });
    expect(browserCommand(url, {}, 'win32')).toEqual({ command: ['rundll32', 'url.dll,FileProtocolHandler', url] });
  });

  it('opens only http(s) addresses, normalised, and never hands cmd.exe a URL whose & it would run', () => {
    const desktop = { DISPLAY: ':0' };
    expect(browserCommand('file:///etc/passwd', desktop, 'linux')).toEqual({ skipped: 'only http and https pages are opened, this is a file: address' });
    expect(browserCommand('javascript:alert(1)//&calc.exe', desktop, 'win32')).toEqual({ skipped: 'only http and https pages are opened, this is a javascript: address' });
    expect(browserCommand('not a url', desktop, 'linux')).toEqual({ skipped: 'it is not a valid URL' });
    const windows = browserCommand('https://example.invalid/a b"c&calc.exe', {}, 'win32').command!;
    expect(windows.slice(0, 2)).toEqual(['rundll32', 'url.dll,FileProtocolHandler']);
    expect(windows[2]).toBe('https://example.invalid/a%20b%22c&calc.exe');
    expect(windows).not.toContain('cmd');
  });
});

describe('serve and the browser (a stand-in browser script, no desktop here)', () => {
  it('opens the printed URL in $BROWSER, which can load the panel', async () => {
    const { root, sketch } = tempSketch();
    const seen = path.join(root, 'browser-got.txt');
    const browser = path.join(root, 'browser.sh');
    // Records its argument, then fetches it as a browser would (curl is not needed: node is).
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > ${quote(seen)}.part\n${quote(process.execPath)} -e "fetch(process.argv[1]).then(r => require('fs').writeFileSync(process.argv[2], String(r.status)))" "$1" ${quote(seen)}.status\nmv ${quote(seen)}.part ${quote(seen)}\n`);
    chmodSync(browser, 0o755);
    const served = await startServe([sketch, '--agent-command', agentCommand], { ...process.env, BROWSER: browser, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') });
    try {
      await until('the stand-in browser to have run', () => existsSync(seen));
      expect(readFileSync(seen, 'utf8')).toBe(served.url);
      expect(readFileSync(`${seen}.status`, 'utf8')).toBe('200');
      expect(served.output()).toContain(`(opened with ${browser})`);
    } finally {
      await served.stop();
    }
  });

  it('prints the URL and opens nothing with --no-open', async () => {
    const { root, sketch } = tempSketch();
    const seen = path.join(root, 'browser-got.txt');
    const browser = path.join(root, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > ${quote(seen)}\n`);
    chmodSync(browser, 0o755);
    const served = await startServe([sketch, '--no-open', '--agent-command', agentCommand], { ...process.env, BROWSER: browser, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') });
    try {
      expect(served.output()).toContain(served.url);
    } finally {
      await served.stop();
    }
    expect(existsSync(seen)).toBe(false);
    expect(served.output()).not.toContain('opened with');
  });
});
