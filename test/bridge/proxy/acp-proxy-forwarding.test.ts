// boardbridge acp forwards ACP v1 in both directions: every method of the SDK's
// method table, unknown and `_` extension methods, $/cancel_request, and the
// agent's requests with the editor's answers. The agent is a stand-in that echoes
// what it receives (test/support/echo-agent.mjs); the editor is the test.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AGENT_METHODS, CLIENT_METHODS, PROTOCOL_METHODS } from '@agentclientprotocol/sdk';
import { AGENT_METHODS as UNSTABLE_AGENT_METHODS } from '@agentclientprotocol/sdk/unstable';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextService } from '../../../bridge/context/context-service.js';
import { AcpProxy } from '../../../bridge/proxy/acp-proxy.js';
import { BridgeError } from '../../../bridge/errors.js';
import { allProviders } from '../../../context-providers/index.js';
import { ScriptedEditor, type Wire } from '../../support/scripted-editor.js';

const echoAgent = path.resolve(__dirname, '../../support/echo-agent.mjs');
const proxies: AcpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

function start(): { editor: ScriptedEditor; proxy: AcpProxy; logs: string[] } {
  const editor = new ScriptedEditor();
  const logs: string[] = [];
  const proxy = new AcpProxy({
    launch: { id: 'echo', title: 'echo agent (stand-in)', command: process.execPath, args: [echoAgent], env: {}, via: 'command' },
    editor: editor.stream,
    selection: {},
    env: { ...process.env, BOARDBRIDGE_STATE_DIR: mkdtempSync(path.join(os.tmpdir(), 'bb-proxy-state-')) },
    contexts: new ContextService(allProviders()),
    log: (line) => logs.push(line),
  });
  proxies.push(proxy);
  return { editor, proxy, logs };
}

const FULL_CAPS = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

async function initialized(caps: object = FULL_CAPS): Promise<{ editor: ScriptedEditor; proxy: AcpProxy; cwd: string; logs: string[] }> {
  const started = start();
  const init = await started.editor.request('initialize', { protocolVersion: 1, clientCapabilities: caps, clientInfo: { name: 'scripted-editor', version: '1' } });
  expect(init.error).toBeUndefined();
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'bb-proxy-cwd-'));
  const created = await started.editor.request('session/new', { cwd, mcpServers: [] });
  expect((created.result as { sessionId: string }).sessionId).toBe('echo-session');
  return { ...started, cwd };
}

const echoOf = (answer: Wire) => (answer.result as { echo: { method: string; params: Record<string, unknown> } }).echo;

// Valid params for each agent method (the proxy checks those it changes against the SDK's schema).
function paramsFor(method: string, cwd: string): Record<string, unknown> {
  switch (method) {
    case 'initialize':
      return { protocolVersion: 1, clientCapabilities: FULL_CAPS };
    case 'session/new':
      return { cwd, mcpServers: [{ name: 'editor-server', command: '/bin/true', args: [], env: [] }] };
    case 'session/load':
    case 'session/resume':
      return { sessionId: 'old-session', cwd, mcpServers: [] };
    case 'session/prompt':
      return { sessionId: 'old-session', prompt: [{ type: 'text', text: 'hello', _meta: { from: 'editor' } }] };
    default:
      return { sessionId: 'old-session', methodId: 'm', modeId: 'plan', configId: 'c', value: 'v', cwd, _meta: { vendor: 1 } };
  }
}

describe('boardbridge acp forwards the editor to the agent (stand-in agent that echoes)', () => {
  it('forwards every request in the SDK method table and answers with the agent reply', async () => {
    const { editor, cwd } = await initialized();
    const requests = Object.values(AGENT_METHODS).filter((m) => m !== AGENT_METHODS.session_cancel);
    expect(requests.length).toBeGreaterThanOrEqual(12);
    for (const method of requests) {
      const params = paramsFor(method, cwd);
      const answer = await editor.request(method, params);
      expect(answer.error, method).toBeUndefined();
      if (method === 'initialize') {
        expect((answer.result as { _meta: { echo: { method: string } } })._meta.echo.method).toBe('initialize');
        continue;
      }
      const echo = echoOf(answer);
      expect(echo.method).toBe(method);
      if (method === 'session/new' || method === 'session/load' || method === 'session/resume') {
        // The editor's servers first and unchanged, then the board server.
        const servers = echo.params.mcpServers as { name: string }[];
        expect(servers.map((s) => s.name)).toEqual([...(params.mcpServers as { name: string }[]).map((s) => s.name), 'boardbridge']);
        expect({ ...echo.params, mcpServers: params.mcpServers }).toEqual(params);
      } else if (method === 'session/prompt') {
        // The folder holds no project: the agent is told so, once, before the prompt as it was.
        const [said, ...rest] = echo.params.prompt as { type: string; text?: string }[];
        expect(said.text).toMatch(/^\[boardbridge\] No hardware context: /);
        expect({ ...echo.params, prompt: rest }).toEqual(params);
      } else {
        expect(echo.params).toEqual(params);
      }
    }
  });

  it('passes session/cancel, unknown and _-prefixed notifications and $/cancel_request to the agent unchanged', async () => {
    const { editor } = await initialized();
    editor.notify(AGENT_METHODS.session_cancel, { sessionId: 's1' });
    editor.notify('_vendor/ping', { n: 1, deep: { kept: [1, 2] } });
    editor.notify('future/notification', { anything: true });
    const slow = editor.request('_test/slow', { wait: true }, 'slow-1');
    editor.notify(PROTOCOL_METHODS.cancel_request, { requestId: 'slow-1' });
    void slow;
    const received = (await editor.request('_test/received')).result as { received: { method: string; params: unknown }[] };
    expect(received.received).toEqual([
      { method: 'session/cancel', params: { sessionId: 's1' } },
      { method: '_vendor/ping', params: { n: 1, deep: { kept: [1, 2] } } },
      { method: 'future/notification', params: { anything: true } },
      { method: '$/cancel_request', params: { requestId: 'slow-1' } },
    ]);
  });

  it('passes unknown, extension and the SDK\'s unstable requests to the agent and its answers back', async () => {
    const { editor } = await initialized();
    const stable = new Set<string>(Object.values(AGENT_METHODS));
    const unstable = Object.values(UNSTABLE_AGENT_METHODS).filter((m) => !stable.has(m));
    expect(unstable).toContain('session/fork');
    for (const method of ['_zed/unsaved_buffers', 'vendor/not_in_acp', ...unstable]) {
      const answer = await editor.request(method, { x: [1, { y: null }] });
      expect(echoOf(answer)).toEqual({ method, params: { x: [1, { y: null }] } });
    }
  });

  it('tells the agent only the editor capabilities plus the fs and terminals it serves itself', async () => {
    const { editor } = start();
    const caps = { fs: { readTextFile: true, writeTextFile: false }, elicitation: { form: {} }, _meta: { 'zed/x': 1 } };
    const answer = await editor.request('initialize', { protocolVersion: 1, clientCapabilities: caps });
    const told = (answer.result as { _meta: { echo: { params: { clientCapabilities: Record<string, unknown> } } } })._meta.echo.params.clientCapabilities;
    expect(told).toEqual({ ...caps, fs: { readTextFile: true, writeTextFile: true }, terminal: true });
  });

  it('passes a prompt block the schema does not know on to the agent as it is, and logs what the schema did not accept', async () => {
    const { editor, logs } = await initialized();
    const prompt = [{ type: 'text', text: 'look' }, { type: 'future_block', payload: { x: 1 } }];
    const answer = await editor.request('session/prompt', { sessionId: 'echo-session', prompt });
    expect((echoOf(answer).params.prompt as unknown[]).slice(1)).toEqual(prompt);
    expect(logs.some((l) => /^session\/prompt: prompt\.1: .*\(passed on to the agent as it is\)$/.test(l))).toBe(true);
  });

  it('refuses a malformed session/new with the field at fault, without bothering the agent', async () => {
    const { editor } = await initialized();
    const answer = await editor.request('session/new', { cwd: 42, mcpServers: [] });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/session\/new: cwd: .*string/);
  });
});

describe('boardbridge acp forwards the agent to the editor (stand-in agent that echoes)', () => {
  it('forwards every client request in the SDK method table to an editor that has fs and terminals, and its answer back', async () => {
    const { editor } = await initialized();
    for (const method of Object.values(CLIENT_METHODS).filter((m) => m !== CLIENT_METHODS.session_update && m !== CLIENT_METHODS.elicitation_complete)) {
      const params = { sessionId: 'echo-session', terminalId: 'editor-term-1', path: '/tmp/x', content: 'c', command: 'ls', _meta: { vendor: true } };
      const asked = editor.next((m) => m.method === method);
      const call = editor.request('_test/call_client', { method, params });
      const request = await asked;
      expect(request.params).toEqual(params);
      editor.send({ id: request.id, result: { answeredBy: 'editor', method } });
      const reply = ((await call).result as { reply: Wire }).reply;
      expect(reply.result).toEqual({ answeredBy: 'editor', method });
    }
  });

  it('passes session/update, elicitation/complete and extension notifications to the editor unchanged', async () => {
    const { editor } = await initialized();
    const notes = [
      { method: 'session/update', params: { sessionId: 'echo-session', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' }, futureField: { kept: true } } } },
      { method: 'session/update', params: { sessionId: 'echo-session', update: { sessionUpdate: 'some_future_update', x: 1 } } },
      { method: 'elicitation/complete', params: { elicitationId: 'e1' } },
      { method: '_vendor/progress', params: { pct: 50 } },
    ];
    for (const note of notes) {
      const seen = editor.next((m) => m.method === note.method && JSON.stringify(m.params) === JSON.stringify(note.params));
      await editor.request('_test/notify_client', note);
      expect((await seen).params).toEqual(note.params);
    }
  });

  it('delivers a burst of updates in order and all of them before the answer that follows them', async () => {
    const { editor } = await initialized();
    const from = editor.seen.length;
    const answer = await editor.request('_test/flood', { sessionId: 'echo-session', count: 2000 });
    expect(answer.result).toEqual({ sent: 2000 });
    const texts = editor.seen.slice(from).filter((m) => m.method === 'session/update').map((m) => ((m.params as { update: { content: { text: string } } }).update.content.text));
    expect(texts).toEqual(Array.from({ length: 2000 }, (_, i) => `${i} `));
  });

  it('maps the agent\'s $/cancel_request to the id the editor knows its request by', async () => {
    const { editor } = await initialized();
    const asked = editor.next((m) => m.method === '_vendor/slow_question');
    void editor.request('_test/call_client', { id: 'agent-req-7', method: '_vendor/slow_question', params: {} });
    const request = await asked;
    const cancel = editor.next((m) => m.method === '$/cancel_request');
    await editor.request('_test/notify_client', { method: '$/cancel_request', params: { requestId: 'agent-req-7' } });
    expect((await cancel).params).toEqual({ requestId: request.id });
  });

  it('passes unknown agent requests to the editor and an error answer back unchanged', async () => {
    const { editor } = await initialized();
    const asked = editor.next((m) => m.method === '_vendor/ask_editor');
    const call = editor.request('_test/call_client', { method: '_vendor/ask_editor', params: { q: 1 } });
    const request = await asked;
    editor.send({ id: request.id, error: { code: -32601, message: 'Method not found', data: { method: '_vendor/ask_editor' } } });
    expect(((await call).result as { reply: Wire }).reply.error).toEqual({ code: -32601, message: 'Method not found', data: { method: '_vendor/ask_editor' } });
  });

  it('merges /board and /context into the agent commands shown to the editor', async () => {
    const { editor } = await initialized();
    const params = { sessionId: 'echo-session', update: { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'compact', description: 'agent command' }] } };
    const seen = editor.next((m) => m.method === 'session/update' && (m.params as { update: { availableCommands?: { name: string }[] } }).update.availableCommands?.[0]?.name === 'compact');
    await editor.request('_test/notify_client', { method: 'session/update', params });
    const names = ((await seen).params as { update: { availableCommands: { name: string }[] } }).update.availableCommands.map((c) => c.name);
    expect(names).toEqual(['compact', 'board', 'context']);
  });
});

describe('boardbridge acp serves an editor without fs or terminals itself (stand-in agent)', () => {
  it('writes the file journalled in the workspace and runs the terminal the editor allowed when the editor has neither', async () => {
    const { editor, cwd } = await initialized({});
    const file = path.join(cwd, 'note.txt');
    const write = await editor.request('_test/call_client', { method: 'fs/write_text_file', params: { sessionId: 'echo-session', path: file, content: 'from the agent\n' } });
    expect(((write.result as { reply: Wire }).reply).error).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe('from the agent\n');
    const read = await editor.request('_test/call_client', { method: 'fs/read_text_file', params: { sessionId: 'echo-session', path: file } });
    expect(((read.result as { reply: Wire }).reply.result as { content: string }).content).toBe('from the agent\n');
    const outside = await editor.request('_test/call_client', { method: 'fs/write_text_file', params: { sessionId: 'echo-session', path: '/etc/boardbridge-nope', content: 'x' } });
    expect(((outside.result as { reply: Wire }).reply).error?.message).toMatch(/outside|workspace/i);
    // Without a permission the editor granted, the proxy's own terminal refuses the command.
    const refused = await editor.request('_test/call_client', { method: 'terminal/create', params: { sessionId: 'echo-session', command: 'echo hello-from-proxy' } });
    expect(((refused.result as { reply: Wire }).reply).error?.message).toMatch(/Permission denied: the editor granted no permission/);
    // The agent's own execute step, allowed in the editor, covers the same command line.
    const asked = editor.next((m) => m.method === 'session/request_permission');
    const permission = editor.request('_test/call_client', {
      method: 'session/request_permission',
      params: {
        sessionId: 'echo-session',
        toolCall: { toolCallId: 'bash-1', title: '`echo hello-from-proxy`', kind: 'execute', rawInput: { command: 'echo hello-from-proxy' } },
        options: [{ optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }],
      },
    });
    editor.send({ id: (await asked).id, result: { outcome: { outcome: 'selected', optionId: 'yes' } } });
    await permission;
    const created = await editor.request('_test/call_client', { method: 'terminal/create', params: { sessionId: 'echo-session', command: 'echo hello-from-proxy' } });
    const terminalId = (((created.result as { reply: Wire }).reply.result) as { terminalId: string }).terminalId;
    await editor.request('_test/call_client', { method: 'terminal/wait_for_exit', params: { sessionId: 'echo-session', terminalId } });
    const output = await editor.request('_test/call_client', { method: 'terminal/output', params: { sessionId: 'echo-session', terminalId } });
    expect((((output.result as { reply: Wire }).reply.result) as { output: string }).output).toContain('hello-from-proxy');
    // The editor never saw any of it.
    expect(editor.seen.filter((m) => typeof m.method === 'string' && /^(fs|terminal)\//.test(m.method))).toEqual([]);
  });
});

describe('boardbridge acp slash commands and failures', () => {
  it('answers /board and /context itself and never forwards them', async () => {
    const { editor } = await initialized(FULL_CAPS);
    // The folder holds no sketch: the board's context alone.
    const chunk = editor.next((m) => m.method === 'session/update' && /Board set to Arduino UNO \(arduino:avr:uno\)/.test(JSON.stringify(m.params)));
    const answer = await editor.request('session/prompt', { sessionId: 'echo-session', prompt: [{ type: 'text', text: '/board arduino:avr:uno' }] });
    expect(answer.result).toEqual({ stopReason: 'end_turn' });
    await chunk;
    const context = await editor.request('session/prompt', { sessionId: 'echo-session', prompt: [{ type: 'text', text: '/context' }] });
    expect(context.result).toEqual({ stopReason: 'end_turn' });
    const received = (await editor.request('_test/received')).result as { received: unknown[] };
    expect(received.received).toEqual([]);
  });

  it('answers every request with the install hint when the agent is not installed', async () => {
    const editor = bare(new BridgeError('agent_not_found', 'Claude (ACP adapter) is not installed', 'install it: npm install -g @agentclientprotocol/claude-agent-acp'));
    const answer = await editor.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(answer.error?.message).toContain('is not installed');
    expect(answer.error?.message).toContain('npm install -g @agentclientprotocol/claude-agent-acp');
  });

  it('turns an agent that cannot start into an ACP error that names the command', async () => {
    const editor = bare({ id: 'missing', title: 'missing-agent', command: '/nonexistent/agent-binary', args: [], env: {}, via: 'command' });
    const answer = await editor.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(answer.error?.message).toMatch(/cannot start missing-agent \(\/nonexistent\/agent-binary\)/);
    expect(answer.error?.message).toMatch(/check that \/nonexistent\/agent-binary is installed/);
  });

  it('ends the agent process when the editor closes its side', async () => {
    const { editor, proxy } = await initialized(FULL_CAPS);
    const pid = proxy.agent?.pid;
    expect(pid).toBeGreaterThan(0);
    editor.close();
    await proxy.closed;
    expect(alive(pid!)).toBe(false);
  });
});

// A proxy without contexts or hardware, for how it fails.
function bare(launch: ConstructorParameters<typeof AcpProxy>[0]['launch']): ScriptedEditor {
  const editor = new ScriptedEditor();
  proxies.push(new AcpProxy({ launch, editor: editor.stream, selection: {}, env: process.env, log: () => undefined }));
  return editor;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
