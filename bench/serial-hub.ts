// Floods a socat pty pair and prints how fast the serial hub drains it compared with `cat`
// reading the same pty, and the hub's peak memory with three readers against idle.
// Prints figures only; targets (issue 4): ≥ 0.8 of cat's throughput, memory within 20 MB of idle.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialHub } from '../boards/serial/hub.js';

const FLOOD_BYTES = Number(process.env.FLOOD_MB ?? 32) * 1024 * 1024;
const RUNS = Number(process.env.RUNS ?? 3);
const BLOCK = 64 * 1024;

async function ptyPair(): Promise<{ device: string; board: string; socat: ChildProcess }> {
  const dir = mkdtempSync(join(tmpdir(), 'bb-bench-'));
  const device = join(dir, 'device');
  const board = join(dir, 'board');
  const socat = spawn('socat', [`pty,raw,echo=0,link=${device}`, `pty,raw,echo=0,link=${board}`], { stdio: 'ignore' });
  while (!existsSync(device) || !existsSync(board)) await new Promise((resolve) => setTimeout(resolve, 20));
  return { device, board, socat };
}

/** A separate process writes, so the writer never competes with the reader's event loop. */
function flood(board: string): ChildProcess {
  return spawn('dd', [`if=/dev/zero`, `of=${board}`, `bs=${BLOCK}`, `count=${FLOOD_BYTES / BLOCK}`], { stdio: 'ignore' });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
}

/** `cat` reads the pty; `head` counts the bytes and says "done" (cat itself would wait forever). */
async function catRun(): Promise<number> {
  const { device, board, socat } = await ptyPair();
  const pipeline = spawn('sh', ['-c', `cat "${device}" | { head -c ${FLOOD_BYTES} > /dev/null; echo done; }`], {
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  const done = new Promise<void>((resolve) => pipeline.stdout!.on('data', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 100));
  const start = process.hrtime.bigint();
  const writer = flood(board);
  await done;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  process.kill(-pipeline.pid!, 'SIGTERM');
  await exited(writer);
  socat.kill();
  return FLOOD_BYTES / seconds;
}

interface HubRun {
  bytesPerSecond: number;
  idleRss: number;
  peakRss: number;
  missed: number[];
}

async function hubRun(): Promise<HubRun> {
  const { device, board, socat } = await ptyPair();
  const hub = new SerialHub();
  const lease = await hub.open(device, { baudRate: 115200 }, 'bench');
  const readers = [lease.reader(), lease.reader(), lease.reader()];
  global.gc?.();
  const idleRss = process.memoryUsage().rss;
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
  const start = process.hrtime.bigint();
  const writer = flood(board);
  const drained = readers.map(async (reader) => {
    let seen = 0;
    let missed = 0;
    while (seen < FLOOD_BYTES) {
      const chunk = await reader.next();
      seen += chunk.data.length + chunk.missed;
      missed += chunk.missed;
    }
    return missed;
  });
  const missed = await Promise.all(drained);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  await exited(writer);
  await hub.close();
  socat.kill();
  return { bytesPerSecond: FLOOD_BYTES / seconds, idleRss, peakRss, missed };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const cat: number[] = [];
const hub: HubRun[] = [];
for (let run = 0; run < RUNS; run++) {
  cat.push(await catRun());
  hub.push(await hubRun());
}
const catRate = median(cat);
const hubRate = median(hub.map((run) => run.bytesPerSecond));
console.log(`serial hub bench: ${mb(FLOOD_BYTES)} through a socat pty pair, ${RUNS} runs, medians`);
console.log(`  cat reading the pty:      ${mb(catRate)}/s`);
console.log(`  hub, three readers:       ${mb(hubRate)}/s  (${(hubRate / catRate).toFixed(2)} of cat; target >= 0.80)`);
const growth = hub.map((run) => run.peakRss - run.idleRss);
const steady = growth.length > 1 ? Math.max(...growth.slice(1)) : growth[0];
console.log(`  RSS idle (port open):     ${mb(median(hub.map((run) => run.idleRss)))}`);
console.log(`  RSS peak during flood:    ${mb(Math.max(...hub.map((run) => run.peakRss)))}`);
// The first flood also grows V8's young generation to its default size (node's
// --max-semi-space-size); later floods show what the hub itself holds.
console.log(`  growth, first flood:      +${mb(growth[0])}`);
console.log(`  growth, later floods:     +${mb(steady)}  (target <= 20 MB)`);
console.log(`  bytes readers missed:     ${hub.map((run) => run.missed.join('/')).join(', ')} (1 MiB ring per port)`);
