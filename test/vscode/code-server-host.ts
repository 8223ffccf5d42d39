// One code-server (VS Code in the browser, installed once by test/setup/code-server.sh into a
// cache folder outside the clone) with the freshly built .vsix installed by
// `code-server --install-extension`, and the workbench open in Debian's Chromium on a sketch
// folder. When the cached install failed the tests that use it are skipped and say why; when
// the set-up never ran they fail and say how to run it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { repoRoot } from '../e2e/run-cli.js';
import { launchChromium } from '../panel/browser.js';
import { agentEntryPoints } from '../support/agents.js';
import { until } from '../support/until.js';

const cache = process.env.BOARDBRIDGE_CACHE ?? '/var/cache/boardbridge';
const codeServerDir = path.join(cache, 'code-server');
const codeServer = path.join(codeServerDir, 'bin', 'code-server');
const node24 = path.join(cache, 'node24', 'node_modules', `node-linux-${process.arch}`, 'bin');

/** Why the cached install failed, when it did (the tests are skipped then). */
export const codeServerFailed = existsSync(path.join(codeServerDir, 'failed')) ? readFileSync(path.join(codeServerDir, 'failed'), 'utf8').trim() : undefined;
const installed = existsSync(path.join(codeServerDir, 'installed')) && existsSync(codeServer);
/** Skip only when the install was tried and failed, never because it was not tried. */
export const skipCodeServer = !installed && codeServerFailed !== undefined;
if (skipCodeServer) console.warn(`code-server tests skipped: the cached install failed:\n${codeServerFailed}`);

export const WAIT = { timeout: 120_000 };

export interface CodeServerHost {
  page: Page;
  userData: string;
  /** The boardbridge panel's frame inside the view's webview, once it is there. */
  panel(): Frame | undefined;
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Builds and installs the .vsix in a new profile under `root` with these user settings (plus
 * those every run needs), starts code-server on `sketch` with `env` (Node 24 first on PATH,
 * no node_modules/.bin: the extension runs its bundled bridge) and opens it in Chromium.
 */
export async function openCodeServer(root: string, sketch: string, settings: Record<string, unknown>, env: NodeJS.ProcessEnv): Promise<CodeServerHost> {
  if (!installed) throw new Error(`code-server is not installed in ${codeServerDir}: run bash test/setup/code-server.sh (test/ci.sh does)`);
  const vsix = path.join(root, 'boardbridge-arduino.vsix');
  execFileSync(process.execPath, [path.join(repoRoot, 'ide-plugins', 'arduino-extension', 'build-vsix.mjs'), '--out', vsix], { stdio: 'pipe' });
  const userData = path.join(root, 'code-user');
  const extensions = path.join(root, 'code-extensions');
  const port = await freePort();
  mkdirSync(path.join(userData, 'User'), { recursive: true });
  writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({
    // No boardbridge.embedFrom: the default must work in code-server, whose webviews are pages of its own origin.
    ...settings,
    'workbench.startupEditor': 'none',
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'update.mode': 'none',
  }));
  // The checkout's claude-code-acp and Gemini CLI where `npm install -g` would put them: a person's
  // PATH, so the agents the extension starts are found there and run offline, not fetched by npx.
  const globalBin = path.join(root, 'global-bin');
  mkdirSync(globalBin, { recursive: true });
  for (const [name, agent] of [['claude-code-acp', 'claude-code-acp'], ['gemini', 'gemini']] as const) {
    writeFileSync(path.join(globalBin, name), `#!/bin/sh\nexec '${process.execPath}' '${agentEntryPoints[agent]}' "$@"\n`, { mode: 0o755 });
  }
  const hostEnv = { ...env, PATH: [node24, globalBin, ...(env.PATH ?? '').split(':').filter((d) => d && !d.includes('node_modules'))].join(':') };
  // VS Code's server gives extensions the environment of a login shell it runs (as a person's
  // desktop does), where /etc/profile sets PATH anew: the profile's ~/.profile puts ours back.
  if (env.HOME?.startsWith(root)) writeFileSync(path.join(env.HOME, '.profile'), `export PATH='${hostEnv.PATH}'\n`);
  const common = ['--user-data-dir', userData, '--extensions-dir', extensions];
  execFileSync(codeServer, [...common, '--install-extension', vsix], { env: hostEnv, stdio: 'pipe' });
  let log = '';
  const server: ChildProcess = spawn(codeServer, [...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', sketch], { env: hostEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  server.stdout!.setEncoding('utf8').on('data', (t: string) => (log += t));
  server.stderr!.setEncoding('utf8').on('data', (t: string) => (log += t));
  await until('code-server to print "HTTP server listening"', () => log.includes('HTTP server listening'), { timeoutMs: 60_000, stepMs: 100, detail: () => `its log ends:\n${log.slice(-3000)}` });
  const browser: Browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(sketch)}`, WAIT);
  await page.waitForSelector('.monaco-workbench', WAIT);
  return {
    page,
    userData,
    panel: () => page.frames().find((f) => /^http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/$/.test(f.url()) && !f.url().includes(`:${port}/`)),
    log: () => log,
    close: async () => {
      await browser.close();
      if (server.pid) {
        try {
          process.kill(-server.pid, 'SIGTERM');
        } catch {
          // gone already
        }
      }
      // The extension's bridge runs detached and outlives its IDE by boardbridge.idleExitSeconds:
      // end it (it ends its agent) with the test, found by the test's own folder on its command line.
      endProcessesUnder(root);
      // The extension's bridge and its agent may still be writing as they leave: a temp folder left behind is no failure.
      try {
        rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch {
        // removed with the machine's /tmp
      }
    },
  };
}

/** Sends SIGTERM to every process of this user whose command line names `folder`. */
function endProcessesUnder(folder: string): void {
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(folder)) process.kill(pid, 'SIGTERM');
    } catch {
      // gone meanwhile, or not ours
    }
  }
}
