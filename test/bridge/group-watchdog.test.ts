// The watchdog that ends a child's process group when the bridge dies, with real processes:
// a stand-in bridge (a Node process that uses the built watchdog as the bridge does, and
// nothing else of it) starts a detached `sleep` and is killed with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive } from '../support/process-alive.js';
import { until } from '../support/until.js';

const watchdogModule = path.resolve(__dirname, '..', '..', 'dist', 'bridge', 'services', 'terminal', 'group-watchdog.js');

// argv: the module, then "tell" (watch the child's group, as the bridge does right after the
// spawn) or "never" (the bridge killed before it could). Prints the child's pid and the mark.
const STAND_IN = `
  import { spawn } from 'node:child_process';
  const { startWatchdog } = await import(process.argv[1]);
  const watchdog = startWatchdog();
  const child = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore', env: { ...process.env, ...watchdog.env } });
  if (process.argv[2] === 'tell') watchdog.watch(child.pid);
  process.stdout.write(JSON.stringify({ pid: child.pid, mark: Object.values(watchdog.env)[0] }) + '\\n');
  setInterval(() => undefined, 1000);
`;

let started: number[] = [];
afterEach(() => {
  for (const pid of started) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // ended
    }
  }
  started = [];
});

async function standInBridge(tell: 'tell' | 'never'): Promise<{ bridge: ChildProcess; pid: number; mark: string }> {
  const bridge = spawn(process.execPath, ['--input-type=module', '-e', STAND_IN, watchdogModule, tell], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  bridge.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const line = await until('the stand-in bridge to start its child', () => (out.includes('\n') ? out : bridge.exitCode !== null ? 'exited' : undefined));
  if (line === 'exited') throw new Error(`the stand-in bridge exited with code ${bridge.exitCode}`);
  const { pid, mark } = JSON.parse(line) as { pid: number; mark: string };
  started.push(pid);
  return { bridge, pid, mark };
}

/** The watchdog with this mark (its command line holds it), if it still runs. */
function watchdogOf(mark: string): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes(mark) && alive(Number(name))) return Number(name);
    } catch {
      // ended meanwhile
    }
  }
  return undefined;
}

describe.skipIf(process.platform !== 'linux')('the group watchdog of a killed bridge', () => {
  it('ends the group it was told of', async () => {
    const { bridge, pid } = await standInBridge('tell');
    expect(alive(pid)).toBe(true);
    bridge.kill('SIGKILL');
    await until('the child to end', () => !alive(-pid));
  });

  it('ends the group of a child it was never told of (the bridge killed between the spawn and telling it), by its mark, and nothing else', async () => {
    const bystander = spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' });
    started.push(bystander.pid!);
    const { bridge, pid, mark } = await standInBridge('never');
    const watchdog = watchdogOf(mark);
    expect(watchdog).toBeDefined();
    expect(alive(pid)).toBe(true);
    bridge.kill('SIGKILL');
    await until('the child to end', () => !alive(-pid));
    await until('the watchdog to exit', () => !alive(watchdog!));
    expect(alive(bystander.pid!)).toBe(true);
  });
});
