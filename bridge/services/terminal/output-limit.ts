// Terminal output kept under a byte limit by dropping from the beginning, always
// cutting on a UTF-8 character boundary (ACP: truncation is from the start).

export const HOST_OUTPUT_CEILING = 1024 * 1024;

export class OutputBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = false;

  /** `onAppend` sees every chunk as it comes, before any is dropped. */
  constructor(
    readonly limit: number,
    private readonly onAppend?: (data: Buffer) => void,
  ) {
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`output limit must be a whole number of bytes, got ${limit}`);
  }

  get truncated(): boolean {
    return this.dropped || this.size > this.limit;
  }

  append(data: Buffer): void {
    if (data.length === 0) return;
    this.onAppend?.(data);
    this.chunks.push(data);
    this.size += data.length;
    // Trimming copies the kept bytes: do it in batches, not on every chunk of a flood.
    if (this.size > this.limit * 2 + 65536) this.trim();
  }

  /** The kept output; an incomplete character at the very end is held back until it completes. */
  text(final: boolean): string {
    if (this.size > this.limit) this.trim();
    const bytes = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    this.chunks = bytes.length ? [bytes] : [];
    const end = final ? bytes.length : completeLength(bytes);
    return bytes.subarray(0, end).toString('utf8');
  }

  private trim(): void {
    const all = Buffer.concat(this.chunks, this.size);
    let start = all.length - this.limit;
    while (start < all.length && (all[start] & 0xc0) === 0x80) start++;
    const kept = all.subarray(start);
    this.chunks = kept.length ? [Buffer.from(kept)] : [];
    this.size = kept.length;
    this.dropped = true;
  }
}

// Length of the prefix that ends on a complete UTF-8 sequence.
function completeLength(bytes: Buffer): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}
