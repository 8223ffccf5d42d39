// A fuzz test of the proxy relay's ids (issue 21): seeded random interleavings of
// agent requests under ids that collide with every id the relay and the proxy use
// (1, "1", "boardbridge-1", ...), the proxy's own device questions, the agent's
// $/cancel_request, and an editor that answers in any order, sometimes twice, and
// sometimes under ids it was never given. The property: a device change happens
// exactly for the questions the person allowed, each by the answer to that very
// question; every agent request gets the editor's answer to it, under its own id;
// a cancel reaches the editor under the id of the request it names.
// FUZZ_COUNT interleavings (1,000 here, 100,000 with `npm run fuzz`) from FUZZ_SEED (1).
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { JsonRpcRelay } from '../../bridge/proxy/json-rpc-relay.js';
import { prng, type Prng } from './mutate.mjs';

const COUNT = Number(process.env.FUZZ_COUNT ?? 1000);
const FIRST = Number(process.env.FUZZ_SEED ?? 1);
const COLLIDING_IDS: readonly (string | number)[] = [0, 1, 2, 3, 4, '1', '2', '3', 'boardbridge-1', 'boardbridge-2', 'boardbridge-agent-1', -1, 1.5, ''];

type Wire = Record<string, unknown> & { id?: string | number | null; method?: string; params?: Record<string, unknown>; result?: unknown };

/** One end of an in-memory JSON-RPC stream: what arrived, and a way to send. */
function end(): { stream: Stream; arrived: Wire[]; send: (m: Wire) => void } {
  const toRelay = new TransformStream<AnyMessage, AnyMessage>();
  const fromRelay = new TransformStream<AnyMessage, AnyMessage>();
  const arrived: Wire[] = [];
  void fromRelay.readable.pipeTo(new WritableStream({ write: (m) => void arrived.push(m as Wire) }));
  const writer = toRelay.writable.getWriter();
  return { stream: { readable: toRelay.readable, writable: fromRelay.writable }, arrived, send: (m) => void writer.write({ jsonrpc: '2.0', ...m } as AnyMessage) };
}

const isRequest = (m: Wire) => typeof m.method === 'string' && m.id !== undefined;
const settle = async () => {
  for (let i = 0; i < 6; i++) await new Promise((r) => setImmediate(r));
};
const allow = { outcome: { outcome: 'selected', optionId: 'allow' } };
const reject = { outcome: { outcome: 'selected', optionId: 'reject' } };

/** Runs one interleaving; returns what broke the property, or undefined. */
async function interleaving(rng: Prng): Promise<string | undefined> {
  const editor = end();
  const agent = end();
  const relay = new JsonRpcRelay(editor.stream, agent.stream, {});
  const changed: string[] = [];
  const allowedByEditor = new Map<string, boolean>();
  const openAgent = new Map<string | number, string>(); // agent id -> nonce
  const agentNonceOf = new Map<string, string | number>();
  const editorHandled = new Set<Wire>();
  const problems: string[] = [];
  let nonces = 0;
  const steps = 4 + rng.int(24);
  for (let step = 0; step < steps; step++) {
    const action = rng.int(5);
    if (action === 0) {
      // The proxy's own device question: the device changes only on an allow of it.
      const nonce = `device-${++nonces}`;
      void relay.requestEditor('session/request_permission', { nonce }).then(
        (answer) => {
          if ((answer as typeof allow)?.outcome?.optionId === 'allow') changed.push(nonce);
        },
        () => undefined,
      );
    } else if (action === 1 || action === 2) {
      const free = COLLIDING_IDS.filter((id) => !openAgent.has(id));
      if (!free.length) continue;
      const id = rng.pick(free);
      const nonce = `agent-${++nonces}`;
      openAgent.set(id, nonce);
      agentNonceOf.set(nonce, id);
      agent.send({ id, method: rng.pick(['session/request_permission', 'fs/read_text_file', '_vendor/ask']), params: { nonce } });
    } else if (action === 3 && openAgent.size) {
      agent.send({ method: '$/cancel_request', params: { requestId: rng.pick([...openAgent.keys()]) } });
    } else {
      // The editor answers some of what it was asked, in any order; now and then twice, or under an id it never got.
      const asked = editor.arrived.filter((m) => isRequest(m) && !editorHandled.has(m));
      for (let n = rng.int(asked.length + 1); n > 0 && asked.length; n--) {
        const request = asked.splice(rng.int(asked.length), 1)[0];
        const yes = rng.int(2) === 0;
        allowedByEditor.set(request.params!.nonce as string, yes);
        editorHandled.add(request);
        editor.send({ id: request.id, result: yes ? allow : reject });
        if (rng.int(4) === 0) editor.send({ id: request.id, result: yes ? reject : allow });
      }
      const never = COLLIDING_IDS.filter((id) => !editor.arrived.some((m) => m.method && m.id === id));
      if (never.length && rng.int(3) === 0) editor.send({ id: rng.pick(never), result: allow });
    }
    await settle();
  }
  // The editor answers everything left.
  await settle();
  for (const request of editor.arrived.filter((m) => isRequest(m) && !editorHandled.has(m))) {
    const yes = rng.int(2) === 0;
    allowedByEditor.set(request.params!.nonce as string, yes);
    editorHandled.add(request);
    editor.send({ id: request.id, result: yes ? allow : reject });
  }
  await settle();

  const requests = editor.arrived.filter(isRequest);
  const ids = requests.map((m) => JSON.stringify(m.id));
  if (new Set(ids).size !== ids.length) problems.push(`the editor saw one id twice: ${ids.join(' ')}`);
  const wanted = [...allowedByEditor].filter(([nonce, yes]) => yes && nonce.startsWith('device-')).map(([nonce]) => nonce).sort();
  if (JSON.stringify([...changed].sort()) !== JSON.stringify(wanted)) problems.push(`device changes ${JSON.stringify(changed)}, the person allowed ${JSON.stringify(wanted)}`);
  for (const answer of agent.arrived.filter((m) => m.method === undefined)) {
    const nonce = openAgent.get(answer.id as string | number);
    if (!nonce) {
      problems.push(`the agent got an answer for ${JSON.stringify(answer.id)}, which it has no request open under`);
      continue;
    }
    openAgent.delete(answer.id as string | number);
    const expected = allowedByEditor.get(nonce) ? allow : reject;
    if (JSON.stringify(answer.result) !== JSON.stringify(expected)) problems.push(`the agent's ${nonce} got ${JSON.stringify(answer.result)}, the editor said ${JSON.stringify(expected)}`);
  }
  if (openAgent.size) problems.push(`agent requests never answered: ${JSON.stringify([...openAgent])}`);
  // Each cancel the editor saw names the editor id of an agent request.
  const editorIdOf = new Map(requests.map((m) => [m.id, m.params?.nonce as string]));
  for (const cancel of editor.arrived.filter((m) => m.method === '$/cancel_request')) {
    const nonce = editorIdOf.get(cancel.params?.requestId as string | number);
    if (!nonce?.startsWith('agent-')) problems.push(`a cancel reached the editor for ${JSON.stringify(cancel.params?.requestId)}, no agent request of it`);
  }
  relay.close();
  return problems.length ? problems.join('; ') : undefined;
}

describe(`the relay's ids under fuzzing (${COUNT} seeded interleavings from seed ${FIRST})`, () => {
  it('changes a device only on the person\'s allow of that exact question, and gives every answer to the request it answers', async () => {
    const failures: string[] = [];
    for (let seed = FIRST; seed < FIRST + COUNT; seed++) {
      const problem = await interleaving(prng(seed));
      if (problem) failures.push(`seed ${seed}: ${problem}`);
      if (failures.length >= 5) break;
    }
    process.stdout.write(`fuzz relay ids: ${COUNT} interleavings from seed ${FIRST}, ${failures.length} failing\n`);
    expect(failures).toEqual([]);
  }, COUNT * 100 + 60_000);
});
