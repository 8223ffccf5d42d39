// One reader's view of a port: its own cursor into the port's ring buffer, so a slow reader
// never holds memory or slows the others down; it is told how many bytes it missed instead.
import { StringDecoder } from 'node:string_decoder';
import type { BoundedRegex } from '../bounded-regex.js';
import { ExpectTimeoutError, PortClosedError, PortDisconnectedError } from './errors.js';
import type { RingBuffer } from './ring-buffer.js';

/** What a port entry in the hub shows its readers. */
export interface ReaderSource {
  readonly path: string;
  readonly ring: RingBuffer;
  /** Disconnections so far; each reader reports every one once. */
  readonly disconnects: number;
  readonly lastDisconnect: string | undefined;
  /** True once the owner released the port: nothing more will arrive. */
  readonly released: boolean;
  /** Resolves on new data or a state change; rejects when `signal` aborts. */
  changed(signal?: AbortSignal): Promise<void>;
}

export interface ReadResult {
  data: Buffer;
  /** Bytes lost before `data` because this reader fell behind the ring buffer. */
  missed: number;
}

export interface SerialLine {
  /** The line without its `\n` or `\r\n`. */
  text: string;
  /** Bytes lost just before this line because the reader fell behind. */
  missed: number;
}

export interface ExpectMatch {
  /** The whole match, then each group. */
  match: ReadonlyArray<string | undefined>;
  /** Everything read up to and including the match. */
  text: string;
  missed: number;
}

/** Expect keeps at most this much text while searching, so a chatty port cannot grow memory. */
const EXPECT_WINDOW = 64 * 1024;

export class PortReader {
  private cursor: number;
  private seenDisconnects: number;

  constructor(
    private readonly source: ReaderSource,
    from: 'now' | 'oldest' = 'now',
  ) {
    this.cursor = from === 'now' ? source.ring.end : source.ring.start;
    this.seenDisconnects = source.disconnects;
  }

  get port(): string {
    return this.source.path;
  }

  /** Bytes waiting for this reader right now (after any it missed). */
  get pending(): number {
    return this.source.ring.end - Math.max(this.cursor, this.source.ring.start);
  }

  /** What is there now, without waiting; `data` may be empty. */
  read(max?: number): ReadResult {
    const result = this.source.ring.read(this.cursor, max);
    this.cursor = result.next;
    return { data: result.data, missed: result.missed };
  }

  /**
   * Waits for data. Buffered data comes first; then a disconnection since the last call is
   * thrown once (later calls wait for the port to come back), and a released port ends reading.
   */
  async next(signal?: AbortSignal): Promise<ReadResult> {
    for (;;) {
      const result = this.read();
      if (result.data.length > 0 || result.missed > 0) return result;
      if (this.source.disconnects > this.seenDisconnects) {
        this.seenDisconnects = this.source.disconnects;
        throw new PortDisconnectedError(this.source.path, this.source.lastDisconnect);
      }
      if (this.source.released) throw new PortClosedError(this.source.path);
      await this.source.changed(signal);
    }
  }

  /** Raw mode: chunks as they arrive until `signal` aborts. */
  async *chunks(signal?: AbortSignal): AsyncGenerator<ReadResult> {
    for (;;) {
      const result = await this.next(signal).catch(stopOnAbort(signal));
      if (!result) return;
      yield result;
    }
  }

  /** Line mode: complete UTF-8 lines; a partial line waits for its end. */
  async *lines(signal?: AbortSignal): AsyncGenerator<SerialLine> {
    const decoder = new StringDecoder('utf8');
    let partial = '';
    let missed = 0;
    for await (const chunk of this.chunks(signal)) {
      if (chunk.missed > 0) {
        // The partial line lost its middle: drop it rather than splice unrelated bytes together.
        partial = '';
        missed += chunk.missed;
      }
      partial += decoder.write(chunk.data);
      let newline = partial.indexOf('\n');
      while (newline >= 0) {
        const text = partial.slice(0, newline).replace(/\r$/, '');
        partial = partial.slice(newline + 1);
        yield { text, missed };
        missed = 0;
        newline = partial.indexOf('\n');
      }
    }
  }

  /**
   * Waits until the text read from now on matches `pattern`, or throws ExpectTimeoutError.
   * A pattern from an agent or a person comes as a BoundedRegex (RegexTooSlowError when it backtracks too long).
   */
  async expect(pattern: RegExp | BoundedRegex, options: { timeoutMs: number; signal?: AbortSignal }): Promise<ExpectMatch> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const decoder = new StringDecoder('utf8');
    const inline = pattern instanceof RegExp ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')) : undefined;
    const search = (text: string): ReadonlyArray<string | undefined> | undefined => {
      if (inline) {
        const found = inline.exec(text);
        return found ? [...found] : undefined;
      }
      return (pattern as BoundedRegex).exec(text)?.groups;
    };
    let text = '';
    let missed = 0;
    for (;;) {
      const chunk = await this.next(signal).catch(stopOnAbort(signal));
      if (!chunk) {
        if (options.signal?.aborted) throw options.signal.reason;
        throw new ExpectTimeoutError(this.source.path, pattern, options.timeoutMs, text);
      }
      missed += chunk.missed;
      text += decoder.write(chunk.data);
      const match = search(text);
      if (match) return { match, text, missed };
      if (text.length > EXPECT_WINDOW) text = text.slice(-EXPECT_WINDOW);
    }
  }
}

/** Turns the abort of our own signal into a quiet end; other errors pass. */
function stopOnAbort(signal: AbortSignal | undefined): (error: unknown) => undefined {
  return (error) => {
    if (signal?.aborted) return undefined;
    throw error;
  };
}
