// OpenMV figures (printed, never pass/fail):
// 1. Analysis time per fixture script: the first call (lezer parse + checks, warm module) and the
//    median of repeated calls.
// 2. Time from process start to the printed context of the camera-drive fixture, spawning this
//    file with `--once` (node start-up, module loading, detect, load, render).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeScript } from '../context-providers/openmv/analyze-script.js';
import { lookupBoard } from '../context-providers/openmv/board-facts.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(repo, 'test', 'fixtures', 'openmv');
const runs = Number(process.env.BENCH_RUNS ?? 50);

if (process.argv[2] === '--once') {
  const { openmvProvider } = await import('../context-providers/openmv/provider.js');
  const project = await openmvProvider.detect(process.argv[3]);
  if (!project) throw new Error(`${process.argv[3]}: not an OpenMV project`);
  process.stdout.write(openmvProvider.render(await openmvProvider.load(project, { board: 'OPENMV4' })));
  process.stderr.write(`once-ms ${performance.now().toFixed(1)}\n`);
  process.exit(0);
}

const ms = (value: number): string => `${value.toFixed(value < 10 ? 3 : 1)} ms`;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const board = lookupBoard('OPENMV4');
if (!board.ok) throw new Error(board.message);

console.log(`OpenMV script analysis on ${board.board.name} (median of ${runs} runs after the first)`);
for (const name of readdirSync(join(fixtures, 'scripts')).sort()) {
  const text = readFileSync(join(fixtures, 'scripts', name), 'utf8');
  const times: number[] = [];
  let findings = 0;
  for (let i = 0; i <= runs; i++) {
    const start = performance.now();
    findings = analyzeScript(text, { board: board.board, file: name }).findings.length;
    times.push(performance.now() - start);
  }
  const [first, ...rest] = times;
  console.log(`  ${name.padEnd(28)} ${String(text.split('\n').length).padStart(3)} lines  first ${ms(first).padStart(10)}  median ${ms(median(rest)).padStart(9)}  ${findings} findings`);
}

// A long script: the same set-up repeated, to show how analysis grows with size.
const long = Array.from({ length: 200 }, (_, i) => readFileSync(join(fixtures, 'scripts', 'vga_rgb565_h7.py'), 'utf8').replace(/while True:[\s\S]*$/, `x${i} = ${i}\n`)).join('\n');
const longTimes = Array.from({ length: 10 }, () => {
  const start = performance.now();
  analyzeScript(long, { board: board.board });
  return performance.now() - start;
});
console.log(`  ${'(200 set-ups concatenated)'.padEnd(28)} ${String(long.split('\n').length).padStart(5)} lines  median ${ms(median(longTimes))}`);

const self = fileURLToPath(import.meta.url);
const drive = join(fixtures, 'camera-drive');
const cold: number[] = [];
const inside: number[] = [];
for (let i = 0; i < 5; i++) {
  const start = performance.now();
  const child = spawnSync(process.execPath, [self, '--once', drive], { encoding: 'utf8' });
  cold.push(performance.now() - start);
  if (child.status !== 0) throw new Error(`--once failed: ${child.stderr}`);
  inside.push(Number(/once-ms ([\d.]+)/.exec(child.stderr)?.[1] ?? NaN));
}
console.log(`cold process to the camera-drive context (OPENMV4, main.py + openmv.config): median ${ms(median(cold))} wall, ${ms(median(inside))} inside the process`);
