// Bounded in-process work (issue 21, finding 5), written as the attacks: a FIFO as the --vcd
// file, and a trace limit of 10^12 changes. Both run the real CLI as a child process, so a
// regression that blocks (a FIFO opened by nobody) or grows without end fails on the child's
// kill guard instead of hanging or starving this test process.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIMULATION_LIMITS } from '../../../boards/simulate/limits.js';
import { cliMain } from '../../e2e/run-cli.js';
import { sketchFolder } from '../../rig/sketches.js';
import { SERIAL_TEXT } from '../../rig/simulate-sketches.js';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** `boardbridge simulate …` in `cwd`; killed after `guardMs` (a guard against hanging, not a time assertion). */
function simulateCli(args: string[], cwd: string, guardMs = 90_000): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliMain, 'simulate', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), guardMs);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, output });
    });
  });
}

describe('simulate refuses output paths and sizes that would block or exhaust the bridge', () => {
  it('a FIFO as the --vcd file is refused before anything runs, with what to give instead', async () => {
    const sketch = sketchFolder('Hello', SERIAL_TEXT);
    const fifo = join(dirname(sketch), 'trace.vcd');
    execFileSync('mkfifo', [fifo]);
    const run = await simulateCli([sketch, '--fqbn', 'arduino:avr:uno', '--vcd', 'trace.vcd'], dirname(sketch));
    expect(run.signal).toBeNull();
    expect(run.code).not.toBe(0);
    expect(run.output).toContain(`--vcd trace.vcd: ${fifo} is a FIFO (named pipe), not a regular file`);
    expect(run.output).not.toContain('Compiling');
  });

  it('a character device as the --vcd file is refused the same way', async () => {
    const sketch = sketchFolder('Hello', SERIAL_TEXT);
    const run = await simulateCli([sketch, '--fqbn', 'arduino:avr:uno', '--vcd', '/dev/null'], dirname(sketch));
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('--vcd /dev/null: /dev/null is a device, not a regular file');
  });

  it('--trace-limit 1000000000000 --json on the CLI ends at once with the one limit every path has', async () => {
    const sketch = sketchFolder('Hello', SERIAL_TEXT);
    const run = await simulateCli([sketch, '--fqbn', 'arduino:avr:uno', '--trace-limit', '1000000000000', '--json'], dirname(sketch));
    expect(run.signal).toBeNull();
    expect(run.code).not.toBe(0);
    expect(run.output).toContain(`--trace-limit 1000000000000: a result lists at most ${SIMULATION_LIMITS.traceChanges} pin changes`);
    expect(run.output).toContain('--vcd');
  });

  it('writes the VCD through a temporary file renamed over the old one, leaving no temporary behind', async () => {
    const sketch = sketchFolder('Hello', SERIAL_TEXT);
    const vcd = join(dirname(sketch), 'trace.vcd');
    writeFileSync(vcd, 'the previous trace\n');
    const run = await simulateCli([sketch, '--fqbn', 'arduino:avr:uno', '--for', '50ms', '--vcd', 'trace.vcd'], dirname(sketch));
    expect(run.code, run.output).toBe(0);
    expect(readFileSync(vcd, 'utf8')).toMatch(/^\$date .*\$end\n\$version boardbridge simulate/);
    expect(readdirSync(dirname(sketch)).filter((name) => name.endsWith('.boardbridge-tmp'))).toEqual([]);
    expect(existsSync(vcd)).toBe(true);
  });
});
