// A stand-in ACP agent that sends what no real agent sends on purpose: written by hand
// (not with the SDK, which would refuse to write most of it). The prompt text says what:
//   "deep"                        a bare object nested 10,000 deep, then a request nested as deep
//   "big-write <file> <MB>"       fs/write_text_file whose line is <MB> MB; reports the answer
//   "big-hidden-id <MB>"          a request of <MB> MB whose id sits where no reader finds it
//   "flood <file> <n> <marker>"   n fs/read_text_file at once without reading its stdin until <marker> exists
//   "read-then-big <file> <MB>"   fs/read_text_file, reading nothing for 300 ms, then a <MB> MB update written
//                                 with blocking writes (no answer is read until it is through, as a simple agent
//                                 in another language does; node's own stdout would buffer it instead)
//   "null-result", "stop:<x>"     a session/prompt reply of null, or with stop reason <x>
import { existsSync, writeSync } from 'node:fs';

const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const say = (sessionId, text) => send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });
const waiting = new Map();
let nextId = 1000;
const request = (method, params) => {
  const id = nextId++;
  send({ jsonrpc: '2.0', id, method, params });
  return answerTo(id);
};
const answerTo = (id) => new Promise((resolve) => waiting.set(id, resolve));
// A write that blocks the whole process until the pipe took all of it.
function writeBlocking(text) {
  const bytes = Buffer.from(text);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(1, bytes, at);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function prompt(id, params) {
  const text = params.prompt.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
  const sessionId = params.sessionId;
  const reply = (result) => send({ jsonrpc: '2.0', id, result });
  let m;
  if (text.includes('deep')) {
    const deep = (inner) => '{"a":'.repeat(10_000) + inner + '}'.repeat(10_000);
    process.stdout.write(deep('1') + '\n');
    process.stdout.write(`{"jsonrpc":"2.0","id":77,"method":"fs/read_text_file","params":{"sessionId":"${sessionId}","path":"x","_meta":${deep('1')}}}\n`);
    const answer = await answerTo(77);
    say(sessionId, `deep request answered: ${answer.error ? `error ${answer.error.code} ${answer.error.message}` : 'ok'}`);
    return reply({ stopReason: 'end_turn' });
  }
  if ((m = text.match(/big-write (\S+) (\d+)/))) {
    const answer = await request('fs/write_text_file', { sessionId, path: m[1], content: 'x'.repeat(Number(m[2]) * 1_000_000) });
    say(sessionId, `write answered: ${answer.error ? `error ${answer.error.code} ${answer.error.message}` : 'ok'}`);
    return reply({ stopReason: 'end_turn' });
  }
  if ((m = text.match(/big-hidden-id (\d+)/))) {
    // the id is neither in the first nor in the last 64 KiB of the line
    const pad = 'y'.repeat(200_000);
    process.stdout.write(`{"jsonrpc":"2.0","params":{"sessionId":"${sessionId}","path":"a.txt","content":"${'x'.repeat(Number(m[1]) * 1_000_000)}"},"id":555,"method":"fs/write_text_file","padding":"${pad}"}\n`);
    return; // never answers the prompt: the bridge has to end the turn itself
  }
  if ((m = text.match(/flood (\S+) (\d+) (\S+)/))) {
    process.stdin.pause();
    const answers = [];
    for (let i = 0; i < Number(m[2]); i++) answers.push(request('fs/read_text_file', { sessionId, path: m[1] }));
    while (!existsSync(m[3])) await sleep(20);
    process.stdin.resume();
    const got = await Promise.all(answers);
    say(sessionId, `flood answered: ${got.filter((a) => a.result?.content?.length > 0).length} of ${got.length}`);
    return reply({ stopReason: 'end_turn' });
  }
  if ((m = text.match(/read-then-big (\S+) (\d+)/))) {
    // busy for a moment (reading nothing) while the answer comes, then the big write
    process.stdin.pause();
    const read = request('fs/read_text_file', { sessionId, path: m[1] });
    await sleep(300);
    const big = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'b'.repeat(Number(m[2]) * 1_000_000) } } } });
    writeBlocking(big + '\n');
    process.stdin.resume();
    const answer = await read;
    say(sessionId, `read then big: ${answer.result ? `read ${answer.result.content.length}` : 'error'}`);
    return reply({ stopReason: 'end_turn' });
  }
  if (text.includes('null-result')) return reply(null);
  if ((m = text.match(/stop:(\S+)/))) return reply({ stopReason: m[1] });
  say(sessionId, 'hello');
  return reply({ stopReason: 'end_turn' });
}

function onMessage(message) {
  if (message.method === undefined) {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
    return;
  }
  if (message.method === 'initialize') {
    send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: 1, agentInfo: { name: 'hostile-agent', version: '1.0.0' }, agentCapabilities: {} } });
  } else if (message.method === 'session/new') {
    send({ jsonrpc: '2.0', id: message.id, result: { sessionId: 'hostile-session' } });
  } else if (message.method === 'session/prompt') {
    void prompt(message.id, message.params);
  } else if (message.id !== undefined) {
    send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
}

let pending = [];
process.stdin.on('data', (chunk) => {
  let from = 0;
  for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
    pending.push(chunk.subarray(from, nl));
    const line = Buffer.concat(pending).toString('utf8');
    pending = [];
    from = nl + 1;
    if (line.trim()) onMessage(JSON.parse(line));
  }
  if (from < chunk.length) pending.push(chunk.subarray(from));
});
