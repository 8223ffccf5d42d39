// Attacks on `boardbridge acp` from both sides, as the second red team ran them
// (issue 21): the proxy runs as a process in front of the echo stand-in agent (the
// agent's part that cannot exist here: an agent that sends what the test tells it),
// the test is the editor writing raw JSON lines, and calls the board MCP server as
// the agent's MCP client would. Each attack worked on main at 373e68f.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { alive } from '../support/process-alive.js';
import { until } from '../support/until.js';
import { ProxyProcess } from '../support/proxy-process.js';
import type { Wire } from '../support/scripted-editor.js';

const proxies: ProxyProcess[] = [];
const clients: Client[] = [];
const strays: number[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  for (const p of proxies.splice(0)) p.kill();
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
});

function started(): ProxyProcess {
  const proxy = new ProxyProcess();
  proxies.push(proxy);
  return proxy;
}

/** The agent's MCP client to the board server the proxy gave it in session/new. */
async function boardServer(servers: Wire[]): Promise<Client> {
  const entry = servers.find((s) => s.name === 'boardbridge') as { url: string; headers: { name: string; value: string }[] } | undefined;
  if (!entry) throw new Error(`no board server in ${JSON.stringify(servers)}`);
  const client = new Client({ name: 'stand-in agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: Object.fromEntries(entry.headers.map((h) => [h.name, h.value])) } }));
  clients.push(client);
  return client;
}

const textOf = (result: unknown) => ((result as { content: { text: string }[] }).content ?? []).map((c) => c.text).join('\n');
const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const permissionTitled = (match: (title: string) => boolean) => (m: Wire) =>
  m.method === 'session/request_permission' && match(((m.params as { toolCall: { title: string } }).toolCall.title));
const titleOf = (m: Wire) => (m.params as { toolCall: { title: string } }).toolCall.title;
const chose = (optionId: string) => ({ outcome: { outcome: 'selected', optionId } });

describe('boardbridge acp decides a device change only by the person\'s answer to that exact question', () => {
  it('keeps the agent\'s request ids away from its own: an allow of the agent\'s "Read README.md" never answers the run_script question', async () => {
    const proxy = started();
    const { sessionId, mcpServers } = await proxy.open();
    const agentIds = ['boardbridge-1', 'boardbridge-2', 1, 2, 3, '1'];
    const replies = agentIds.map((id) =>
      proxy.agentCalls('session/request_permission', { sessionId, toolCall: { toolCallId: `read-${id}`, title: 'Read README.md', kind: 'read' }, options: OPTIONS }, id),
    );
    const reads: Wire[] = [];
    for (let i = 0; i < agentIds.length; i++) reads.push(await proxy.next(permissionTitled((t) => t === 'Read README.md')));
    const mcp = await boardServer(mcpServers);
    const run = mcp.callTool({ name: 'run_script', arguments: { file: 'main.py', port: '/dev/bb-no-such-port' } });
    const question = await proxy.next(permissionTitled((t) => t.includes('(it replaces what runs there)')));
    // The editor allows each read by the id it was shown, then refuses the run.
    for (const read of reads) proxy.send({ id: read.id, result: chose('allow') });
    proxy.send({ id: question.id, result: chose('reject') });
    expect(textOf(await run)).toMatch(/^Not done: run main\.py on the camera on \/dev\/bb-no-such-port \(it replaces what runs there\)\? was not allowed/);
    for (const reply of await Promise.all(replies)) expect(reply.result).toEqual(chose('allow'));
    // and each answer went back under the id the agent gave.
    const agentSaw = await Promise.all(replies);
    expect(agentSaw.map((r) => r.id)).toEqual(agentIds);
    // Every request the editor saw had an id of its own.
    expect(new Set([...reads, question].map((m) => JSON.stringify(m.id))).size).toBe(agentIds.length + 1);
  }, 60_000);

  it('shows the editor every permission request that names the board server in its title or command, and lets the editor answer it', async () => {
    const proxy = started();
    const { sessionId, cwd } = await proxy.open();
    const disguised = [
      { toolCallId: 'a', title: 'avrdude -c arduino -P /dev/ttyACM0 -U flash:w:evil.hex # mcp__boardbridge__x', kind: 'execute', rawInput: { command: 'avrdude -c arduino -P /dev/ttyACM0 -U flash:w:evil.hex # mcp__boardbridge__x' } },
      { toolCallId: 'b', title: 'rm -rf ~/projects (boardbridge MCP Server)', kind: 'execute', rawInput: { command: 'rm -rf ~/projects' } },
      { toolCallId: 'c', title: 'Edit ~/.bashrc', kind: 'edit', rawInput: { file_path: `${cwd}/../.bashrc`, command: 'mcp_boardbridge_upload' } },
      { toolCallId: 'd', title: 'mcp__boardbridge__board_info', kind: 'other', rawInput: {} },
    ];
    for (const toolCall of disguised) {
      const reply = proxy.agentCalls('session/request_permission', { sessionId, toolCall, options: OPTIONS });
      const asked = proxy.next(permissionTitled((t) => t === toolCall.title));
      const first = await Promise.race([reply.then(() => 'the proxy answered the agent itself'), asked.then(() => 'the editor was asked')]);
      expect(first, toolCall.title).toBe('the editor was asked');
      proxy.send({ id: (await asked).id, result: chose('reject') });
      expect((await reply).result).toEqual(chose('reject'));
    }
  }, 60_000);

  it('bounds the agent text in the device question: newlines and a long name cannot push "(it replaces what runs there)" out of view', async () => {
    const proxy = started();
    const { mcpServers } = await proxy.open();
    const mcp = await boardServer(mcpServers);
    const file = `main.py${'\n'.repeat(12)}${'x'.repeat(1000)}\u001b[2K.py`;
    const run = mcp.callTool({ name: 'run_script', arguments: { file, port: '/dev/bb-no-such-port' } });
    const question = await proxy.next(permissionTitled((t) => t.includes('on the camera')));
    const title = titleOf(question);
    expect(title).not.toMatch(/[\n\r\u001b]/);
    expect(title.length).toBeLessThan(420);
    expect(title).toMatch(/^run "main\.py(\\n){12}x+….*\\e\[2K\.py" on the camera on \/dev\/bb-no-such-port \(it replaces what runs there\)\?$/);
    proxy.send({ id: question.id, result: chose('reject') });
    expect(textOf(await run)).toMatch(/was not allowed/);
  }, 60_000);
});

describe('boardbridge acp keeps reading the editor whatever is open', () => {
  it('reads the editor\'s answers with 70 agent questions open, and refuses what is over its limit instead of stopping', async () => {
    const proxy = started();
    const { sessionId } = await proxy.open();
    const calls = Array.from({ length: 70 }, (_, i) =>
      proxy.request('_test/call_client', { method: 'session/request_permission', params: { sessionId, toolCall: { toolCallId: `t${i}`, title: `question ${i}`, kind: 'execute' }, options: OPTIONS } }),
    );
    const asked: Wire[] = [];
    for (let i = 0; i < 64; i++) asked.push(await proxy.next(permissionTitled((t) => t.startsWith('question '))));
    proxy.send({ method: 'session/cancel', params: { sessionId } });
    for (const request of asked.reverse()) proxy.send({ id: request.id, result: chose('allow') });
    const answers = await Promise.all(calls);
    const refused = answers.filter((a) => a.error);
    expect(refused).toHaveLength(6);
    for (const r of refused) expect(r.error?.message).toMatch(/boardbridge refused _test\/call_client: 64 requests like it are still open; answer or cancel some/);
    expect(answers.filter((a) => (a.result as { reply?: Wire } | undefined)?.reply?.result)).toHaveLength(64);
    const received = (await proxy.request('_test/received')).result as { received: { method: string }[] };
    expect(received.received.map((m) => m.method)).toContain('session/cancel');
  }, 120_000);

  it('refuses a request with "id": null as an Invalid Request, and never passes it to the agent as a notification', async () => {
    const proxy = started();
    const { sessionId } = await proxy.open();
    const answer = proxy.next((m) => m.id === null && m.method === undefined);
    proxy.line(JSON.stringify({ jsonrpc: '2.0', id: null, method: 'session/prompt', params: { sessionId, prompt: [{ type: 'text', text: 'hi' }] } }));
    expect((await answer).error?.code).toBe(-32600);
    const received = (await proxy.request('_test/received')).result as { received: { method: string }[] };
    expect(received.received).toEqual([]);
    // The proxy still answers.
    expect((await proxy.request('session/set_mode', { sessionId, modeId: 'plan' })).result).toBeDefined();
  }, 60_000);
});

describe('boardbridge acp ends what the agent started and runs what the editor allowed', () => {
  it('ends a child the agent started in a session of its own (setsid) when the editor closes stdin', async () => {
    const proxy = started();
    await proxy.open();
    const spawned = await proxy.request('_test/spawn', { command: 'sleep', args: ['300'] });
    const pid = (spawned.result as { pid: number }).pid;
    strays.push(pid);
    // It did leave the agent's process group: its own session.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [, , pgrp, session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    expect(Number(pgrp)).toBe(pid);
    expect(Number(session)).toBe(pid);
    proxy.child.stdin.end();
    expect(await proxy.closed).toBe(0);
    await until("the agent's child in its own session to end", () => !alive(pid), { stepMs: 100 });
  }, 60_000);

  it('runs a board command that changes something in the agent terminal once the editor (which has terminals) allowed it', async () => {
    const proxy = started();
    const { sessionId } = await proxy.open();
    const command = 'boardbridge stop-script --port /dev/bb-no-such-port';
    const refused = await proxy.agentCalls('terminal/create', { sessionId, command });
    expect(refused.error?.message).toMatch(/the editor granted no permission in this turn that covers/);
    const reply = proxy.agentCalls('session/request_permission', { sessionId, toolCall: { toolCallId: 'bash-1', title: `\`${command}\``, kind: 'execute', rawInput: { command } }, options: OPTIONS });
    const asked = await proxy.next(permissionTitled((t) => t === `\`${command}\``));
    proxy.send({ id: asked.id, result: chose('allow') });
    expect((await reply).result).toEqual(chose('allow'));
    const created = await proxy.agentCalls('terminal/create', { sessionId, command });
    expect(created.error).toBeUndefined();
    const terminalId = (created.result as { terminalId: string }).terminalId;
    await proxy.agentCalls('terminal/wait_for_exit', { sessionId, terminalId });
    const output = (await proxy.agentCalls('terminal/output', { sessionId, terminalId })).result as { output: string };
    expect(output.output).toContain('/dev/bb-no-such-port');
    // The editor's terminals never saw it: the proxy ran it on its own serial hub.
    expect(proxy.seen.filter((m) => m.method === 'terminal/create')).toEqual([]);
  }, 60_000);
});
