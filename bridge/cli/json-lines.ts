// `run --json`'s output: one JSON value a line, written in batches. An agent streaming a long
// answer sends tens of thousands of chunks; a write per chunk is a system call per chunk (stdout
// to a pipe is synchronous on Linux). Lines wait at most until the event loop turns, or until a
// batch holds BATCH_BYTES, and `flush()` writes what waits before the process leaves.
const BATCH_BYTES = 64 * 1024;

export class JsonLines {
  private pending = '';
  private scheduled = false;

  constructor(private readonly out: NodeJS.WritableStream) {}

  write(value: unknown): void {
    this.pending += JSON.stringify(value) + '\n';
    if (this.pending.length >= BATCH_BYTES) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.out.write(text);
  }
}
