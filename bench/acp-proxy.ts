// What `boardbridge acp` adds per forwarded message: the recorded 10,000-update
// stream (test/fixtures/recorded, as in acp-updates) sent by a stand-in agent
// process, paced, to a client reading its stdout — once straight from the agent,
// once through `boardbridge acp` in front of it. Each update carries the monotonic
// clock at sending (CLOCK_MONOTONIC is one clock for all processes on Linux);
// the client notes the clock when the line arrives. Then the start an editor waits for: from
// starting `boardbridge acp` (the npm bin, dist/cli/boardbridge.cjs) to its answers to initialize
// and to session/new (sent once initialize was answered), against the same agent started alone,
// for an agent that answers at once and one that answers initialize 300 ms after it started (as
// claude-code-acp does here). Prints figures, never fails on time.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { messageStream } from '../bridge/agents/message-stream.js';
import { packageRoot } from '../bridge/agents/resolve.js';
import { JsonRpcRelay } from '../bridge/proxy/json-rpc-relay.js';
import { recordedUpdates } from './acp-updates.js';

const GAP_US = 200;
const ROUNDS = 5;
/** Pairs (alone, through boardbridge acp) per start figure. */
const STARTS = 11;

interface Run {
  latenciesUs: number[];
  ms: number;
}

async function replay(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
  const latenciesUs: number[] = [];
  const send = (m: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
  const answered = new Map<number, (result: unknown) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const now = process.hrtime.bigint();
    const message = JSON.parse(line) as { id?: number; method?: string; params?: { _meta?: { sentNs?: string } }; result?: unknown; error?: { message: string } };
    if (message.method === 'session/update' && message.params?._meta?.sentNs) {
      latenciesUs.push(Number(now - BigInt(message.params._meta.sentNs)) / 1000);
    } else if (message.id !== undefined && message.method === undefined) {
      if (message.error) throw new Error(`the bench agent answered with an error: ${message.error.message}`);
      answered.get(message.id)?.(message.result);
    }
  });
  const request = (id: number, method: string, params: object) =>
    new Promise<unknown>((resolve) => {
      answered.set(id, resolve);
      send({ id, method, params });
    });
  await request(1, 'initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
  const { sessionId } = (await request(2, 'session/new', { cwd, mcpServers: [] })) as { sessionId: string };
  const start = process.hrtime.bigint();
  await request(3, 'session/prompt', { sessionId, prompt: [{ type: 'text', text: 'flood' }] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  child.stdin.end();
  await new Promise((resolve) => child.once('close', resolve));
  return { latenciesUs, ms };
}

// The relay's own cost, in one process (no scheduling between processes): the same lines
// through messageStream → JsonRpcRelay → messageStream, against messageStream alone.
async function inProcess(lines: string[], relay: boolean): Promise<number> {
  const agentOut = new PassThrough();
  const agentIn = new PassThrough();
  const editorIn = new PassThrough();
  const editorOut = new PassThrough();
  let seen = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const count = (chunk: Buffer) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) if (++seen === lines.length) done();
  };
  const agent = messageStream(agentOut, agentIn);
  if (relay) {
    editorOut.on('data', count);
    new JsonRpcRelay(messageStream(editorIn, editorOut), agent, {});
  } else {
    // Straight: parse each line and write it out again, as the client's own transport would.
    const writer = messageStream(editorIn, editorOut).writable.getWriter();
    editorOut.on('data', count);
    void (async () => {
      const reader = agent.readable.getReader();
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) return;
        void writer.write(value);
      }
    })();
  }
  const start = process.hrtime.bigint();
  agentOut.write(lines.join('\n') + '\n');
  await finished;
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

async function main(): Promise<void> {
  const root = packageRoot();
  const work = mkdtempSync(path.join(os.tmpdir(), 'bb-bench-proxy-'));
  const updatesFile = path.join(work, 'updates.jsonl');
  const lines = recordedUpdates();
  writeFileSync(updatesFile, lines.join('\n') + '\n');
  const agent = path.join(root, 'bench', 'support', 'flood-agent.mjs');
  const env = { ...process.env, BENCH_UPDATES: updatesFile, BENCH_GAP_US: String(GAP_US), BOARDBRIDGE_STATE_DIR: path.join(work, 'state') };
  const cli = path.join(root, 'dist', 'bridge', 'cli', 'main.js');
  const out = (s: string) => process.stdout.write(s + '\n');
  out(`acp-proxy: ${lines.length} recorded session/update lines, in bursts of 10 every ${GAP_US * 10} µs, ${ROUNDS} rounds each; latency = agent write → client read`);
  const medians: { straight: number; proxied: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const straight = await replay(process.execPath, [agent], env, work);
    const proxied = await replay(process.execPath, [cli, 'acp', '--log-file', path.join(work, 'acp.log'), '--agent-command', `${process.execPath} ${agent}`], env, work);
    if (straight.latenciesUs.length !== lines.length || proxied.latenciesUs.length !== lines.length) {
      throw new Error(`updates lost: straight ${straight.latenciesUs.length}, through the proxy ${proxied.latenciesUs.length} of ${lines.length}`);
    }
    const row = (name: string, r: Run) =>
      `  round ${round} ${name}: median ${quantile(r.latenciesUs, 0.5).toFixed(1)} µs, p90 ${quantile(r.latenciesUs, 0.9).toFixed(1)} µs, p99 ${quantile(r.latenciesUs, 0.99).toFixed(1)} µs, turn ${r.ms.toFixed(0)} ms`;
    out(row('straight     ', straight));
    out(row('through proxy', proxied));
    medians.push({ straight: quantile(straight.latenciesUs, 0.5), proxied: quantile(proxied.latenciesUs, 0.5) });
  }
  const added = medians.map((m) => m.proxied - m.straight);
  out(`  added by the proxy at the median: ${added.map((a) => `${a.toFixed(1)} µs`).join(', ')} (rounds 1-${ROUNDS}); median of the rounds ${quantile(added, 0.5).toFixed(1)} µs; budget 1000 µs`);
  const straightMs: number[] = [];
  const relayMs: number[] = [];
  for (let round = 0; round < 5; round++) {
    straightMs.push(await inProcess(lines, false));
    relayMs.push(await inProcess(lines, true));
  }
  const best = (xs: number[]) => Math.min(...xs);
  out(`  in one process, best of 5: parse + write ${best(straightMs).toFixed(1)} ms, through the relay ${best(relayMs).toFixed(1)} ms → the relay adds ${(((best(relayMs) - best(straightMs)) / lines.length) * 1000).toFixed(1)} µs of work per message`);
  const bin = path.join(root, 'dist', 'cli', 'boardbridge.cjs');
  for (const answerMs of [0, 300]) {
    const agentEnv = { ...env, BENCH_START_MS: String(answerMs) };
    const alone = () => startMs(process.execPath, [agent], agentEnv, work);
    const through = () => startMs(process.execPath, [bin, 'acp', '--log-file', path.join(work, 'acp.log'), '--agent-command', `${process.execPath} ${agent}`], agentEnv, work);
    // Node's compile cache and the disk's for both, before anything is timed.
    await alone();
    await through();
    const pairs: Array<{ alone: { initialize: number; session: number }; through: { initialize: number; session: number } }> = [];
    for (let pair = 0; pair < STARTS; pair++) pairs.push({ alone: await alone(), through: await through() });
    const median = (xs: number[]) => quantile(xs, 0.5);
    for (const [answer, request] of [['initialize', 'initialize'], ['session', 'session/new']] as const) {
      const [aloneMs, throughMs] = [median(pairs.map((p) => p.alone[answer])), median(pairs.map((p) => p.through[answer]))];
      out(`  ${request} answered, the agent answering initialize at ${answerMs} ms: alone median ${aloneMs.toFixed(0)} ms, through boardbridge acp ${throughMs.toFixed(0)} ms (${STARTS} pairs; +${(throughMs - aloneMs).toFixed(0)} ms)`);
    }
    out(`RESULT acp start to a session, an agent answering initialize ${answerMs} ms after it starts: through boardbridge acp / alone ${median(pairs.map((p) => p.through.session / p.alone.session)).toFixed(2)}`);
    out(`RESULT acp start to the initialize answer, an agent answering it ${answerMs} ms after it starts: through boardbridge acp / alone ${median(pairs.map((p) => p.through.initialize / p.alone.initialize)).toFixed(2)}`);
  }
  out(`  (load average while measuring: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores)`);
}

/** Milliseconds from starting `command` to its answers to initialize and to the session/new sent once that came; the process is ended and waited for. */
async function startMs(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ initialize: number; session: number }> {
  const start = process.hrtime.bigint();
  const since = () => Number(process.hrtime.bigint() - start) / 1e6;
  const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
  const closed = new Promise((resolve) => child.once('close', resolve));
  const answered = await new Promise<{ initialize: number; session: number }>((resolve, reject) => {
    let initialize = 0;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number; error?: { message: string } };
      if (message.id !== 1 && message.id !== 2) return;
      if (message.error) reject(new Error(`${message.id === 1 ? 'initialize' : 'session/new'} answered with an error: ${message.error.message}`));
      else if (message.id === 1) {
        initialize = since();
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd, mcpServers: [] } }) + '\n');
      } else resolve({ initialize, session: since() });
    });
    child.once('close', (code) => reject(new Error(`${command} ${args.join(' ')} ended (code ${code}) before answering session/new`)));
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } }) + '\n');
  });
  child.stdin.end();
  child.kill();
  await closed;
  return answered;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
