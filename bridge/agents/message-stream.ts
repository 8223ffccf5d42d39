// The ACP transport over an agent's stdio: one JSON-RPC message per line. Real
// agents sometimes print other lines on stdout; those are skipped and logged
// instead of being answered with parse errors (which the SDK's ndJsonStream does).
// What an agent sends cannot exhaust the bridge: a line has a size limit, a message a
// depth limit, and an agent that does not read its answers gets no more requests
// taken until it does (what it writes meanwhile is kept, up to about one message).
// A request refused for its size or depth is still answered. The editor's side of
// `boardbridge acp` is read without pause instead (editorMessageStream): its answers
// and cancels must get through whatever is open, so a request over the limits is
// answered with an error rather than held.
import type { Readable, Writable } from 'node:stream';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { nestsDeeperThan, peekMessage, type RpcId } from './json-peek.js';
import { KEPT_BYTES, LineReader, type LineEvent } from './line-reader.js';

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
/** Set to raise or lower the size limit for one message from an agent. */
export const MAX_MESSAGE_ENV = 'BOARDBRIDGE_MAX_MESSAGE_MB';
/** No ACP message nests this deep; deeper ones would overflow the stack of JSON.stringify and of schema checks. */
export const MAX_DEPTH = 256;
/**
 * Agent requests read but not yet answered (the answer written to its stdin). While this
 * many are open, or an answer waits for the agent to read its stdin, no more are read.
 */
export const MAX_OPEN_REQUESTS = 16;
/**
 * Requests that wait for something outside the agent (a command's exit, a person's answer)
 * count apart, against this larger limit: an agent may hold many of them without its
 * terminal/kill or its updates going unread behind them.
 */
export const MAX_WAITING_REQUESTS = 256;
const WAITING_METHODS: ReadonlySet<string> = new Set(['terminal/wait_for_exit', 'session/request_permission', 'elicitation/create']);
/** What an editor asks that waits on a model, a person or a login (a turn, a session's start, authenticate). */
const EDITOR_WAITING_METHODS: ReadonlySet<string> = new Set(['session/prompt', 'session/new', 'session/load', 'session/resume', 'authenticate']);
/** Other editor requests open at once (set_mode, list, ...): they are answered at once by a working agent. */
export const MAX_OPEN_EDITOR_REQUESTS = 64;

const BACKLOG_SLACK = 1024 * 1024;

export interface MessageStreamOptions {
  onSkippedLine?: (line: string, reason: string) => void;
  maxLineBytes?: number;
  maxDepth?: number;
  maxOpenRequests?: number;
  maxWaitingRequests?: number;
  /** Methods counted against maxWaitingRequests (default: an agent's terminal/wait_for_exit, request_permission, elicitation). */
  waitingMethods?: ReadonlySet<string>;
  /** What a request over the limits gets: reading holds until one is answered (default), or an error answer at once. */
  overLimit?: 'hold' | 'refuse';
}

/** A message the bridge could neither take nor answer: whatever waits for it cannot finish. */
export interface LostMessage {
  reason: string;
}

type Refusal = 'too_large' | 'too_deep' | 'not_json';

export function messageStream(stdout: Readable, stdin: Writable, options: MessageStreamOptions = {}): AgentMessageStream {
  return new AgentMessageStream(stdout, stdin, options);
}

/** The editor's side of `boardbridge acp` (our stdin and stdout): always read, over-limit requests refused. */
export function editorMessageStream(input: Readable, output: Writable, options: Pick<MessageStreamOptions, 'onSkippedLine' | 'maxOpenRequests' | 'maxWaitingRequests'> = {}): AgentMessageStream {
  return new AgentMessageStream(input, output, { maxOpenRequests: MAX_OPEN_EDITOR_REQUESTS, waitingMethods: EDITOR_WAITING_METHODS, ...options, overLimit: 'refuse' });
}

/** The line limit: options first, then BOARDBRIDGE_MAX_MESSAGE_MB, then 64 MiB. */
export function maxLineBytes(options: MessageStreamOptions, env: NodeJS.ProcessEnv = process.env): number {
  if (options.maxLineBytes) return options.maxLineBytes;
  const mb = Number(env[MAX_MESSAGE_ENV]);
  return Number.isFinite(mb) && mb > 0 ? Math.floor(mb * 1024 * 1024) : DEFAULT_MAX_LINE_BYTES;
}

export class AgentMessageStream implements Stream {
  readonly readable: ReadableStream<AnyMessage>;
  readonly writable: WritableStream<AnyMessage>;
  readonly maxLineBytes: number;
  private controller!: ReadableStreamDefaultController<AnyMessage>;
  private readonly reader: LineReader;
  /** What the agent wrote that is not read into messages yet (while held), and its size. */
  private readonly backlog: Buffer[] = [];
  private backlogBytes = 0;
  private offset = 0;
  private pumping = false;
  private ended = false;
  private closed = false;
  /** Agent request ids read and not yet answered, with how many requests used each. */
  private readonly open = new Map<RpcId, number>();
  private openCount = 0;
  /** Of those, the ones that wait for a command or a person (WAITING_METHODS), by id. */
  private readonly waiting = new Map<RpcId, number>();
  private waitingCount = 0;
  private interceptor?: (message: AnyMessage) => boolean;
  private sdkBusy = false;
  private readonly lostListeners: Array<(lost: LostMessage) => void> = [];

  constructor(
    private readonly stdout: Readable,
    private readonly stdin: Writable,
    private readonly options: MessageStreamOptions,
  ) {
    this.maxLineBytes = maxLineBytes(options);
    this.reader = new LineReader(this.maxLineBytes);
    this.readable = new ReadableStream<AnyMessage>({
      start: (controller) => {
        this.controller = controller;
        stdout.on('data', (chunk: Buffer) => {
          if (this.closed) return;
          this.backlog.push(chunk);
          this.backlogBytes += chunk.length;
          this.pump();
        });
        stdout.on('end', () => {
          this.ended = true;
          this.pump();
        });
        stdout.on('error', (error) => {
          if (!this.closed) controller.error(error);
          this.closed = true;
        });
      },
      // The SDK closed the connection: read nothing more, but keep the pipe flowing so the agent is not stuck writing.
      cancel: () => {
        this.closed = true;
        this.backlog.length = 0;
        this.backlogBytes = 0;
        stdout.resume();
      },
    });
    stdin.on('drain', () => this.pump());
    this.writable = new WritableStream<AnyMessage>({
      write: (message) =>
        new Promise<void>((resolve, reject) => {
          if (stdin.destroyed || !stdin.writable) {
            reject(new Error('the agent is no longer reading its input'));
            return;
          }
          const answers = isResponse(message) ? message.id : undefined;
          stdin.write(JSON.stringify(message) + '\n', (error) => {
            if (answers !== undefined) this.answered(answers);
            if (error) reject(error);
            else resolve();
          });
        }),
      close: () => {
        stdin.end();
      },
    });
  }

  /**
   * Messages the hook returns true for are taken by it instead of going to the SDK
   * connection; it is asked only when the SDK has taken every message before, so the
   * order of messages holds.
   */
  intercept(hook: (message: AnyMessage) => boolean): void {
    this.interceptor = hook;
  }

  onLost(listener: (lost: LostMessage) => void): void {
    this.lostListeners.push(listener);
  }

  private held(): boolean {
    // Refusing instead of holding, reading stops only for a peer that reads none of what it is sent.
    if (this.options.overLimit === 'refuse') return this.stdin.writableLength > this.maxLineBytes + BACKLOG_SLACK;
    return this.full(false) || this.full(true) || (this.openCount > 0 && this.stdin.writableNeedDrain);
  }

  /** Whether the open requests of one kind (waiting or not) are at their limit. */
  private full(waiting: boolean): boolean {
    if (waiting) return this.waitingCount >= (this.options.maxWaitingRequests ?? MAX_WAITING_REQUESTS);
    return this.openCount - this.waitingCount >= (this.options.maxOpenRequests ?? MAX_OPEN_REQUESTS);
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.backlog.length && !this.closed && !this.held()) {
        const chunk = this.backlog[0];
        const at = this.reader.push(chunk, this.offset, (event) => this.onLine(event), () => this.closed || this.held());
        if (at < chunk.length) {
          this.offset = at;
          break;
        }
        this.backlog.shift();
        this.backlogBytes -= chunk.length;
        this.offset = 0;
      }
    } finally {
      this.pumping = false;
    }
    if (this.closed) return;
    // While held, the pipe is still read, up to one message and a little more: an agent
    // whose writes block reads no answer until its message is through.
    if (this.backlogBytes > this.maxLineBytes + BACKLOG_SLACK) this.stdout.pause();
    else this.stdout.resume();
    if (!this.backlog.length && this.ended) this.finish();
  }

  private finish(): void {
    const last = this.reader.end();
    if (last) this.onLine(last);
    if (this.closed) return;
    this.closed = true;
    this.controller.close();
  }

  private onLine(event: LineEvent): void {
    if (this.closed) return;
    if (event.kind === 'oversize') {
      const what = `a message of ${mib(event.bytes)}, over the ${mib(this.maxLineBytes)} limit for one message (${MAX_MESSAGE_ENV})`;
      this.refuse(event.head.toString('utf8'), event.tail.toString('utf8'), what, 'too_large');
      return;
    }
    const text = event.bytes.toString('utf8');
    const start = firstNonSpace(text);
    if (start === -1) return;
    if (text[start] !== '{') {
      this.skipped(text.trim(), 'not JSON');
      return;
    }
    const maxDepth = this.options.maxDepth ?? MAX_DEPTH;
    if (nestsDeeperThan(text, maxDepth)) {
      this.refuse(text.slice(0, KEPT_BYTES), text.slice(-KEPT_BYTES), `a message nested deeper than ${maxDepth} levels`, 'too_deep');
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.refuse(text.slice(0, KEPT_BYTES), text.slice(-KEPT_BYTES), 'a line that is not valid JSON', 'not_json');
      return;
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) {
      this.skipped(text.trim(), 'not a JSON-RPC object');
      return;
    }
    this.deliver(message as AnyMessage);
  }

  private deliver(message: AnyMessage): void {
    if (!this.sdkBusy && this.interceptor?.(message)) return;
    this.markSdkBusy();
    if (isRequest(message)) {
      const waits = (this.options.waitingMethods ?? WAITING_METHODS).has(message.method);
      if (this.options.overLimit === 'refuse' && this.full(waits)) {
        this.answer(message.id, overLimitError(message.method, waits ? this.waitingCount : this.openCount - this.waitingCount));
        return;
      }
      this.open.set(message.id, (this.open.get(message.id) ?? 0) + 1);
      this.openCount++;
      if (waits) {
        this.waiting.set(message.id, (this.waiting.get(message.id) ?? 0) + 1);
        this.waitingCount++;
      }
    }
    this.controller.enqueue(message);
  }

  // The SDK takes a message in microtasks after it is queued; a message taken here before
  // those ran would overtake it, so the interceptor waits for the next turn of the event loop.
  private markSdkBusy(): void {
    if (this.sdkBusy) return;
    this.sdkBusy = true;
    setImmediate(() => {
      this.sdkBusy = false;
    });
  }

  private answered(id: RpcId): void {
    const uses = this.open.get(id);
    if (uses === undefined) return;
    if (uses > 1) this.open.set(id, uses - 1);
    else this.open.delete(id);
    this.openCount--;
    const waits = this.waiting.get(id);
    if (waits !== undefined) {
      if (waits > 1) this.waiting.set(id, waits - 1);
      else this.waiting.delete(id);
      this.waitingCount--;
    }
    this.pump();
  }

  // A request is answered with an error; a reply or a message whose id cannot be read is
  // lost (its request, or the turn, cannot complete); anything else is logged and skipped.
  private refuse(head: string, tail: string, what: string, refusal: Refusal): void {
    const peek = peekMessage(head, tail);
    this.skipped(head.trim(), what);
    if (peek.id !== undefined && peek.method !== undefined) {
      this.answer(peek.id, refusalError(peek.method, what, refusal));
      return;
    }
    if (peek.id !== undefined) {
      this.lose(`${what} answered one of the bridge's requests; the answer could not be read`);
      return;
    }
    if (refusal === 'too_large' && peek.method === undefined) {
      this.lose(`${what} whose id and method could not be read, so it cannot be answered`);
    }
  }

  private answer(id: RpcId, error: { code: number; message: string }): void {
    if (this.stdin.destroyed || !this.stdin.writable) return;
    this.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, error }) + '\n');
  }

  private lose(reason: string): void {
    for (const listener of this.lostListeners) listener({ reason });
  }

  private skipped(line: string, reason: string): void {
    this.options.onSkippedLine?.(line.slice(0, 200), reason);
  }
}

function overLimitError(method: string, open: number): { code: number; message: string } {
  return { code: -32603, message: `boardbridge refused ${method}: ${open} requests like it are still open; answer or cancel some, then send it again` };
}

function refusalError(method: string, what: string, refusal: Refusal): { code: number; message: string } {
  if (refusal === 'not_json') return { code: -32700, message: `Parse error: ${method} arrived as ${what}` };
  if (refusal === 'too_large' && method === 'fs/write_text_file') {
    return { code: -32602, message: `the file is too large to write in one request: ${what}; write it as smaller files` };
  }
  return { code: -32600, message: `Invalid request: ${method} arrived as ${what}` };
}

// What the SDK answers under the request's own id (anything else it answers with id null, or not at all).
function isRequest(message: AnyMessage): message is AnyMessage & { id: RpcId; method: string } {
  const { jsonrpc, method, id } = message as { jsonrpc?: unknown; method?: unknown; id?: unknown };
  return jsonrpc === '2.0' && typeof method === 'string' && (id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)));
}

function isResponse(message: AnyMessage): message is AnyMessage & { id: RpcId } {
  return 'id' in message && !('method' in message);
}

function firstNonSpace(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return i;
  }
  return -1;
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}
