// Replays 10,000 recorded `session/update` notifications (from real claude-code-acp
// and gemini-cli runs, test/fixtures/recorded/) through the bridge's update path —
// our stdio transport, the SDK's client connection, the session reducer and the
// event emission — and compares it with a baseline that only parses the same lines.
// Prints figures; it never passes or fails on time.
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { client, methods, type SessionNotification, type SessionUpdate } from '@agentclientprotocol/sdk';
import { messageStream } from '../bridge/agents/message-stream.js';
import { reduceUpdate } from '../bridge/session/reducer.js';
import { initialState } from '../bridge/session/state.js';
import { packageRoot } from '../bridge/agents/resolve.js';

const COUNT = 10_000;
const ROUNDS = 5;

export function recordedUpdates(): string[] {
  const dir = path.join(packageRoot(), 'test', 'fixtures', 'recorded');
  const updates: Array<{ update: SessionUpdate }> = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!line.includes('"session/update"')) continue;
      updates.push(JSON.parse(line).params);
    }
  }
  if (!updates.length) throw new Error(`no recorded session/update lines in ${dir}`);
  const lines: string[] = [];
  for (let i = 0; lines.length < COUNT; i++) {
    const { update } = updates[i % updates.length];
    const cycle = Math.floor(i / updates.length);
    // Each replay of the recording gets its own tool call ids, as a long session would.
    const renamed = 'toolCallId' in update ? { ...update, toolCallId: `${update.toolCallId}-${cycle}` } : update;
    lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'bench', update: renamed } }));
  }
  return lines;
}

function baseline(lines: string[]): { ms: number; perLineNs: number[] } {
  const text = lines.join('\n') + '\n';
  const perLineNs: number[] = [];
  const start = process.hrtime.bigint();
  let from = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
    const t0 = process.hrtime.bigint();
    JSON.parse(text.slice(from, nl));
    perLineNs.push(Number(process.hrtime.bigint() - t0));
    from = nl + 1;
  }
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, perLineNs };
}

// `validate: false` swaps the SDK's zod check of each notification for a pass-through,
// only to show how much of the time that validation takes; the bridge always validates.
async function throughBridge(lines: string[], validate = true): Promise<{ ms: number; gapsNs: number[]; events: number }> {
  const agentStdout = new PassThrough();
  const agentStdin = new PassThrough();
  agentStdin.resume();
  const faces = new EventEmitter();
  let events = 0;
  faces.on('event', () => events++);
  let state = initialState('bench');
  let seen = 0;
  const gapsNs: number[] = [];
  let last = 0n;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const onUpdate = ({ params }: { params: SessionNotification }) => {
      const reduced = reduceUpdate(state, params.update);
      state = reduced.state;
      for (const change of reduced.changes) faces.emit('event', change);
      const now = process.hrtime.bigint();
      if (last) gapsNs.push(Number(now - last));
      last = now;
      if (++seen === lines.length) done();
  };
  const app = validate
    ? client({ name: 'bench' }).onNotification(methods.client.session.update, onUpdate)
    : client({ name: 'bench' }).onNotification('session/update', (p: unknown) => p as SessionNotification, onUpdate);
  const connection = app.connect(messageStream(agentStdout, agentStdin));
  const start = process.hrtime.bigint();
  agentStdout.end(lines.join('\n') + '\n');
  await finished;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  connection.close();
  return { ms, gapsNs, events };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const lines = recordedUpdates();
  const bytes = lines.reduce((n, l) => n + l.length + 1, 0);
  const idleRss = process.memoryUsage().rss;
  const results: Array<{ base: number; bridge: number; unvalidated: number; gapMedianUs: number; baseMedianUs: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const base = baseline(lines);
    const bridge = await throughBridge(lines);
    const unvalidated = await throughBridge(lines, false);
    results.push({ base: base.ms, bridge: bridge.ms, unvalidated: unvalidated.ms, gapMedianUs: median(bridge.gapsNs) / 1000, baseMedianUs: median(base.perLineNs) / 1000 });
  }
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const best = results.reduce((a, b) => (b.bridge < a.bridge ? b : a));
  const out = (s: string) => process.stdout.write(s + '\n');
  out(`acp-updates: ${lines.length} recorded session/update lines (${(bytes / 1024).toFixed(0)} KiB), ${ROUNDS} rounds, best round shown`);
  out(`  baseline (split + JSON.parse only): ${best.base.toFixed(1)} ms  ${Math.round(lines.length / (best.base / 1000)).toLocaleString('en')} lines/s`);
  out(`  bridge (transport + SDK + reducer + events): ${best.bridge.toFixed(1)} ms  ${Math.round(lines.length / (best.bridge / 1000)).toLocaleString('en')} updates/s`);
  out(`  the same without the SDK's schema validation (comparison only): ${best.unvalidated.toFixed(1)} ms  ${Math.round(lines.length / (best.unvalidated / 1000)).toLocaleString('en')} updates/s`);
  out(`  added per update (mean): ${(((best.bridge - best.base) / lines.length) * 1000).toFixed(1)} µs`);
  out(`  per update (median): bridge ${best.gapMedianUs.toFixed(1)} µs between updates, baseline ${best.baseMedianUs.toFixed(1)} µs parse → added ${(best.gapMedianUs - best.baseMedianUs).toFixed(1)} µs`);
  out(`  memory: idle RSS ${(idleRss / 2 ** 20).toFixed(0)} MiB, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
