// Keeps the last part of an agent's stderr: enough to explain a crash, never
// unbounded however much the agent logs.

export class StderrLog {
  private text = '';

  constructor(private readonly limit = 64 * 1024) {}

  /** Characters received in all, kept or not: whether the agent said anything since. */
  received = 0;

  append(chunk: string): void {
    this.received += chunk.length;
    this.text += chunk;
    if (this.text.length > this.limit * 2) this.text = this.text.slice(-this.limit);
  }

  tail(lines = 20): string {
    return this.text.slice(-this.limit).split('\n').filter(Boolean).slice(-lines).join('\n');
  }
}
