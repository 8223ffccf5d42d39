// Replays recorded `session/update` notifications (from real claude-code-acp, codex-acp
// and gemini-cli runs, test/fixtures/recorded/) through the bridge's update path — the
// agent stream reader, the SDK's client connection with the check of every update
// against the SDK's schemas, the session reducer and the event emission — 10k, 100k and
// 1M of them, and compares it with a baseline that only splits and parses the lines.
// Prints figures; it never passes or fails on time.
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { client, methods, type SessionNotification, type SessionUpdate } from '@agentclientprotocol/sdk';
import { messageStream } from '../bridge/agents/message-stream.js';
import { packageRoot } from '../bridge/agents/resolve.js';
import { connectClient } from '../bridge/session/agent-connection.js';
import { reduceUpdate } from '../bridge/session/reducer.js';
import { initialState, type SessionState } from '../bridge/session/state.js';

const SIZES = [10_000, 100_000, 1_000_000];
const BATCH = 1000;
const CYCLE = '@cycle@';

/** Each recorded update as a line template: replays of the recording get their own tool call ids, as a long session would. */
function recordedTemplates(): Array<(cycle: number) => string> {
  const dir = path.join(packageRoot(), 'test', 'fixtures', 'recorded');
  const templates: Array<(cycle: number) => string> = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!line.includes('"session/update"')) continue;
      const { update } = JSON.parse(line).params as { update: SessionUpdate };
      const message = (u: SessionUpdate) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'bench', update: u } });
      if (!('toolCallId' in update)) {
        const fixed = message(update);
        templates.push(() => fixed);
        continue;
      }
      const [before, after] = message({ ...update, toolCallId: `${update.toolCallId}-${CYCLE}` }).split(CYCLE);
      templates.push((cycle) => before + cycle + after);
    }
  }
  if (!templates.length) throw new Error(`no recorded session/update lines in ${dir}`);
  return templates;
}

/** The recording replayed to `count` lines, each replay with its own tool call ids (bench/acp-proxy.ts streams these). */
export function recordedUpdates(count = 10_000): string[] {
  const templates = recordedTemplates();
  return Array.from({ length: count }, (_, index) => templates[index % templates.length](Math.floor(index / templates.length)));
}

/** Updates that carry no new text: usage and the status of one tool call, over and over. */
function textlessTemplates(): Array<(cycle: number) => string> {
  const wrap = (update: SessionUpdate) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'bench', update } });
  const usage = (cycle: number) => wrap({ sessionUpdate: 'usage_update', used: cycle, size: 200_000 });
  const status = wrap({ sessionUpdate: 'tool_call_update', toolCallId: 'one', status: 'in_progress' });
  return [usage, () => status];
}

function* lines(templates: Array<(cycle: number) => string>, count: number): Generator<string> {
  for (let i = 0; i < count; i++) yield templates[i % templates.length](Math.floor(i / templates.length));
}

/** The lines as the agent writes them: BATCH lines per write. */
function* batches(source: Iterable<string>): Generator<string> {
  let batch: string[] = [];
  for (const line of source) {
    batch.push(line);
    if (batch.length < BATCH) continue;
    yield batch.join('\n') + '\n';
    batch = [];
  }
  if (batch.length) yield batch.join('\n') + '\n';
}

interface Timing {
  ms: number;
  /** CPU time of this process (all its threads, garbage collection included): on a loaded machine the steadier figure. */
  cpuMs: number;
}

function timed<T>(run: () => Promise<T>): Promise<T & Timing>;
function timed<T>(run: () => T): T & Timing;
function timed<T>(run: () => T | Promise<T>): (T & Timing) | Promise<T & Timing> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const finish = (value: T): T & Timing => {
    const used = process.cpuUsage(cpu);
    return { ...value, ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
  };
  const result = run();
  return result instanceof Promise ? result.then(finish) : finish(result);
}

function baseline(text: string): Timing {
  return timed(() => {
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      JSON.parse(text.slice(from, nl));
      from = nl + 1;
    }
    return {};
  });
}

const refuse = (): never => {
  throw new Error('the benchmark answers no agent requests');
};

interface Relay extends Timing {
  state: SessionState;
  events: number;
}

// `sdkUnion` is the path before the bridge checked updates by their tag: the SDK's
// onNotification handler, whose schema is the whole union (for comparison only).
function relay(writes: Iterable<string>, count: number, sdkUnion = false): Promise<Relay> {
  return timed(() => feed(writes, count, sdkUnion));
}

async function feed(writes: Iterable<string>, count: number, sdkUnion: boolean): Promise<{ state: SessionState; events: number }> {
  const agentStdout = new PassThrough();
  const agentStdin = new PassThrough();
  agentStdin.resume();
  const faces = new EventEmitter();
  let events = 0;
  faces.on('event', () => events++);
  let state = initialState('bench');
  let seen = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const onUpdate = (notification: SessionNotification) => {
    const reduced = reduceUpdate(state, notification.update);
    state = reduced.state;
    for (const change of reduced.changes) faces.emit('event', change);
    if (++seen === count) done();
  };
  const stream = messageStream(agentStdout, agentStdin);
  const connection = sdkUnion
    ? client({ name: 'bench' }).onNotification(methods.client.session.update, ({ params }) => onUpdate(params)).connect(stream)
    : connectClient(stream, { fs: refuse, terminals: refuse, onPermission: refuse, onElicitation: refuse, onElicitationComplete: () => undefined, onUpdate }, (line) => process.stderr.write(`${line}\n`));
  for (const text of writes) {
    if (!agentStdout.write(text)) await new Promise((resolve) => agentStdout.once('drain', resolve));
  }
  agentStdout.end();
  await finished;
  connection.close();
  return { state, events };
}

/** What the state holds, as JSON bytes: the conversation's text and tool calls. */
function conversationBytes(state: SessionState): number {
  let bytes = 0;
  for (const entry of state.entries) bytes += entry.type === 'tool_call' ? JSON.stringify(entry.toolCall).length : entry.text.length;
  return bytes;
}

/** One fs/write_text_file line of `mb` megabytes through the stream reader, until the message is out of it. */
async function longLine(mb: number): Promise<Timing> {
  const line = `{"jsonrpc":"2.0","id":1,"method":"fs/write_text_file","params":{"sessionId":"bench","path":"/tmp/x","content":"${'x'.repeat(mb * 1_000_000)}"}}\n`;
  const stdout = new PassThrough();
  const stream = messageStream(stdout, new PassThrough());
  const reader = stream.readable.getReader();
  return timed(async () => {
    // The agent's pipe hands it over in 64 KiB pieces.
    for (let at = 0; at < line.length; at += 65_536) stdout.write(line.slice(at, at + 65_536));
    await reader.read();
    return {};
  });
}

function heapNow(): number {
  global.gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const out = (s: string) => process.stdout.write(s + '\n');

async function main(): Promise<void> {
  const recorded = recordedTemplates();
  const tenK = [...lines(recorded, 10_000)];
  const tenKText = tenK.join('\n') + '\n';
  const tenKWrites = [...batches(tenK)];
  const bases = Array.from({ length: 5 }, () => baseline(tenKText));
  const base = { ms: Math.min(...bases.map((b) => b.ms)), cpuMs: Math.min(...bases.map((b) => b.cpuMs)) };
  const rate = (count: number, ms: number) => Math.round(count / (ms / 1000)).toLocaleString('en');
  out(`acp-updates: recorded session/update lines (${recorded.length} from real agents, replayed with fresh tool call ids); wall-clock, and CPU time in brackets`);
  out(`  baseline at 10k (split + JSON.parse only): ${base.ms.toFixed(1)} ms (${base.cpuMs.toFixed(1)})  ${rate(10_000, base.ms)} lines/s`);
  const unionRuns: Relay[] = [];
  for (let round = 0; round < 3; round++) unionRuns.push(await relay(tenKWrites, tenK.length, true));
  const union = unionRuns.reduce((a, b) => (b.ms < a.ms ? b : a));
  out(`  for comparison, through the SDK's own update handler (the whole union tried per update) at 10k: ${union.ms.toFixed(1)} ms (${union.cpuMs.toFixed(1)}): ${(base.ms / union.ms).toFixed(3)}× (${(base.cpuMs / union.cpuMs).toFixed(3)}×) the baseline`);
  const tenKRuns: Relay[] = [];
  for (let round = 0; round < 5; round++) tenKRuns.push(await relay(tenKWrites, tenK.length));
  const relayed = tenKRuns.reduce((a, b) => (b.ms < a.ms ? b : a));
  out(`  relay at 10k (the same lines): ${relayed.ms.toFixed(1)} ms (${relayed.cpuMs.toFixed(1)}): ${(base.ms / relayed.ms).toFixed(3)}× (${(base.cpuMs / relayed.cpuMs).toFixed(3)}×) the baseline's throughput`);
  out('  relay (stream reader + SDK connection + schema check of every update + reducer + events), lines made as they are written:');
  for (const size of SIZES) {
    const rounds = size <= 10_000 ? 5 : size <= 100_000 ? 2 : 1;
    let best: Relay | undefined;
    let growth = 0;
    for (let round = 0; round < rounds; round++) {
      const before = heapNow();
      const run = await relay(batches(lines(recorded, size)), size);
      const after = heapNow();
      if (!best || run.ms < best.ms) [best, growth] = [run, after - before];
    }
    const content = conversationBytes(best!.state);
    out(
      `    ${size.toLocaleString('en').padStart(9)} updates: ${best!.ms.toFixed(0)} ms (${best!.cpuMs.toFixed(0)}), ${((best!.ms / size) * 1000).toFixed(2)} µs (${((best!.cpuMs / size) * 1000).toFixed(2)}) per update`,
    );
    out(`      retained ${mib(growth)} for ${mib(content)} of conversation: ${(growth / content).toFixed(2)} bytes per byte, ${Math.round(growth / size)} per update`);
  }
  const before = heapNow();
  const textless = await relay(batches(lines(textlessTemplates(), 1_000_000)), 1_000_000);
  const growth = heapNow() - before;
  out(`  1,000,000 updates that add no text (usage, one tool call's status): ${textless.ms.toFixed(0)} ms (${textless.cpuMs.toFixed(0)}), ${((textless.ms / 1e6) * 1000).toFixed(2)} µs per update; retained ${mib(growth)} (${textless.state.entries.length} entry)`);
  const long: string[] = [];
  for (const mb of [8, 32, 60]) {
    const run = await longLine(mb);
    long.push(`${mb} MB ${run.ms.toFixed(0)} ms (${(run.ms / mb).toFixed(1)} ms/MB)`);
  }
  out(`  one long fs/write_text_file line through the stream reader: ${long.join(', ')}`);
  out(`  peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The memory figures need a collection before each measurement.
  if (typeof global.gc !== 'function') {
    const run = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
    process.exit(run.status ?? 1);
  }
  await main();
}
