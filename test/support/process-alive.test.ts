// The tests' check that a process ended: a zombie (ended, not yet collected by its parent
// or by pid 1) is ended. Found as a retried "terminal's command is gone after a SIGKILL"
// on a loaded machine, where pid 1 collected the killed bridge's orphans late.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { until } from './until.js';
import { alive } from './process-alive.js';

const state = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];

describe.skipIf(process.platform !== 'linux')('alive', () => {
  it('counts a zombie as ended, for a pid and for its group', async () => {
    // `sleep 0` ends at once, and the `sleep 30` its shell became never collects it.
    const parent = spawn('/bin/sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
      await until('the child to be a zombie', () => state(zombie) === 'Z', { stepMs: 10, detail: () => `state: ${state(zombie)}` });
      expect(state(zombie)).toBe('Z');
      expect(alive(zombie)).toBe(false);
      expect(alive(parent.pid!)).toBe(true);
      expect(alive(-parent.pid!)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
    await new Promise((resolve) => parent.once('exit', resolve));
    expect(alive(parent.pid!)).toBe(false);
  });
});
