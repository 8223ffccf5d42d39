// Time to build the context of each MPLAB X fixture project from a cold
// process, spawned afresh each run (Node start-up, module loading, parsing,
// rendering), two ways: through the CLI, `node dist/bridge/cli/main.js
// context <project.X> [--conf C]`, and through this file run as a child with
// `--once`, which loads only the MPLAB X provider, so the provider's own cost
// shows apart from the CLI's start-up. Prints figures only; the target is
// under 300 ms per project.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixture } from '../test/support/fixtures.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cli = join(repo, 'dist', 'bridge', 'cli', 'main.js');
const shared = fixture('mplabx');
const own = join(repo, 'test', 'fixtures', 'mplabx');
const runs = Number(process.env.BENCH_RUNS ?? 7);

const projects: Array<{ label: string; args: string[]; env?: Record<string, string> }> = [
  { label: 'pic18f47q10-curiosity-hpc-demo-code.X (free)', args: [join(shared, 'pic18f47q10-curiosity-hpc-demo-code.X')] },
  { label: 'pic18f47q10-curiosity-hpc-demo-code.X (pro)', args: [join(shared, 'pic18f47q10-curiosity-hpc-demo-code.X'), '--conf', 'pro'] },
  { label: 'pic18f47q10 … (pro, with .PIC pack)', args: [join(shared, 'pic18f47q10-curiosity-hpc-demo-code.X'), '--conf', 'pro'], env: { BOARDBRIDGE_MPLAB_PACKS: join(own, 'packs') } },
  { label: 'dspic33ck-curiosity-canfd.X (default)', args: [join(shared, 'dspic33ck-curiosity-canfd.X')] },
  { label: 'avr-blink.X (release, --json)', args: [join(own, 'avr-blink.X'), '--json'] },
];

if (process.argv[2] === '--once') {
  await once(process.argv.slice(3));
  process.exit(0);
}

if (!existsSync(cli)) {
  process.stderr.write(`${cli} not built; run npx tsc -p tsconfig.json first\n`);
  process.exit(1);
}

const baseline = timeRuns(['-e', '0'], undefined, true);
process.stdout.write(`cold-process context build, ${runs} runs each (node ${process.version})\n`);
process.stdout.write(`${'node -e 0 (start-up alone)'.padEnd(48)} median ${ms(median(baseline))}  min ${ms(Math.min(...baseline))}\n`);
const self = fileURLToPath(import.meta.url);
for (const [how, command] of [
  ['provider only (bench --once)', (args: string[]) => [self, '--once', ...args]],
  ['CLI: boardbridge context', (args: string[]) => [cli, 'context', ...args]],
] as const) {
  process.stdout.write(`\n${how}\n`);
  for (const project of projects) {
    const inChild: number[] = [];
    const cpu: number[] = [];
    const times = timeRuns(command(project.args), project.env, false, inChild, cpu);
    const reported = inChild.length ? `  (inside the child: median ${ms(median(inChild))}, CPU ${ms(median(cpu))})` : '';
    process.stdout.write(`  ${project.label.padEnd(46)} median ${ms(median(times))}  min ${ms(Math.min(...times))}  max ${ms(Math.max(...times))}${reported}\n`);
  }
}

async function once(args: string[]): Promise<void> {
  const { mplabxProvider } = await import('../context-providers/mplabx/index.js');
  const conf = args.indexOf('--conf');
  const detected = await mplabxProvider.detect(args[0]);
  if (!detected) throw new Error(`${args[0]}: not an MPLAB project`);
  const context = await mplabxProvider.load(detected, { configuration: conf >= 0 ? args[conf + 1] : undefined });
  process.stdout.write(args.includes('--json') ? JSON.stringify(context) : mplabxProvider.render(context));
  // performance.now() counts from this process's start, module loading included.
  const { user, system } = process.cpuUsage();
  process.stderr.write(`once-ms ${performance.now().toFixed(1)} cpu-ms ${((user + system) / 1000).toFixed(1)}\n`);
}

// `inChild` and `cpu` collect what a --once child reports: its time from process start to
// context rendered, and the CPU time it used (less swayed by other load on the machine).
function timeRuns(args: string[], env: Record<string, string> | undefined, bare = false, inChild?: number[], cpu?: number[]): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (!bare && result.status !== 0) throw new Error(`context failed (${result.status}): ${result.stderr}`);
    times.push(elapsed);
    const reported = /^once-ms (\d+(?:\.\d+)?) cpu-ms (\d+(?:\.\d+)?)$/m.exec(result.stderr ?? '');
    if (reported) {
      inChild?.push(Number(reported[1]));
      cpu?.push(Number(reported[2]));
    }
  }
  return times;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function ms(value: number): string {
  return `${value.toFixed(0).padStart(4)} ms`;
}
