// `boardbridge context` on projects where a file it reads is a FIFO (a serial capture
// piped into the sketch folder, a leftover of a tool): the open blocked until something
// wrote to the FIFO, so the context, and a session starting on the workspace, hung. Each
// run is a real CLI process with a timeout, so a regression fails instead of hanging the suite.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliMain, repoRoot } from '../e2e/run-cli.js';
import { FIXTURES_ROOT } from '../support/fixtures.js';


function context(args: string[], root: string) {
  const run = spawnSync(process.execPath, [cliMain, 'context', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
  });
  expect(run.signal, `boardbridge context ${args.join(' ')} did not end: a FIFO blocked it`).toBeNull();
  return run;
}

const fifo = (file: string) => {
  rmSync(file, { force: true });
  execFileSync('mkfifo', [file]);
};

describe.skipIf(process.platform === 'win32')('boardbridge context with a FIFO in the project', () => {
  it('an Arduino sketch whose second .ino and sketch.yaml are FIFOs: the context, naming each as a FIFO', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'bb-fifo-'));
    const sketch = path.join(root, 'Blink');
    cpSync(path.join(repoRoot, 'examples', 'Blink'), sketch, { recursive: true });
    fifo(path.join(sketch, 'capture.ino'));
    fifo(path.join(sketch, 'sketch.yaml'));
    const run = context([sketch, '--fqbn', 'arduino:avr:uno'], root);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${path.join(sketch, 'capture.ino')}: cannot be read (a FIFO (named pipe), not a regular file)`);
    expect(run.stdout + run.stderr).toContain(`${path.join(sketch, 'sketch.yaml')}: cannot be read (a FIFO (named pipe), not a regular file)`);
  });

  it('an MPLAB X project whose configurations.xml is a FIFO', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'bb-fifo-'));
    const project = path.join(root, 'demo.X');
    cpSync(path.join(FIXTURES_ROOT, 'mplabx', 'pic18f47q10-curiosity-hpc-demo-code.X'), project, { recursive: true });
    fifo(path.join(project, 'nbproject', 'configurations.xml'));
    const run = context([project], root);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${path.join(project, 'nbproject', 'configurations.xml')}: cannot be read (a FIFO (named pipe), not a regular file); the project cannot be read fully`);
  });

  it('an OpenMV script beside an openmv.config that is a FIFO', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'bb-fifo-'));
    const drive = path.join(root, 'drive');
    mkdirSync(drive);
    cpSync(path.join(repoRoot, 'test', 'fixtures', 'openmv', 'scripts', 'vga_rgb565_h7.py'), path.join(drive, 'main.py'));
    fifo(path.join(drive, 'openmv.config'));
    const run = context([drive, '--board', 'OPENMV4'], root);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('OpenMV Cam H7');
  });
});
