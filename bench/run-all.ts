// `npm run bench`: runs every benchmark in dist/bench one after another; each prints its figures,
// and the run ends with the table of issue 27: every `RESULT` row, with its goal and the load
// average while it was measured. Then, for each supported line (22 and 24, README) whose Node is
// installed (test/setup/node22, test/setup/node24), the context command's rows again under it, the
// Uno's and the 32-bit boards', each against `node -e 0` of the same binary.
//
// A figure is read only from the code it names: a compiled bench older than its source, or a CLI
// bundle older than the sources it is built from (`tsc` run without scripts/bundle-cli.mjs), stops
// the run with what to rebuild. A bench that fails, or prints no RESULT row it was expected to,
// gives a row that says so instead of dropping out of the table.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const bundle = path.join(repo, 'dist', 'cli', 'boardbridge.cjs');
/** The supported Node lines the test setup installs, each in a folder of its own. */
const supported = ['22', '24'].map((line) => ({ line, binary: path.join(repo, 'test', 'setup', `node${line}`, 'node_modules', 'node', 'bin', 'node') }));

interface Row {
  figure: string;
  ratio?: string;
  goal?: string;
  load: string;
  node: string;
}

const stale = staleFiles();
if (stale.length) {
  process.stderr.write(`bench: the compiled code is older than its source, so its figures would be of old code:\n${stale.map((line) => `  ${line}\n`).join('')}run \`npm run bench\` (it builds first) or \`npm run build\`\n`);
  process.exit(1);
}

const rows: Row[] = [];
const nodeOf = async (binary: string) => (await runBench(binary, ['-p', 'process.version'], false)).stdout.trim();
const thisNode = process.version;
process.stdout.write(`bench on Node ${thisNode} (${process.execPath}), ${cpus().length} cores\n`);
for (const file of readdirSync(here).filter((f) => f.endsWith('.js') && f !== 'run-all.js').sort()) {
  process.stdout.write(`\n== ${file.replace(/\.js$/, '')}\n`);
  await benchRows(process.execPath, thisNode, [path.join(here, file)], file);
}
for (const { line, binary } of supported) {
  if (existsSync(binary)) {
    const version = await nodeOf(binary);
    process.stdout.write(`\n== arduino-context, the command line's rows under Node ${version} (${binary})\n`);
    await benchRows(binary, version, [path.join(here, 'arduino-context.js'), '--cli-only'], 'arduino-context --cli-only');
  } else {
    process.stdout.write(`\n(no Node ${line} at ${binary}: npm ci --prefix test/setup/node${line} gives the context rows under it)\n`);
  }
}

process.stdout.write(`\n| figure | Node | ratio | goal | load average while measured (1 min, start–end) |\n|---|---|---|---|---|\n`);
for (const row of rows) {
  const goal = row.goal === undefined ? '' : row.goal.startsWith('≥') || row.goal.startsWith('≤') ? row.goal : `≤ ${row.goal}×`;
  process.stdout.write(`| ${row.figure} | ${row.node} | ${row.ratio === undefined ? 'not measured' : `${row.ratio}×`} | ${goal} | ${row.load} |\n`);
}
process.stdout.write(`(ratios of wall time measured side by side in the same run; ${cpus().length} cores)\n`);
if (rows.some((row) => row.ratio === undefined)) process.exitCode = 1;

/** Runs one bench, shows its output as it comes, and adds its RESULT rows (or a row saying it failed). */
async function benchRows(binary: string, version: string, args: string[], name: string): Promise<void> {
  const before = loadavg()[0];
  const run = await runBench(binary, args, true);
  const load = `${before.toFixed(1)}–${loadavg()[0].toFixed(1)}`;
  let found = 0;
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('RESULT ')) continue;
    found++;
    const result = line.slice('RESULT '.length);
    const match = /^(.*) (\d+(?:\.\d+)?|not measured)(?: \(goal ([^)]+)\))?$/.exec(result);
    if (!match) rows.push({ figure: result, load, node: version });
    else rows.push({ figure: match[1], ratio: match[2] === 'not measured' ? undefined : match[2], goal: match[3], load, node: version });
  }
  if (run.failure) {
    process.stdout.write(`  ${name} failed: ${run.failure}\n`);
    rows.push({ figure: `${name}: ${run.failure}${found ? ` (after ${found} rows)` : ''}`, load, node: version });
  }
}

/** Runs a child to its end; its stdout is both shown and kept, its stderr shown (and its tail kept for a failure). */
function runBench(binary: string, args: string[], show: boolean): Promise<{ stdout: string; failure?: string }> {
  return new Promise((resolve) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderrTail = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      if (show) process.stdout.write(text);
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderrTail = (stderrTail + text).slice(-600);
      process.stderr.write(text);
    });
    child.on('error', (error) => resolve({ stdout, failure: `could not start ${binary}: ${error.message}` }));
    child.on('close', (code, signal) => {
      const last = stderrTail.trim().split('\n').pop() ?? '';
      const failure = signal ? `killed by ${signal}` : code !== 0 ? `exited ${code}${last ? `: ${last}` : ''}` : undefined;
      resolve({ stdout, failure });
    });
  });
}

/** Compiled benches older than their source, and a CLI bundle older than the newest product source. */
function staleFiles(): string[] {
  const found: string[] = [];
  const mtime = (file: string) => statSync(file).mtimeMs;
  for (const file of readdirSync(here).filter((f) => f.endsWith('.js'))) {
    const source = path.join(repo, 'bench', file.replace(/\.js$/, '.ts'));
    if (!existsSync(source)) found.push(`dist/bench/${file} has no bench/${path.basename(source)} (a removed bench): delete it`);
    else if (mtime(path.join(here, file)) < mtime(source)) found.push(`dist/bench/${file} is older than bench/${path.basename(source)}`);
  }
  if (!existsSync(bundle)) return [...found, 'dist/cli/boardbridge.cjs is missing (scripts/bundle-cli.mjs builds it)'];
  const built = mtime(bundle);
  const newer = (dir: string): string | undefined => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'data') {
        const inside = newer(full);
        if (inside) return inside;
      } else if (entry.isFile() && entry.name.endsWith('.ts') && mtime(full) > built) return full;
    }
    return undefined;
  };
  for (const dir of ['bridge', 'context-providers', 'boards', 'platform']) {
    const file = newer(path.join(repo, dir));
    if (file) {
      found.push(`dist/cli/boardbridge.cjs is older than ${path.relative(repo, file)}`);
      break;
    }
  }
  return found;
}
