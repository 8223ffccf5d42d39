// `run --json` against acpx, the ACP client from npm, relaying the same agent's stream: a stand-in
// agent (bench/support/flood-agent.mjs) sends N session/update lines as fast as it can and ends
// the turn; each client prints every update as one JSON line to a pipe that is read and dropped.
// Two floods: 40,000 agent message chunks, and 100,000 updates mixed as real agents send them
// (the recorded claude-code-acp, codex-acp and gemini sessions of test/fixtures/recorded: chunks,
// thoughts, tool calls and their updates, plans). Figures are ratios of wall time measured
// side by side in this run (median of BENCH_RUNS pairs): below 1 is faster than acpx.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(repo, 'dist', 'cli', 'boardbridge.cjs');
const clients = path.join(repo, 'test', 'clients', 'node_modules');
const node22 = path.join(clients, 'node', 'bin', 'node');
const acpx = path.join(clients, 'acpx', 'dist', 'cli.js');
const agent = `${process.execPath} ${path.join(repo, 'bench', 'support', 'flood-agent.mjs')}`;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const scratch = path.join(repo, '.tmp', 'bench-relay');
mkdirSync(scratch, { recursive: true });

function chunks(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `word ${i} ` } } } }));
  return lines.join('\n') + '\n';
}

function mixed(n: number): string {
  const dir = path.join(repo, 'test', 'fixtures', 'recorded');
  const recorded: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) if (line.includes('"session/update"')) recorded.push(line);
  }
  const lines: string[] = [];
  // Each replay of the recording gets its own tool call ids, as a long session would.
  for (let cycle = 0; lines.length < n; cycle++) for (const line of recorded) if (lines.length < n) lines.push(line.replace(/"toolCallId":"([^"]+)"/g, `"toolCallId":"$1-${cycle}"`));
  return lines.join('\n') + '\n';
}

function timed(command: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: scratch, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`${path.basename(args[0] ?? command)} exited ${code}: ${err}`))));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!existsSync(node22) || !existsSync(acpx)) {
  process.stdout.write(`acpx is not installed (npm install --prefix test/clients): no relay comparison\n`);
  for (const label of ['40,000 message chunks (goal 1.0)', '100,000 mixed updates (goal 0.8)']) process.stdout.write(`RESULT run --json relaying ${label.replace(' (', ' / acpx not measured (')}\n`);
} else {
  const floods = [
    { label: '40,000 message chunks', file: path.join(scratch, 'chunks.jsonl'), text: chunks(40_000), goal: '1.0' },
    { label: '100,000 mixed updates', file: path.join(scratch, 'mixed.jsonl'), text: mixed(100_000), goal: '0.8' },
  ];
  const acpxNode = (await new Promise<string>((resolve) => {
    const child = spawn(node22, ['-p', 'process.version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', () => resolve(out.trim()));
  })) || '?';
  process.stdout.write(`run --json (Node ${process.version}) / acpx --format json exec (Node ${acpxNode}), relaying the same stand-in agent (median of ${runs} pairs)\n`);
  for (const flood of floods) {
    writeFileSync(flood.file, flood.text);
    const env = { BENCH_UPDATES: flood.file, BENCH_GAP_US: '0', BOARDBRIDGE_NO_CACHE: '1' };
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let run = 0; run < runs; run++) {
      ours.push(await timed(process.execPath, [cli, 'run', 'go', '--json', '--agent-command', agent], env));
      theirs.push(await timed(node22, [acpx, '--agent', agent, '--cwd', scratch, '--format', 'json', '--approve-all', 'exec', 'go'], env));
    }
    const ratio = median(ours.map((value, i) => value / theirs[i]));
    process.stdout.write(`  ${flood.label}: run --json ${median(ours).toFixed(0)} ms, acpx ${median(theirs).toFixed(0)} ms: ${ratio.toFixed(2)}×\n`);
    process.stdout.write(`RESULT run --json relaying ${flood.label} / acpx (on Node ${acpxNode}) ${ratio.toFixed(2)} (goal ${flood.goal})\n`);
  }
  process.stdout.write(`  (load average ${loadavg().map((v) => v.toFixed(1)).join(' ')} on ${cpus().length} cores)\n`);
}
