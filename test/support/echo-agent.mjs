// A stand-in ACP agent at the JSON-RPC level, for relay tests: it answers every
// request with what it received ({echo: {method, params}}), keeps every
// notification, and on `_test/call_client` / `_test/notify_client` sends the
// client the request or notification it is given (answering with the client's reply);
// `_test/flood` sends a burst of updates before its answer; `_test/spawn` starts a
// command in a session of its own (setsid), as an agent's shell may, and gives its pid.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const received = [];
// ECHO_EMBEDDED=0: no embedded context; ECHO_MCP_HTTP=0: stdio MCP servers only; ECHO_MCP_ACP=1: MCP servers over ACP too;
// ECHO_ADDITIONAL_DIRS=1: takes additionalDirectories.
const agentCapabilities = {
  loadSession: true,
  promptCapabilities: { embeddedContext: process.env.ECHO_EMBEDDED !== '0' },
  mcpCapabilities: { http: process.env.ECHO_MCP_HTTP !== '0', ...(process.env.ECHO_MCP_ACP === '1' ? { acp: true } : {}) },
  ...(process.env.ECHO_ADDITIONAL_DIRS === '1' ? { sessionCapabilities: { additionalDirectories: {} } } : {}),
};
const waiting = new Map();
let nextId = 1;
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined) {
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    pending?.(message);
    return;
  }
  if (message.id === undefined) {
    received.push({ method: message.method, params: message.params });
    return;
  }
  const { id, method, params } = message;
  switch (method) {
    case 'initialize':
      return send({ id, result: { protocolVersion: 1, agentInfo: { name: 'echo-agent', version: '1.0.0' }, agentCapabilities, authMethods: [], _meta: { echo: { method, params } } } });
    case '_test/received':
      return send({ id, result: { received } });
    case '_test/slow':
      return; // answered only by a cancel
    case '_test/flood':
      // `count` updates in one burst, then the answer: a client must see them all before it.
      for (let seq = 0; seq < params.count; seq++) send({ method: 'session/update', params: { sessionId: params.sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${seq} ` } } } });
      return send({ id, result: { sent: params.count } });
    case '_test/spawn': {
      const child = spawn(params.command, params.args ?? [], { detached: true, stdio: 'ignore' });
      child.unref();
      return send({ id, result: { pid: child.pid } });
    }
    case '_test/notify_client':
      send({ method: params.method, params: params.params });
      return send({ id, result: {} });
    case '_test/call_client': {
      const callId = params.id ?? nextId++;
      waiting.set(callId, (reply) => send({ id, result: { reply } }));
      return send({ id: callId, method: params.method, params: params.params });
    }
    case 'session/new':
      return send({ id, result: { sessionId: 'echo-session', echo: { method, params } } });
    default:
      return send({ id, result: { echo: { method, params } } });
  }
});
