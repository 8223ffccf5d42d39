// A command in a real pseudo-terminal (util-linux `script`), read as a person sees it
// and typed into as a person types.
import { spawn, type ChildProcess } from 'node:child_process';

export const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export class Screen {
  text = '';
  constructor(readonly proc: ChildProcess) {
    proc.stdout!.setEncoding('utf8');
    proc.stdout!.on('data', (t: string) => {
      this.text += t;
    });
  }
  async waitFor(needle: string | RegExp, from = 0): Promise<number> {
    const started = Date.now();
    for (;;) {
      if (Date.now() - started > 60_000) throw new Error(`the terminal never showed ${needle}; the screen:\n${this.text}`);
      const rest = this.text.slice(from);
      const at = typeof needle === 'string' ? rest.indexOf(needle) : rest.search(needle);
      if (at >= 0) return from + at;
      if (this.proc.exitCode !== null) throw new Error(`the command exited before showing ${needle}:\n${this.text}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  type(keys: string): void {
    this.proc.stdin!.write(keys);
  }
  exited(): Promise<number | null> {
    if (this.proc.exitCode !== null) return Promise.resolve(this.proc.exitCode);
    return new Promise((resolve) => this.proc.once('exit', (code) => resolve(code)));
  }
}

const running = new Set<Screen>();

/** Runs `words` (quoted for the shell) in a pty; TERM and NO_COLOR as given in env. */
export function startInPty(words: string[], env: Record<string, string>, cwd?: string): Screen {
  const child = spawn('script', ['-qfec', words.map(quote).join(' '), '/dev/null'], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const screen = new Screen(child);
  running.add(screen);
  child.once('exit', () => running.delete(screen));
  return screen;
}

/** Kills every pty a test left running (for afterEach). */
export function endScreens(): void {
  for (const screen of running) screen.proc.kill('SIGKILL');
  running.clear();
}
