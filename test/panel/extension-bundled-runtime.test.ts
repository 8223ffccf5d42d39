// Which program the extension runs as its bridge: the boardbridge.command setting, else the
// bridge bundled in the .vsix on the IDE's own executable, else boardbridge on PATH; and an
// IDE whose runtime is too old for the bundled bridge gets a message saying what to do, not
// the bundle's SyntaxError (measured: the bundle fails to load on Node 18.17.1, the runtime of
// Arduino IDE 2.3.0–2.3.4, and starts on 18.19.0).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../e2e/run-cli.js';

const { bridgeCommand } = createRequire(import.meta.url)(path.join(repoRoot, 'ide-plugins', 'arduino-extension', 'src', 'bridge-process.js')) as {
  bridgeCommand: (configured: string[], extensionPath: string | undefined, hostNode?: string) => { command: string[]; env: Record<string, string> };
};

// An installed extension's folder with its bundled bridge where build-vsix.mjs puts it.
const extension = mkdtempSync(path.join(os.tmpdir(), 'bb-extension-'));
const bundled = path.join(extension, 'bridge', 'dist', 'cli', 'boardbridge.cjs');
mkdirSync(path.dirname(bundled), { recursive: true });
writeFileSync(bundled, '');
afterAll(() => rmSync(extension, { recursive: true, force: true }));

describe('the program the extension runs as its bridge', () => {
  it('is the bundled bridge on the IDE executable, run as Node, when the setting is empty', () => {
    expect(bridgeCommand([], extension, '20.14.0')).toEqual({ command: [process.execPath, bundled], env: { ELECTRON_RUN_AS_NODE: '1' } });
    expect(bridgeCommand([], extension, '18.19.0').command).toEqual([process.execPath, bundled]);
    expect(bridgeCommand([], extension).command).toEqual([process.execPath, bundled]);
  });

  it('is the boardbridge.command setting when it is set, on any runtime', () => {
    expect(bridgeCommand(['npx', 'boardbridge'], extension, '18.12.1')).toEqual({ command: ['npx', 'boardbridge'], env: {} });
  });

  it('is boardbridge on PATH for the extension run from its sources (no bundled bridge)', () => {
    expect(bridgeCommand([], path.join(extension, 'missing'), '18.12.1')).toEqual({ command: ['boardbridge'], env: {} });
  });

  it('refuses an IDE runtime older than the bundled bridge needs, saying which IDE versions work and what to set instead', () => {
    for (const old of ['18.17.1', '18.12.1', '18.15.0', '16.20.2']) {
      expect(() => bridgeCommand([], extension, old)).toThrow(
        `This IDE runs extensions on Node.js ${old}; the boardbridge bridge in this extension needs Node.js 18.19.0 or newer (Arduino IDE 2.3.5 or later, VS Code 1.90 or later). Update the IDE, or install boardbridge on a newer Node.js (npm install -g boardbridge) and set boardbridge.command to it, e.g. ["boardbridge"] or ["npx", "boardbridge"].`,
      );
    }
  });
});
