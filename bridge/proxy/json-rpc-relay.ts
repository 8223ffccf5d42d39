// The proxy's wire: JSON-RPC messages between the editor and the agent, forwarded
// as they are, in the order they arrive. Hooks may take a method over (answer it,
// or change its params or result); everything else — unknown and `_` extension
// methods included — passes through untouched. Every request that goes to the
// editor, the agent's as well as the proxy's own, gets an id the relay assigns;
// an answer is matched by the relay's table of those ids, so no id an agent picks
// can stand for one of the proxy's requests (a device consent, say).
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';

export type JsonRpcId = string | number;
type Message = Record<string, unknown> & { jsonrpc?: string; id?: JsonRpcId | null; method?: string; params?: unknown };

/** What a hook decides for a request: forward it (maybe changed), or answer it here. */
export type Outcome =
  | { forward: unknown; after?: (result: unknown) => unknown; failed?: (error: RpcError) => void }
  | { answer: unknown }
  | { error: RpcError };

/** Forward an agent request to the editor and hear its answer before the agent does. */
export interface AgentForward {
  answered: (answer: { result?: unknown; error?: RpcError }) => void;
}

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface RelayHooks {
  /** Editor requests the proxy takes part in (the rest pass through); may be async: later editor messages wait. */
  editorRequest?: (method: string, params: unknown) => Promise<Outcome> | Outcome | undefined;
  /**
   * Agent requests the proxy answers itself (a promise of the result), or forwards and hears the
   * editor's answer of (`{ answered }`), decided at once (undefined: forward to the editor).
   */
  agentRequest?: (method: string, params: unknown) => Promise<unknown> | AgentForward | undefined;
  /** Agent notifications, changed or dropped (undefined) before the editor sees them. */
  agentNotification?: (method: string, params: unknown) => unknown;
  editorNotification?: (method: string, params: unknown) => void;
  /** The agent's side ended: every request still waiting on it is answered with this error. */
  agentGone?: () => RpcError;
  /** The agent's output ended (its exit may come a moment later); default: agentEnded() at once. */
  agentClosed?: () => void;
  /** The editor's side ended (it closed our stdin). */
  editorClosed?: () => void;
  log?: (line: string) => void;
  /** How long an async editorRequest hook may take before the request is answered with an error (default 60 s). */
  hookTimeoutMs?: number;
}

const CANCEL_REQUEST = '$/cancel_request';

/** What an editor-side id stands for: an agent request forwarded under it, or one of the proxy's own. */
type AtEditor =
  | { agentId: JsonRpcId; answered?: AgentForward['answered'] }
  | { resolve: (r: unknown) => void; reject: (e: RpcError) => void };

export class JsonRpcRelay {
  private readonly toEditor: WritableStreamDefaultWriter<AnyMessage>;
  private readonly toAgent: WritableStreamDefaultWriter<AnyMessage>;
  /** Editor request ids waiting for the agent's answer, with what to do with it. */
  private readonly atAgent = new Map<JsonRpcId, { after?: (result: unknown) => unknown; failed?: (error: RpcError) => void }>();
  /** Requests open at the editor, by the id the relay gave them there (no other ids go to the editor). */
  private readonly atEditor = new Map<number, AtEditor>();
  /** The editor-side id of each open agent request, by the agent's id: where its $/cancel_request goes. */
  private readonly agentIdsAtEditor = new Map<JsonRpcId, number>();
  private editorQueue: Promise<void> = Promise.resolve();
  private editorBusy = 0;
  private editorIds = 0;
  private agentAlive = true;
  private editorAlive = true;

  constructor(
    editor: Stream,
    agent: Stream,
    private readonly hooks: RelayHooks = {},
  ) {
    this.toEditor = editor.writable.getWriter();
    this.toAgent = agent.writable.getWriter();
    void this.pump(editor.readable, (m) => this.fromEditor(m)).then(() => this.editorEnded());
    void this.pump(agent.readable, (m) => this.fromAgent(m)).then(() => (hooks.agentClosed ? hooks.agentClosed() : this.agentEnded()));
  }

  /** A request of the proxy's own to the editor (device consent, say). */
  requestEditor(method: string, params: unknown): Promise<unknown> {
    if (!this.editorAlive) return Promise.reject<unknown>({ code: -32603, message: 'the editor has closed the connection' });
    const id = ++this.editorIds;
    return new Promise((resolve, reject) => {
      this.atEditor.set(id, { resolve, reject });
      this.send(this.toEditor, { jsonrpc: '2.0', id, method, params });
    });
  }

  notifyEditor(method: string, params: unknown): void {
    this.send(this.toEditor, { jsonrpc: '2.0', method, params });
  }

  notifyAgent(method: string, params: unknown): void {
    if (this.agentAlive) this.send(this.toAgent, { jsonrpc: '2.0', method, params });
  }

  /** Called when the agent process is known to be gone (its pipe may stay open a moment longer). */
  agentEnded(): void {
    if (!this.agentAlive) return;
    this.agentAlive = false;
    const error = this.hooks.agentGone?.() ?? { code: -32603, message: 'the agent has ended' };
    for (const [id, pending] of this.atAgent) {
      pending.failed?.(error);
      this.send(this.toEditor, { jsonrpc: '2.0', id, error });
    }
    this.atAgent.clear();
  }

  // Nothing answers the proxy's own requests any more: they fail rather than wait forever.
  private editorEnded(): void {
    this.editorAlive = false;
    for (const [id, pending] of this.atEditor) {
      if ('reject' in pending) {
        this.atEditor.delete(id);
        pending.reject({ code: -32603, message: 'the editor closed the connection before it answered' });
      }
    }
    this.hooks.editorClosed?.();
  }

  close(): void {
    void this.toEditor.close().catch(() => undefined);
    void this.toAgent.close().catch(() => undefined);
  }

  private async pump(readable: ReadableStream<AnyMessage>, handle: (m: Message) => void): Promise<void> {
    const reader = readable.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        try {
          handle(value as Message);
        } catch (error) {
          this.hooks.log?.(`relay: ${error instanceof Error ? error.stack : String(error)}`);
        }
      }
    } catch (error) {
      this.hooks.log?.(`relay: reading failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      reader.releaseLock();
    }
  }

  // Editor → agent keeps its order even when a hook takes its time (a prompt waits for its context);
  // answers to requests sent to the editor wait for nothing (a permission answer must reach the agent
  // while the editor's next prompt is being prepared).
  private fromEditor(message: Message): void {
    if (!hasMethod(message)) return this.editorResponse(message);
    if (this.editorBusy === 0) {
      void this.handleEditor(message);
      return;
    }
    this.editorBusy++;
    this.editorQueue = this.editorQueue.then(() => this.handleEditor(message)).finally(() => this.editorBusy--);
  }

  private handleEditor(message: Message & { method: string }): void | Promise<void> {
    const id = message.id;
    if (id !== undefined && !isId(id)) return this.invalidRequest(this.toEditor, message);
    if (id === undefined) {
      // $/cancel_request passes as it is: editor ids reach the agent unchanged.
      this.hooks.editorNotification?.(message.method, message.params);
      if (this.agentAlive) this.send(this.toAgent, message);
      return;
    }
    let outcome: Promise<Outcome> | Outcome | undefined;
    try {
      outcome = this.hooks.editorRequest?.(message.method, message.params);
    } catch (error) {
      outcome = { error: asRpcError(error) };
    }
    if (outcome === undefined) return this.forwardToAgent(message, {});
    if (!(outcome instanceof Promise)) return this.settleEditor(message, id, outcome);
    this.editorBusy++;
    const settled = this.inTime(outcome, message.method).then(
      (o) => this.settleEditor(message, id, o),
      (error: unknown) => this.settleEditor(message, id, { error: asRpcError(error) }),
    );
    this.editorQueue = this.editorQueue.then(() => settled).finally(() => this.editorBusy--);
    return settled;
  }

  // A hook that never finishes must not hold every later editor message back.
  private inTime(outcome: Promise<Outcome>, method: string): Promise<Outcome> {
    const ms = this.hooks.hookTimeoutMs ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ error: { code: -32603, message: `boardbridge took over ${ms / 1000} s preparing ${method}; it was not sent to the agent (see the log: ~/.local/state/boardbridge/logs/acp.log)` } }), ms);
    });
    return Promise.race([outcome, late]).finally(() => clearTimeout(timer));
  }

  private settleEditor(message: Message, id: JsonRpcId, outcome: Outcome): void {
    if ('answer' in outcome) return this.send(this.toEditor, { jsonrpc: '2.0', id, result: outcome.answer });
    if ('error' in outcome) return this.send(this.toEditor, { jsonrpc: '2.0', id, error: outcome.error });
    this.forwardToAgent({ ...message, params: outcome.forward }, { after: outcome.after, failed: outcome.failed });
  }

  private forwardToAgent(message: Message, pending: { after?: (result: unknown) => unknown; failed?: (error: RpcError) => void }): void {
    const id = message.id as JsonRpcId;
    if (!this.agentAlive) {
      const error = this.hooks.agentGone?.() ?? { code: -32603, message: 'the agent has ended' };
      pending.failed?.(error);
      return this.send(this.toEditor, { jsonrpc: '2.0', id, error });
    }
    this.atAgent.set(id, pending);
    this.send(this.toAgent, message);
  }

  private editorResponse(message: Message): void {
    const id = message.id;
    if (id === undefined || id === null) return this.hooks.log?.(`relay: the editor sent a message without method or id: ${JSON.stringify(message).slice(0, 200)}`);
    // Only an id the relay gave out, of the same JSON type, finds its request.
    const pending = typeof id === 'number' ? this.atEditor.get(id) : undefined;
    if (!pending) return this.hooks.log?.(`relay: the editor answered unknown request ${JSON.stringify(id)}`);
    this.atEditor.delete(id as number);
    if ('agentId' in pending) {
      if (this.agentIdsAtEditor.get(pending.agentId) === id) this.agentIdsAtEditor.delete(pending.agentId);
      try {
        pending.answered?.({ result: message.result, error: message.error as RpcError | undefined });
      } catch (error) {
        this.hooks.log?.(`relay: ${error instanceof Error ? error.stack : String(error)}`);
      }
      if (this.agentAlive) this.send(this.toAgent, { ...message, id: pending.agentId });
      return;
    }
    if (message.error) pending.reject(message.error as RpcError);
    else pending.resolve(message.result);
  }

  private fromAgent(message: Message): void {
    if (typeof message.method !== 'string') return this.agentResponse(message);
    const id = message.id;
    if (id !== undefined && !isId(id)) return this.invalidRequest(this.toAgent, message);
    if (id === undefined) {
      if (message.method === CANCEL_REQUEST) return this.agentCancels(message);
      const hook = this.hooks.agentNotification;
      if (!hook) return this.send(this.toEditor, message);
      const params = hook(message.method, message.params);
      if (params === undefined) return;
      return this.send(this.toEditor, params === message.params ? message : { ...message, params });
    }
    let local: Promise<unknown> | AgentForward | undefined;
    try {
      local = this.hooks.agentRequest?.(message.method, message.params);
    } catch (error) {
      local = Promise.reject(error);
    }
    if (local instanceof Promise) {
      void local.then(
        (result) => this.agentAlive && this.send(this.toAgent, { jsonrpc: '2.0', id, result: result ?? {} }),
        (error: unknown) => this.agentAlive && this.send(this.toAgent, { jsonrpc: '2.0', id, error: asRpcError(error) }),
      );
      return;
    }
    if (!this.editorAlive) return this.send(this.toAgent, { jsonrpc: '2.0', id, error: { code: -32603, message: 'the editor has closed the connection' } });
    // The editor sees the relay's id, never the agent's: ids the agent picks cannot reach the editor.
    const editorId = ++this.editorIds;
    this.atEditor.set(editorId, { agentId: id, answered: local?.answered });
    this.agentIdsAtEditor.set(id, editorId);
    this.send(this.toEditor, { ...message, id: editorId });
  }

  private agentCancels(message: Message): void {
    const requestId = (message.params as { requestId?: JsonRpcId } | undefined)?.requestId;
    const editorId = requestId === undefined || !isId(requestId) ? undefined : this.agentIdsAtEditor.get(requestId);
    // A cancel of a request the proxy answers itself, or of none open, has nothing to reach.
    if (editorId === undefined) return;
    this.send(this.toEditor, { ...message, params: { ...(message.params as object), requestId: editorId } });
  }

  // JSON-RPC 2.0: a request's id is a string or a number; `"id": null` (or any other value) is no
  // notification and no request this side may answer under its id: Invalid Request, id null.
  private invalidRequest(back: WritableStreamDefaultWriter<AnyMessage>, message: Message): void {
    const what = `${String(message.method).slice(0, 100)} has id ${String(JSON.stringify(message.id)).slice(0, 60)}`;
    this.hooks.log?.(`relay: refused a request: ${what}`);
    this.send(back, { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: ${what}; a request id is a string or a number, and a notification has no id` } });
  }

  private agentResponse(message: Message): void {
    const id = message.id;
    if (id === undefined || id === null) return this.send(this.toEditor, message);
    const pending = this.atAgent.get(id);
    if (!pending) return this.hooks.log?.(`relay: the agent answered unknown request ${JSON.stringify(id)}`);
    this.atAgent.delete(id);
    if (message.error) {
      pending.failed?.(message.error as RpcError);
      return this.send(this.toEditor, message);
    }
    if (!pending.after) return this.send(this.toEditor, message);
    let result: unknown;
    try {
      result = pending.after(message.result);
    } catch (error) {
      return this.send(this.toEditor, { jsonrpc: '2.0', id, error: asRpcError(error) });
    }
    this.send(this.toEditor, result === message.result ? message : { ...message, result });
  }

  private send(writer: WritableStreamDefaultWriter<AnyMessage>, message: Message): void {
    writer.write(message as AnyMessage).catch((error: unknown) => this.hooks.log?.(`relay: write failed: ${error instanceof Error ? error.message : String(error)}`));
  }
}

function hasMethod(message: Message): message is Message & { method: string } {
  return typeof message.method === 'string';
}

function isId(id: unknown): id is JsonRpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

export function asRpcError(error: unknown): RpcError {
  if (error instanceof RequestError) return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
  if (error && typeof error === 'object' && 'code' in error && 'message' in error && typeof (error as RpcError).code === 'number') {
    const { code, message, data } = error as RpcError;
    return { code, message: String(message), ...(data === undefined ? {} : { data }) };
  }
  return { code: -32603, message: error instanceof Error ? error.message : String(error) };
}
