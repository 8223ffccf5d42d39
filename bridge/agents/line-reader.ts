// Splits an agent's stdout into lines, in time linear in the bytes read: chunks are
// scanned once for newlines and joined once per line. A line over the limit is not
// kept: only its first and last bytes are, so its JSON-RPC id can still be read.

const NEWLINE = 0x0a;
/** How much of an over-limit line is kept at each end. */
export const KEPT_BYTES = 64 * 1024;

export type LineEvent = { kind: 'line'; bytes: Buffer } | { kind: 'oversize'; head: Buffer; tail: Buffer; bytes: number };

export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private oversize?: { head: Buffer; tail: Buffer; bytes: number };

  constructor(private readonly maxLineBytes: number) {}

  /**
   * Reads `chunk` from `from`, emitting each complete line, until `stop()` says to pause
   * between lines. Returns where it stopped (chunk.length when all of it was read).
   */
  push(chunk: Buffer, from: number, emit: (event: LineEvent) => void, stop: () => boolean): number {
    while (from < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, from);
      if (newline === -1) {
        this.append(chunk.subarray(from));
        return chunk.length;
      }
      this.append(chunk.subarray(from, newline));
      from = newline + 1;
      emit(this.take());
      if (stop()) return from;
    }
    return from;
  }

  /** The last line, when the stream ended without a newline. */
  end(): LineEvent | undefined {
    if (this.size === 0 && !this.oversize) return undefined;
    return this.take();
  }

  private append(piece: Buffer): void {
    if (!piece.length) return;
    if (this.oversize) {
      this.oversize.bytes += piece.length;
      this.oversize.tail = keepTail(this.oversize.tail, piece);
      return;
    }
    if (this.size + piece.length <= this.maxLineBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    this.oversize = { head: keepHead([...this.parts, piece]), tail: keepTail(Buffer.alloc(0), piece), bytes: this.size + piece.length };
    this.parts = [];
    this.size = 0;
  }

  private take(): LineEvent {
    if (this.oversize) {
      const event: LineEvent = { kind: 'oversize', ...this.oversize };
      this.oversize = undefined;
      return event;
    }
    const bytes = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return { kind: 'line', bytes };
  }
}

function keepHead(pieces: Buffer[]): Buffer {
  const kept: Buffer[] = [];
  let size = 0;
  for (const piece of pieces) {
    if (size >= KEPT_BYTES) break;
    kept.push(piece.subarray(0, KEPT_BYTES - size));
    size += kept[kept.length - 1].length;
  }
  return Buffer.concat(kept, size);
}

function keepTail(tail: Buffer, piece: Buffer): Buffer {
  if (piece.length >= KEPT_BYTES) return Buffer.from(piece.subarray(piece.length - KEPT_BYTES));
  const joined = Buffer.concat([tail, piece]);
  return joined.length > KEPT_BYTES ? Buffer.from(joined.subarray(joined.length - KEPT_BYTES)) : joined;
}
