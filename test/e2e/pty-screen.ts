// A command in a real pseudo-terminal (util-linux `script`), read as a person sees it
// and typed into as a person types.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliMain, repoRoot, tempSketch } from './run-cli.js';

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

/** `boardbridge chat` with the stand-in agent in a fresh sketch, in a pty (TERM=dumb, no colour); `env(root)` adds variables. */
export function chatWithStandin(env: (root: string) => Record<string, string> = () => ({})): { screen: Screen; root: string; sketch: string } {
  const { root, sketch } = tempSketch();
  const standin = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')}`;
  const screen = startInPty([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', standin], {
    PATH: process.env.PATH ?? '',
    HOME: root,
    BOARDBRIDGE_STATE_DIR: path.join(root, 'state'),
    TERM: 'dumb',
    NO_COLOR: '1',
    ...env(root),
  });
  return { screen, root, sketch };
}

/** Kills every pty a test left running (for afterEach). */
export function endScreens(): void {
  for (const screen of running) screen.proc.kill('SIGKILL');
  running.clear();
}

/**
 * A command in a tmux window of a fixed size, read as the screen a person sees
 * (capture-pane renders cursor movement and rewritten lines), for live terminal output.
 */
export class TmuxScreen {
  private constructor(
    readonly name: string,
    private readonly server: string[],
    /** The socket of the window's server, removed with its last window (tmux leaves the file). */
    private readonly socketPath: string,
  ) {}

  /**
   * Each window runs on a tmux server of its own (`tmux -L <its name>`): on one shared server, the
   * last window's kill-session ends that server while another test process's new-session may be
   * connecting to it, and tmux then fails with "server exited unexpectedly" (a fresh-clone run
   * met it). `server.socket` names the server instead, started with `server.options` (e.g. `set -s
   * set-clipboard on`), so a test can change server options and read its paste buffers.
   */
  static start(words: string[], env: Record<string, string>, size = { columns: 120, rows: 40 }, server: { socket?: string; options?: string[] } = {}): TmuxScreen {
    const name = `bb-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const line = `${Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ')} ${words.map(quote).join(' ')}; echo "[exit $?]"; sleep 600`;
    const socket = server.socket ?? name;
    const flags: string[] = ['-L', socket];
    if (server.options) {
      const conf = path.join(mkdtempSync(path.join(os.tmpdir(), 'bb-tmux-')), 'tmux.conf');
      writeFileSync(conf, server.options.join('\n') + '\n');
      flags.push('-f', conf);
    }
    execFileSync('tmux', [...flags, 'new-session', '-d', '-s', name, '-x', String(size.columns), '-y', String(size.rows), 'env', '-i', 'sh', '-c', line]);
    const socketPath = execFileSync('tmux', ['-L', socket, 'display-message', '-p', '#{socket_path}'], { encoding: 'utf8' }).trim();
    const screen = new TmuxScreen(name, ['-L', socket], socketPath);
    tmuxScreens.add(screen);
    return screen;
  }

  /** A tmux command against this window's server. */
  tmux(args: string[]): string {
    return execFileSync('tmux', [...this.server, ...args], { encoding: 'utf8' });
  }

  /** The visible screen, one string per row. */
  capture(): string {
    return this.tmux(['capture-pane', '-p', '-t', this.name]);
  }

  /** The visible screen with the attributes of its text (bold, hidden, colours) as SGR sequences. */
  captureStyled(): string {
    return this.tmux(['capture-pane', '-e', '-p', '-t', this.name]);
  }

  async waitFor(needle: string | RegExp, timeoutMs = 60_000): Promise<string> {
    const started = Date.now();
    for (;;) {
      const screen = this.capture();
      if (typeof needle === 'string' ? screen.includes(needle) : needle.test(screen)) return screen;
      if (Date.now() - started > timeoutMs) throw new Error(`the screen never showed ${needle}:\n${screen}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  type(text: string): void {
    this.tmux(['send-keys', '-t', this.name, '-l', text]);
  }

  key(name: string): void {
    this.tmux(['send-keys', '-t', this.name, name]);
  }

  kill(): void {
    tmuxScreens.delete(this);
    try {
      execFileSync('tmux', [...this.server, 'kill-session', '-t', this.name], { stdio: 'ignore' });
    } catch {
      // already gone
    }
    if (![...tmuxScreens].some((screen) => screen.socketPath === this.socketPath)) {
      try {
        execFileSync('tmux', [...this.server, 'kill-server'], { stdio: 'ignore' });
      } catch {
        // it ended with its last window
      }
      rmSync(this.socketPath, { force: true });
    }
  }
}

const tmuxScreens = new Set<TmuxScreen>();

/** Ends every tmux window a test left (for afterEach). */
export function endTmuxScreens(): void {
  for (const screen of tmuxScreens) screen.kill();
}
