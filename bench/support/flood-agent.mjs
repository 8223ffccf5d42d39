// A stand-in ACP agent for the proxy bench: on session/prompt it replays the
// recorded session/update lines it is given (BENCH_UPDATES, a JSON Lines file),
// paced one every BENCH_GAP_US microseconds, each stamped with the monotonic
// clock in params._meta.sentNs, then answers end_turn.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const updates = readFileSync(process.env.BENCH_UPDATES, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const gapNs = BigInt(Math.round(Number(process.env.BENCH_GAP_US ?? '200') * 1000));
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');

function flood(id, sessionId) {
  let i = 0;
  let next = process.hrtime.bigint();
  const step = () => {
    while (i < updates.length && process.hrtime.bigint() >= next) {
      const params = { ...updates[i].params, sessionId, _meta: { sentNs: String(process.hrtime.bigint()) } };
      send({ jsonrpc: '2.0', method: 'session/update', params });
      i++;
      next += gapNs;
    }
    if (i < updates.length) setImmediate(step);
    else send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
  };
  step();
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'initialize') return send({ jsonrpc: '2.0', id, result: { protocolVersion: 1, agentInfo: { name: 'flood-agent', version: '1' }, agentCapabilities: {} } });
  if (method === 'session/new') return send({ jsonrpc: '2.0', id, result: { sessionId: 'bench-session' } });
  if (method === 'session/prompt') return flood(id, params.sessionId);
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `${method} is not in the bench agent` } });
});
