// Arduino context figures (printed, never pass/fail):
// 1. stm32duino's boards.txt (17,410 lines): cold parse + first resolve, then cold (first) and
//    warm (repeat) resolution of every board, and warm resolution of every menu option.
// 2. Time from process start to the printed Uno context, spawning the CLI people run
//    (`node dist/cli/boardbridge.cjs context --fqbn arduino:avr:uno <sketch>`), each run paired with
//    a `node -e 0`; then the provider alone (this file as a child with `--once`), printed beside it.
//    Targets: cold STM32 < 50 ms, warm < 1 ms.
// 3. The UNO R4, Pico and a Nucleo from a cold process: without the on-disk caches, after a
//    sketch edit (only the board stored) and with the context stored, as ratios to `node -e 0`
//    (each run paired with one, as the Uno's are).
//    "First run" is a project's first context (no stored context, board or library scan), with the
//    context command's code cache kept from an earlier run (bridge/cli/code-cache.ts, as Node 22's
//    compile cache is); the "no code cache either" rows are the first command after an install or
//    upgrade (NODE_DISABLE_COMPILE_CACHE=1).
// `--cli-only`: the command line's RESULT rows alone, parts 2 and 3 without the provider's own
// timings (run-all.ts runs it again under Node 22 and Node 24 this way).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverPlatforms } from '../platform/arduino/platforms.js';
import { resolveFqbn } from '../platform/arduino/resolve.js';
import { fixture } from '../test/support/fixtures.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The command people run: the npm package's bin, the bundle (scripts/bundle-cli.mjs).
const cli = join(repo, 'dist', 'cli', 'boardbridge.cjs');
const stm32 = fixture('arduino', 'stm32duino');
const sketch = join(repo, 'test', 'fixtures', 'arduino', 'sketches', 'Blink');
// Pairs per row. Seven moved a goal row by ±0.15× between runs of one build (a Node 24 stored
// context read 1.38× once and 1.14× with fifteen pairs); fifteen cost a Node line some 25 s.
const runs = Number(process.env.BENCH_RUNS ?? 15);

if (process.argv[2] === '--once') {
  const { arduinoProvider } = await import('../context-providers/arduino/provider.js');
  const project = await arduinoProvider.detect(process.argv[3]);
  if (!project) throw new Error(`${process.argv[3]}: not a sketch folder`);
  process.stdout.write(arduinoProvider.render(await arduinoProvider.load(project, { board: 'arduino:avr:uno' })));
  const cpu = process.cpuUsage();
  process.stderr.write(`once-ms ${performance.now().toFixed(1)}\ncpu-ms ${((cpu.user + cpu.system) / 1000).toFixed(1)}\n`);
  process.exit(0);
}

const cliOnly = process.argv[2] === '--cli-only';
const ms = (value: number): string => `${value.toFixed(value < 10 ? 3 : 1)} ms`;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** A run timed with a node -e 0 just before it; the median of the pairs' ratios is the figure. */
interface Paired {
  elapsed: number;
  start: number;
}
const paired = (run: () => number): Paired => {
  const start = spawnTimed(['-e', '0']).elapsed;
  return { elapsed: run(), start };
};
const pairRatio = (pairs: Paired[]): number => median(pairs.map((p) => p.elapsed / p.start));

// stm32duino's files are plain boards.txt/platform.txt; lay them out as a sketchbook platform.
const hardware = join(repo, '.tmp', 'bench-arduino', 'hardware', 'STMicroelectronics', 'stm32');
if (!existsSync(join(hardware, 'boards.txt'))) {
  mkdirSync(hardware, { recursive: true });
  for (const file of ['boards.txt', 'platform.txt']) cpSync(join(stm32, file), join(hardware, file));
}
const options = { dataDirs: [], sketchbookDirs: [join(repo, '.tmp', 'bench-arduino')], includeDebian: false, home: join(repo, '.tmp', 'bench-arduino') };

// A fixed CPU loop, so figures taken on a busy machine can be read against an idle one.
const calibrationStart = performance.now();
let calibration = 0;
for (let index = 0; index < 1e7; index++) calibration += index % 7;
process.stdout.write(`calibration: 10M-iteration loop ${ms(performance.now() - calibrationStart)} (checksum ${calibration}); load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores\n\n`);

if (!cliOnly) await stm32Figures();

// Blink with a sketch.yaml that names the board.
const yamlSketch = join(repo, '.tmp', 'bench-arduino', 'YamlBlink');
mkdirSync(yamlSketch, { recursive: true });
writeFileSync(join(yamlSketch, 'YamlBlink.ino'), readFileSync(join(sketch, 'Blink.ino')));
writeFileSync(join(yamlSketch, 'sketch.yaml'), 'default_fqbn: arduino:avr:uno\n');

// A copy of Blink that each "after a sketch edit" run changes, with a later mtime than the last.
const editedSketch = join(repo, '.tmp', 'bench-arduino', 'EditedBlink');
mkdirSync(editedSketch, { recursive: true });
const blinkText = readFileSync(join(sketch, 'Blink.ino'), 'utf8');
const editSketch = (run: number): void => {
  const file = join(editedSketch, 'EditedBlink.ino');
  writeFileSync(file, `${blinkText}\n// edit ${run}\n`);
  utimesSync(file, new Date(), new Date(Date.now() + (run + 1) * 1000));
};
const baseline: number[] = [];
for (let run = 0; run < runs; run++) baseline.push(spawnTimed(['-e', '0']).elapsed);
process.stdout.write(`\nUno context from a cold process (${runs} runs)\n  node -e 0 (start-up alone): median ${ms(median(baseline))}\n`);
// The Uno rows time the CLI people run; when it cannot print the Uno's context, the rows say
// "not measured" and why, and the bench exits 1 (it used to time another path without a word).
const unoRun = (folder: string, env: Record<string, string>, named = true): number => {
  const result = spawnTimed([cli, 'context', ...(named ? ['--fqbn', 'arduino:avr:uno'] : []), folder], env);
  if (result.status !== 0 || !result.stdout.includes('Arduino UNO')) {
    const why = result.status !== 0 ? `exited ${result.status}: ${result.stderr.trim().split('\n').pop()}` : `printed no "Arduino UNO" (${JSON.stringify(result.stdout.slice(0, 120))})`;
    throw new Error(`node ${cli} context --fqbn arduino:avr:uno ${folder} ${why}`);
  }
  return result.elapsed;
};
try {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: npm run build (tsc, then scripts/bundle-cli.mjs) builds it`);
  // Each run paired with a node -e 0 just before it: the ratio of each pair, then the median.
  const pairs = (env: Record<string, string>) => Array.from({ length: runs }, () => paired(() => unoRun(sketch, env)));
  const unoCache = join(repo, '.tmp', 'bench-arduino', `uno-cache-${process.versions.node}`);
  // The code cache alone: no context, board or library scan is kept (BOARDBRIDGE_NO_CACHE).
  const codeOnly = { BOARDBRIDGE_NO_CACHE: '1', BOARDBRIDGE_CACHE_DIR: join(repo, '.tmp', 'bench-arduino', `code-cache-${process.versions.node}`) };
  unoRun(sketch, codeOnly);
  const first = pairs(codeOnly);
  // The board named by the sketch's sketch.yaml (as `arduino-cli board attach` writes it): the yaml reader's script runs too.
  unoRun(yamlSketch, codeOnly, false);
  const firstYaml = Array.from({ length: runs }, () => paired(() => unoRun(yamlSketch, codeOnly, false)));
  const cold = pairs({ BOARDBRIDGE_NO_CACHE: '1', NODE_DISABLE_COMPILE_CACHE: '1' });
  unoRun(sketch, { BOARDBRIDGE_CACHE_DIR: unoCache });
  const stored = pairs({ BOARDBRIDGE_CACHE_DIR: unoCache });
  // A new sketch each run (the edited copy below), the board, pin map and library scans stored.
  const unoEdited = Array.from({ length: runs }, (_, run) =>
    paired(() => {
      editSketch(100 + run);
      return unoRun(editedSketch, { BOARDBRIDGE_CACHE_DIR: unoCache });
    }),
  );
  process.stdout.write(`  dist/cli/boardbridge.cjs context --fqbn arduino:avr:uno, first run (no disk cache): median ${ms(median(first.map((r) => r.elapsed)))}, ${pairRatio(first).toFixed(2)}× node -e 0\n`);
  process.stdout.write(`  the same with the context stored: median ${ms(median(stored.map((r) => r.elapsed)))}, ${pairRatio(stored).toFixed(2)}× node -e 0\n`);
  process.stdout.write(`  the same with no code cache either (NODE_DISABLE_COMPILE_CACHE=1): median ${ms(median(cold.map((r) => r.elapsed)))}, ${pairRatio(cold).toFixed(2)}× node -e 0\n`);
  process.stdout.write(`  the same for a sketch whose sketch.yaml names the board (no --fqbn): median ${ms(median(firstYaml.map((r) => r.elapsed)))}, ${pairRatio(firstYaml).toFixed(2)}× node -e 0\n`);
  process.stdout.write(`RESULT Uno context, first run / node -e 0 ${pairRatio(first).toFixed(2)} (goal 2.0)\n`);
  process.stdout.write(`RESULT Uno context, first run, board named by sketch.yaml / node -e 0 ${pairRatio(firstYaml).toFixed(2)}\n`);
  process.stdout.write(`RESULT Uno context, first run, no code cache either / node -e 0 ${pairRatio(cold).toFixed(2)}\n`);
  process.stdout.write(`RESULT Uno context, new sketch, board seen before / node -e 0 ${pairRatio(unoEdited).toFixed(2)}\n`);
  process.stdout.write(`RESULT Uno context, stored / node -e 0 ${pairRatio(stored).toFixed(2)} (goal 1.3)\n`);
} catch (error) {
  process.stdout.write(`  Uno context not measured: ${(error as Error).message}\n`);
  process.stdout.write(`RESULT Uno context, first run / node -e 0 not measured (goal 2.0)\nRESULT Uno context, stored / node -e 0 not measured (goal 1.3)\n`);
  process.exitCode = 1;
}
process.stdout.write(`  (load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} cores while measuring)\n`);
if (!cliOnly) {
  const self = fileURLToPath(import.meta.url);
  const once = Array.from({ length: runs }, () => spawnTimed([self, '--once', sketch]));
  const failed = once.find((run) => run.status !== 0);
  if (failed) throw new Error(`bench --once failed: ${failed.stderr}`);
  const inChild = once.map((run) => Number(/^once-ms (\S+)$/m.exec(run.stderr)?.[1]));
  const cpuInChild = once.map((run) => Number(/^cpu-ms (\S+)$/m.exec(run.stderr)?.[1]));
  process.stdout.write(`  provider only (bench --once): median ${ms(median(once.map((run) => run.elapsed)))}, min ${ms(Math.min(...once.map((run) => run.elapsed)))}; inside the child, start to printed: median ${ms(median(inChild))}, CPU time used: median ${ms(median(cpuInChild))}\n`);
  process.stdout.write(`  (load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} cores while measuring)\n`);
}

// 3. 32-bit boards from the real platforms: a cold process printing the context (against
//    `node -e 0` measured in the same run; target ≤ 2×), and warm resolution of the board
//    (target ≤ 1 ms), for the UNO R4, the Pico (a 2.9 MB boards.txt) and a Nucleo.
const dataDir32 = fixture('arduino', 'data_dir_32bit');
const boards32 = ['arduino:renesas_uno:minima', 'rp2040:rp2040:rpipico', 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE'];
const installed32 = await discoverPlatforms({ dataDirs: [dataDir32], sketchbookDirs: [], includeDebian: false, home: join(repo, '.tmp', 'bench-arduino') });
const baseline32: number[] = [];
for (let run = 0; run < runs; run++) baseline32.push(spawnTimed(['-e', '0']).elapsed);
const base = median(baseline32);
process.stdout.write(`\n32-bit boards (${runs} runs each; node -e 0 median ${ms(base)})\n`);
const cacheDir = join(repo, '.tmp', 'bench-arduino', 'context-cache');
for (const fqbn of boards32) {
  const timed = (env: Record<string, string>, folder = sketch): number => {
    const result = spawnTimed([cli, 'context', '--fqbn', fqbn, folder], { ARDUINO_DIRECTORIES_DATA: dataDir32, ...env });
    if (result.status !== 0) throw new Error(`context ${fqbn} failed: ${result.stderr}`);
    return result.elapsed;
  };
  // Without the on-disk caches (every run parses the platform), then after a sketch edit (the
  // stored context misses, the stored board does not), then with the context stored. Each run is
  // paired with a node -e 0 just before it, as the Uno's are: a load that changes during the rows
  // changes both sides of a pair, not one side of a ratio to a baseline taken before them all.
  const codeOnly = { BOARDBRIDGE_NO_CACHE: '1', BOARDBRIDGE_CACHE_DIR: join(repo, '.tmp', 'bench-arduino', `code-cache-${process.versions.node}`) };
  timed(codeOnly);
  const uncached = Array.from({ length: runs }, () => paired(() => timed(codeOnly)));
  const cold = Array.from({ length: runs }, () => paired(() => timed({ BOARDBRIDGE_NO_CACHE: '1', NODE_DISABLE_COMPILE_CACHE: '1' })));
  timed({ BOARDBRIDGE_CACHE_DIR: cacheDir });
  const edited = Array.from({ length: runs }, (_, run) =>
    paired(() => {
      editSketch(run);
      return timed({ BOARDBRIDGE_CACHE_DIR: cacheDir }, editedSketch);
    }),
  );
  const cached = Array.from({ length: runs }, () => paired(() => timed({ BOARDBRIDGE_CACHE_DIR: cacheDir })));
  resolveFqbn(fqbn, installed32);
  const warm: number[] = [];
  for (let run = 0; run < 50; run++) {
    const start = performance.now();
    resolveFqbn(fqbn, installed32);
    warm.push(performance.now() - start);
  }
  const ratio = (pairs: Paired[]): string => `${ms(median(pairs.map((p) => p.elapsed)))} (${pairRatio(pairs).toFixed(2)}×)`;
  process.stdout.write(`  ${fqbn}: cold process context median ${ratio(uncached)} without the on-disk caches (${ratio(cold)} without the code cache too), ${ratio(edited)} after a sketch edit (board stored), ${ratio(cached)} with the context stored; warm resolve median ${ms(median(warm))}\n`);
  process.stdout.write(`RESULT ${fqbn} first context / node -e 0 ${pairRatio(uncached).toFixed(2)} (goal 2.0)\n`);
  process.stdout.write(`RESULT ${fqbn} first context, no code cache either / node -e 0 ${pairRatio(cold).toFixed(2)}\n`);
  process.stdout.write(`RESULT ${fqbn} new sketch, board seen before / node -e 0 ${pairRatio(edited).toFixed(2)}\n`);
  process.stdout.write(`RESULT ${fqbn} stored / node -e 0 ${pairRatio(cached).toFixed(2)} (goal 1.3)\n`);
}
process.stdout.write(`  (× is the ratio to node -e 0; load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} cores while measuring)\n`);

function spawnTimed(args: string[], env: Record<string, string> = {}): { elapsed: number; status: number | null; stdout: string; stderr: string } {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, ...env } });
  return { elapsed: Number(process.hrtime.bigint() - start) / 1e6, status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

async function stm32Figures(): Promise<void> {
  process.stdout.write(`stm32duino boards.txt (node ${process.version})\n`);
  const coldRuns: number[] = [];
  let boardIds: string[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    const installed = await discoverPlatforms(options);
    const platform = installed.platforms.get('STMicroelectronics:stm32')!;
    const data = platform.load();
    boardIds = [...data.boards.keys()];
    resolveFqbn(`STMicroelectronics:stm32:${boardIds[0]}`, installed);
    coldRuns.push(performance.now() - start);
  }
  process.stdout.write(`  cold discover + parse + resolve first board: median ${ms(median(coldRuns))}, min ${ms(Math.min(...coldRuns))} (${runs} runs)\n`);

  const installed = await discoverPlatforms(options);
  const data = installed.platforms.get('STMicroelectronics:stm32')!.load();
  const firstResolve: number[] = [];
  const repeatResolve: number[] = [];
  for (const id of boardIds) {
    const fqbn = `STMicroelectronics:stm32:${id}`;
    let start = performance.now();
    resolveFqbn(fqbn, installed);
    firstResolve.push(performance.now() - start);
    start = performance.now();
    resolveFqbn(fqbn, installed);
    repeatResolve.push(performance.now() - start);
  }
  const total = (values: number[]): number => values.reduce((sum, value) => sum + value, 0);
  process.stdout.write(`  ${boardIds.length} boards, cold (first) resolve: total ${ms(total(firstResolve))}, median ${ms(median(firstResolve))}, max ${ms(Math.max(...firstResolve))}\n`);
  process.stdout.write(`  ${boardIds.length} boards, warm resolve: median ${ms(median(repeatResolve))}, max ${ms(Math.max(...repeatResolve))}\n`);

  const optionTimes: number[] = [];
  for (const board of data.boards.values()) {
    for (const [menu, values] of board.menus) {
      for (const value of values.keys()) {
        const start = performance.now();
        resolveFqbn(`STMicroelectronics:stm32:${board.id}:${menu}=${value}`, installed);
        optionTimes.push(performance.now() - start);
      }
    }
  }
  process.stdout.write(`  ${optionTimes.length} board/menu-option FQBNs, warm resolve: median ${ms(median(optionTimes))}, max ${ms(Math.max(...optionTimes))}\n`);
}
