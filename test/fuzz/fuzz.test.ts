// The seeded fuzz suite: mutated real files (boards.txt/platform.txt, MPLAB X
// configurations.xml, .mplab.json, OpenMV scripts) and mutated recordings of what real
// agents sent, each target in its own node process (test/fuzz/run-fuzz.mjs) so an input
// that hangs can be killed and written out. FUZZ_COUNT inputs per target (1,000 here,
// 100,000 with `npm run fuzz`), from seed FUZZ_SEED (1); failing inputs go to
// test-artifacts/fuzz/ with their seed.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURES_ROOT } from '../support/fixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const runner = path.join(here, 'run-fuzz.mjs');
/** The runner finds the fixtures where the suite does. */
const runnerEnv = { ...process.env, BOARDBRIDGE_FIXTURES: FIXTURES_ROOT };
const COUNT = Number(process.env.FUZZ_COUNT ?? 1000);
const FIRST = Number(process.env.FUZZ_SEED ?? 1);
/** No output for this long means the input that started last hangs. */
const HANG_MS = Number(process.env.FUZZ_HANG_MS ?? 30_000);
const TARGETS = ['properties', 'openmv', 'mplabx-configurations', 'mplab-json', 'acp'];

interface Failure {
  seed: number;
  reason: string;
  file: string;
}

interface Summary {
  inputs: number;
  failures: number;
  ms: number;
  slowestMs: number;
}

// Runs seeds [from, from+count); on a hang or a dead runner, writes that input out and goes on after it.
async function fuzz(target: string, from: number, count: number, failures: Failure[], summaries: Summary[]): Promise<void> {
  const child = spawn(process.execPath, [runner, target, String(count), String(from)], { stdio: ['ignore', 'pipe', 'inherit'], env: runnerEnv });
  let started = from;
  let pending = '';
  let timer: NodeJS.Timeout;
  const hung = new Promise<'hung'>((resolve) => {
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => resolve('hung'), HANG_MS);
    };
    arm();
    child.stdout!.on('data', (text: Buffer) => {
      arm();
      const lines = (pending + text.toString()).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('start ')) started = Number(line.slice(6));
        else if (line.startsWith('{')) {
          const message = JSON.parse(line) as { failure?: Failure; summary?: Summary };
          if (message.failure) failures.push(message.failure);
          if (message.summary) summaries.push(message.summary);
        }
      }
    });
  });
  const exited = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? String(code))));
  const outcome = await Promise.race([hung, exited]);
  clearTimeout(timer!);
  if (outcome === '0') return;
  if (outcome === 'hung') {
    child.kill('SIGKILL');
    await exited;
  }
  // A hang, or a runner that died (out of memory, a native crash) on the input it started last.
  const reason = outcome === 'hung' ? `no answer within ${HANG_MS} ms (hangs)` : `the runner died (${outcome}) on this input`;
  const written = spawnSync(process.execPath, [runner, target, '1', String(started), '--write-only'], { encoding: 'utf8', env: { ...runnerEnv, FUZZ_REASON: reason } });
  failures.push({ seed: started, reason, file: written.stdout.trim() });
  const rest = from + count - (started + 1);
  if (rest > 0) await fuzz(target, started + 1, rest, failures, summaries);
}

describe(`the fuzz suite (${COUNT} seeded inputs per target from seed ${FIRST})`, () => {
  it.each(TARGETS)('%s: no input throws, hangs or grows without bound', async (target) => {
    const failures: Failure[] = [];
    const summaries: Summary[] = [];
    await fuzz(target, FIRST, COUNT, failures, summaries);
    const ran = summaries.reduce((n, s) => n + s.inputs, 0);
    const ms = summaries.reduce((n, s) => n + s.ms, 0);
    const slowest = Math.max(0, ...summaries.map((s) => s.slowestMs));
    process.stdout.write(`fuzz ${target}: ${ran} inputs from seed ${FIRST}, ${failures.length} failures, ${ms} ms, slowest input ${slowest} ms\n`);
    expect(failures).toEqual([]);
    expect(ran).toBe(COUNT);
  }, COUNT * 60 + 120_000);
});
