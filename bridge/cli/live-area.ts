// The bottom lines of a terminal chat that change in place: running tool calls and
// the status line. Permanent output is written above them: erase, write, draw again.
// Lines are cut to the terminal's width so each takes exactly one row.

export class LiveArea {
  private shown = 0;
  private paused = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly lines: () => string[],
    private readonly style: (line: string, index: number) => string = (l) => l,
  ) {}

  erase(): void {
    if (!this.shown) return;
    this.out.write(`\r${this.shown > 1 ? `\x1b[${this.shown - 1}A` : ''}\x1b[J`);
    this.shown = 0;
  }

  draw(): void {
    if (this.paused || this.shown) return;
    const width = Math.max(20, (this.out.columns || 80) - 1);
    const lines = this.lines().map((l) => cut(l, width));
    if (!lines.length) return;
    this.out.write(lines.map((l, i) => this.style(l, i)).join('\n'));
    this.shown = lines.length;
  }

  redraw(): void {
    this.erase();
    this.draw();
  }

  /** While the person answers a question below the output, nothing is drawn. */
  pause(): void {
    this.erase();
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
  }
}

function cut(line: string, width: number): string {
  const chars = [...line];
  return chars.length <= width ? line : chars.slice(0, width - 1).join('') + '…';
}
