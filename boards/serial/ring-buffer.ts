// A fixed-size byte ring addressed by absolute stream positions, so any number of readers can
// keep their own cursor while memory stays at `capacity` bytes however fast the port talks.

export interface RingRead {
  data: Buffer;
  /** Bytes the reader skipped because they were overwritten before it got to them. */
  missed: number;
  /** Absolute position after `data`: the reader's next cursor. */
  next: number;
}

export class RingBuffer {
  private readonly bytes: Buffer;
  private written = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity <= 0) {
      throw new RangeError(`ring buffer capacity must be a positive integer, got ${capacity}`);
    }
    this.bytes = Buffer.alloc(capacity);
  }

  /** Absolute position one past the newest byte (total bytes ever written). */
  get end(): number {
    return this.written;
  }

  /** Absolute position of the oldest byte still held. */
  get start(): number {
    return Math.max(0, this.written - this.capacity);
  }

  write(chunk: Uint8Array): void {
    // Only the newest `capacity` bytes of an oversized chunk can survive anyway.
    const keep = chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk;
    const skipped = chunk.length - keep.length;
    const at = (this.written + skipped) % this.capacity;
    const first = Math.min(keep.length, this.capacity - at);
    this.bytes.set(keep.subarray(0, first), at);
    if (first < keep.length) this.bytes.set(keep.subarray(first), 0);
    this.written += chunk.length;
  }

  /** Copies up to `max` bytes from `from`; a cursor older than `start` jumps forward and reports the gap. */
  read(from: number, max = this.capacity): RingRead {
    const begin = Math.max(from, this.start);
    const missed = begin - from;
    const length = Math.max(0, Math.min(max, this.written - begin));
    const data = Buffer.allocUnsafe(length);
    const at = begin % this.capacity;
    const first = Math.min(length, this.capacity - at);
    this.bytes.copy(data, 0, at, at + first);
    if (first < length) this.bytes.copy(data, first, 0, length - first);
    return { data, missed, next: begin + length };
  }
}
