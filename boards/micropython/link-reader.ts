// Buffered reading from a ByteLink with deadlines: read up to a marker (streaming what comes before
// it), read a number of bytes, or take what has arrived. A deadline that passes is a value the
// caller turns into a message naming the port and what the device failed to send.
import type { ByteLink } from './link.js';

export class ReadTimeout extends Error {
  constructor(
    readonly awaited: string,
    /** What did arrive while waiting, for the message. */
    readonly received: Buffer,
  ) {
    super(`timed out waiting for ${awaited}`);
    this.name = 'ReadTimeout';
  }
}

export class ReadAborted extends Error {
  constructor() {
    super('aborted');
    this.name = 'ReadAborted';
  }
}

/** The link went away while a read waited. */
export class LinkClosed extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'LinkClosed';
  }
}

export interface ReadOptions {
  /** Milliseconds from the call; undefined waits for ever (or until `signal`). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export class LinkReader {
  private buffer: Buffer = Buffer.alloc(0);
  private wake: ((error?: Error) => void) | undefined;
  private closedReason: string | undefined;
  private readonly unsubscribe: Array<() => void>;

  constructor(link: ByteLink) {
    this.unsubscribe = [
      link.onData((chunk) => {
        this.buffer = Buffer.concat([this.buffer, chunk]);
        this.wake?.();
      }),
      link.onClose((reason) => {
        this.closedReason = reason;
        this.wake?.(new LinkClosed(reason));
      }),
    ];
  }

  /** Everything received and not yet read. */
  takeAll(): Buffer {
    const all = this.buffer;
    this.buffer = Buffer.alloc(0);
    return all;
  }

  /**
   * Reads up to `marker` and returns what came before it (the marker is consumed). `onBytes`
   * gets those bytes as they arrive, so output streams while a script runs.
   */
  async until(marker: Uint8Array | string, options: ReadOptions & { onBytes?: (bytes: Buffer) => void } = {}): Promise<Buffer> {
    const needle = Buffer.from(marker);
    const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
    const before: Buffer[] = [];
    for (;;) {
      const at = this.buffer.indexOf(needle);
      if (at >= 0) {
        const head = this.buffer.subarray(0, at);
        this.buffer = this.buffer.subarray(at + needle.length);
        if (head.length > 0) {
          before.push(head);
          options.onBytes?.(head);
        }
        return Buffer.concat(before);
      }
      // Hand on all but a possible start of the marker.
      const safe = this.buffer.length - (needle.length - 1);
      if (safe > 0 && options.onBytes) {
        const head = this.buffer.subarray(0, safe);
        this.buffer = this.buffer.subarray(safe);
        before.push(head);
        options.onBytes(head);
      }
      await this.nextChunk(deadline, options.signal, () => new ReadTimeout(JSON.stringify(needle.toString('latin1')), Buffer.concat([...before, this.buffer])));
    }
  }

  /** Reads exactly `count` bytes. */
  async take(count: number, options: ReadOptions = {}): Promise<Buffer> {
    const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
    while (this.buffer.length < count) {
      await this.nextChunk(deadline, options.signal, () => new ReadTimeout(`${count} bytes`, this.buffer));
    }
    const head = this.buffer.subarray(0, count);
    this.buffer = this.buffer.subarray(count);
    return head;
  }

  /** Waits until nothing has arrived for `quietMs` and returns what did (a flush of a chatty device). */
  async settle(quietMs: number, limitMs: number): Promise<Buffer> {
    const limit = Date.now() + limitMs;
    const received: Buffer[] = [];
    for (;;) {
      received.push(this.takeAll());
      const deadline = Math.min(Date.now() + quietMs, limit);
      try {
        await this.nextChunk(deadline, undefined, () => new ReadTimeout('quiet', Buffer.alloc(0)));
      } catch {
        return Buffer.concat([...received, this.takeAll()]);
      }
      if (Date.now() >= limit) return Buffer.concat([...received, this.takeAll()]);
    }
  }

  dispose(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.wake?.(new ReadAborted());
  }

  private nextChunk(deadline: number | undefined, signal: AbortSignal | undefined, timeout: () => Error): Promise<void> {
    if (signal?.aborted) return Promise.reject(new ReadAborted());
    if (this.closedReason !== undefined) return Promise.reject(new LinkClosed(this.closedReason));
    const remaining = deadline === undefined ? undefined : deadline - Date.now();
    if (remaining !== undefined && remaining <= 0) return Promise.reject(timeout());
    return new Promise<void>((resolve, reject) => {
      const timer = remaining === undefined ? undefined : setTimeout(() => finish(timeout()), remaining);
      const onAbort = () => finish(new ReadAborted());
      const finish = (error?: Error) => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.wake = undefined;
        if (error) reject(error);
        else resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.wake = (error) => finish(error);
    });
  }
}
