// The editor's end of an in-memory ACP stream, driven by a test: it sends raw
// JSON-RPC messages and waits for what comes back (requests, notifications, answers).
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';

export type Wire = Record<string, unknown> & { id?: string | number | null; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };

export class ScriptedEditor {
  /** The stream to hand the proxy as its editor side. */
  readonly stream: Stream;
  readonly seen: Wire[] = [];
  private readonly writer: WritableStreamDefaultWriter<AnyMessage>;
  private readonly waiters: { match: (m: Wire) => boolean; resolve: (m: Wire) => void }[] = [];
  private nextId = 1;

  constructor() {
    const toProxy = new TransformStream<AnyMessage, AnyMessage>();
    const fromProxy = new TransformStream<AnyMessage, AnyMessage>();
    this.stream = { readable: toProxy.readable, writable: fromProxy.writable };
    this.writer = toProxy.writable.getWriter();
    void (async () => {
      const reader = fromProxy.readable.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const message = value as Wire;
        this.seen.push(message);
        const i = this.waiters.findIndex((w) => w.match(message));
        if (i >= 0) this.waiters.splice(i, 1)[0].resolve(message);
      }
    })();
  }

  send(message: Wire): void {
    void this.writer.write({ jsonrpc: '2.0', ...message } as AnyMessage);
  }

  async request(method: string, params?: unknown, id: string | number = this.nextId++): Promise<Wire> {
    const answer = this.next((m) => m.id === id && m.method === undefined);
    this.send({ id, method, params });
    return answer;
  }

  notify(method: string, params?: unknown): void {
    this.send({ method, params });
  }

  /** The next message (or one already seen and not yet taken) that matches. */
  next(match: (m: Wire) => boolean, timeoutMs = 20_000): Promise<Wire> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms; seen: ${JSON.stringify(this.seen.slice(-5))}`)), timeoutMs);
      this.waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  close(): void {
    void this.writer.close();
  }
}
