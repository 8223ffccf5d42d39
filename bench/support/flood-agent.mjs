// A stand-in ACP agent for the proxy bench: on session/prompt it replays the
// recorded session/update lines it is given (BENCH_UPDATES, a JSON Lines file),
// in bursts of ten, one burst every ten BENCH_GAP_US microseconds, each stamped
// with the monotonic clock in params._meta.sentNs, then answers end_turn (BENCH_GAP_US=0:
// all at once, unstamped). BENCH_START_MS=<ms>: initialize is answered that long after the agent
// started, as a real agent answers once it has loaded (claude-code-acp takes some 300 ms here).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const updates = readFileSync(process.env.BENCH_UPDATES, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const gapNs = BigInt(Math.round(Number(process.env.BENCH_GAP_US ?? '200') * 1000));
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');

// Sleeps between bursts of ten (a busy wait would take a whole core from the processes measured).
function flood(id, sessionId) {
  // BENCH_GAP_US=0: everything at once, as fast as the pipe takes it (the client's relay is measured).
  if (gapNs === 0n) {
    for (const update of updates) send({ jsonrpc: '2.0', method: 'session/update', params: { ...update.params, sessionId } });
    return send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
  }
  const burst = 10;
  let i = 0;
  const step = () => {
    for (const end = Math.min(i + burst, updates.length); i < end; i++) {
      const params = { ...updates[i].params, sessionId, _meta: { sentNs: String(process.hrtime.bigint()) } };
      send({ jsonrpc: '2.0', method: 'session/update', params });
    }
    if (i < updates.length) setTimeout(step, Number(gapNs * BigInt(burst)) / 1e6);
    else send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
  };
  step();
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'initialize') {
    const answer = () => send({ jsonrpc: '2.0', id, result: { protocolVersion: 1, agentInfo: { name: 'flood-agent', version: '1' }, agentCapabilities: {} } });
    const wait = Number(process.env.BENCH_START_MS ?? 0) - performance.now();
    return wait > 0 ? setTimeout(answer, wait) : answer();
  }
  if (method === 'session/new') return send({ jsonrpc: '2.0', id, result: { sessionId: 'bench-session' } });
  if (method === 'session/prompt') return flood(id, params.sessionId);
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `${method} is not in the bench agent` } });
});
