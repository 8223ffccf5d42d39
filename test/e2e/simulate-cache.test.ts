// `boardbridge simulate` builds in the cache ($XDG_CACHE_HOME/boardbridge/simulate/…), never in the
// sketch folder: the real CLI with Debian's arduino-builder and avr8js, on a copy of examples/Blink.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyOfSketch } from '../rig/sketches.js';
import { cliMain, repoRoot } from './run-cli.js';

describe('boardbridge simulate', { timeout: 300_000 }, () => {
  it('leaves the sketch folder as it was and keeps its build in the cache, reused by the next run', () => {
    const sketch = copyOfSketch(path.join(repoRoot, 'examples', 'Blink'));
    const before = readdirSync(sketch).sort();
    const cache = mkdtempSync(path.join(os.tmpdir(), 'bb-cache-'));
    const env = { PATH: process.env.PATH ?? '', HOME: mkdtempSync(path.join(os.tmpdir(), 'bb-home-')), XDG_CACHE_HOME: cache };
    const simulate = () => spawnSync(process.execPath, [cliMain, 'simulate', sketch, '--fqbn', 'arduino:avr:uno', '--for', '1s', '--json'], { encoding: 'utf8', env, cwd: os.tmpdir() });
    const first = simulate();
    expect(first.status, first.stderr + first.stdout).toBe(0);
    expect((JSON.parse(first.stdout) as { ok: boolean }).ok).toBe(true);
    expect(readdirSync(sketch).sort()).toEqual(before);
    const [folder] = readdirSync(path.join(cache, 'boardbridge', 'simulate'));
    expect(folder).toMatch(/^Blink-[0-9a-f]{12}$/);
    const image = path.join(cache, 'boardbridge', 'simulate', folder, 'arduino.avr.uno', 'Blink.ino.hex');
    expect(existsSync(image)).toBe(true);
    // The same sketch goes to the same folder: one build folder per sketch and board, not one per run.
    expect(simulate().status).toBe(0);
    expect(readdirSync(path.join(cache, 'boardbridge', 'simulate'))).toEqual([folder]);
    expect(readdirSync(sketch).sort()).toEqual(before);
  });
});
