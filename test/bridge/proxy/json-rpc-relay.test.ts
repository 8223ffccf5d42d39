// The relay on its own, between two in-memory streams: hooks that take over a
// request, and a hook that never finishes without holding the editor back.
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { JsonRpcRelay } from '../../../bridge/proxy/json-rpc-relay.js';
import { ScriptedEditor } from '../../support/scripted-editor.js';

/** The agent's end as a test drives it: what the relay sent it, and a way to answer. */
function scriptedAgent(): { stream: Stream; received: AnyMessage[]; send: (m: object) => void } {
  const toRelay = new TransformStream<AnyMessage, AnyMessage>();
  const fromRelay = new TransformStream<AnyMessage, AnyMessage>();
  const received: AnyMessage[] = [];
  void fromRelay.readable.pipeTo(new WritableStream({ write: (m) => void received.push(m) }));
  const writer = toRelay.writable.getWriter();
  return { stream: { readable: toRelay.readable, writable: fromRelay.writable }, received, send: (m) => void writer.write({ jsonrpc: '2.0', ...m } as AnyMessage) };
}

describe('the JSON-RPC relay', () => {
  it('answers a request whose hook never finishes with an error after the timeout, and keeps forwarding what follows', async () => {
    const editor = new ScriptedEditor();
    const agent = scriptedAgent();
    new JsonRpcRelay(editor.stream, agent.stream, {
      editorRequest: (method) => (method === 'session/prompt' ? new Promise(() => undefined) : undefined),
      hookTimeoutMs: 200,
    });
    const stuck = editor.request('session/prompt', { sessionId: 's', prompt: [] }, 1);
    const next = editor.request('session/set_mode', { sessionId: 's', modeId: 'plan' }, 2);
    const answer = await stuck;
    expect(answer.error?.message).toMatch(/took over 0.2 s preparing session\/prompt; it was not sent to the agent/);
    await new Promise((r) => setTimeout(r, 50));
    expect(agent.received.map((m) => (m as { method?: string }).method)).toEqual(['session/set_mode']);
    agent.send({ id: 2, result: {} });
    expect((await next).result).toEqual({});
  });

  it('lets a hook answer a request itself or change its params and result', async () => {
    const editor = new ScriptedEditor();
    const agent = scriptedAgent();
    new JsonRpcRelay(editor.stream, agent.stream, {
      editorRequest: (method, params) => {
        if (method === 'ours') return { answer: { by: 'relay' } };
        if (method === 'changed') return { forward: { ...(params as object), added: true }, after: (r) => ({ ...(r as object), seen: true }) };
        return undefined;
      },
    });
    expect((await editor.request('ours', {})).result).toEqual({ by: 'relay' });
    const changed = editor.request('changed', { a: 1 }, 'c1');
    await new Promise((r) => setTimeout(r, 50));
    expect(agent.received).toEqual([{ jsonrpc: '2.0', id: 'c1', method: 'changed', params: { a: 1, added: true } }]);
    agent.send({ id: 'c1', result: { ok: 1 } });
    expect((await changed).result).toEqual({ ok: 1, seen: true });
  });

  it('passes the editor\'s answer to the agent at once while a prompt is still being prepared', async () => {
    const editor = new ScriptedEditor();
    const agent = scriptedAgent();
    let release!: () => void;
    new JsonRpcRelay(editor.stream, agent.stream, {
      editorRequest: (method, params) => (method === 'session/prompt' ? new Promise((resolve) => (release = () => resolve({ forward: params }))) : undefined),
    });
    const asked = editor.next((m) => m.method === 'session/request_permission');
    agent.send({ id: 'perm-1', method: 'session/request_permission', params: {} });
    const request = await asked;
    void editor.request('session/prompt', { sessionId: 's', prompt: [] }, 'p1');
    await new Promise((r) => setTimeout(r, 20));
    editor.send({ id: request.id, result: { outcome: { outcome: 'cancelled' } } });
    await new Promise((r) => setTimeout(r, 20));
    expect(agent.received).toEqual([{ jsonrpc: '2.0', id: 'perm-1', result: { outcome: { outcome: 'cancelled' } } }]);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(agent.received.map((m) => (m as { method?: string }).method)).toEqual([undefined, 'session/prompt']);
  });

  it('fails its own requests to the editor when the editor closes, instead of waiting for ever', async () => {
    const editor = new ScriptedEditor();
    const agent = scriptedAgent();
    const relay = new JsonRpcRelay(editor.stream, agent.stream, {});
    const consent = relay.requestEditor('session/request_permission', {});
    await editor.next((m) => m.method === 'session/request_permission');
    editor.close();
    await expect(consent).rejects.toMatchObject({ message: 'the editor closed the connection before it answered' });
  });
});
