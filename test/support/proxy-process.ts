// `boardbridge acp` as an editor starts it (the built CLI, a real process), in front
// of the echo stand-in agent (echo-agent.mjs), driven with raw JSON lines: what the
// test writes reaches the proxy's stdin byte for byte, and every line the proxy
// writes is kept, so a test can play an editor that does what no SDK would.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Wire } from './scripted-editor.js';

const repoRoot = path.resolve(__dirname, '..', '..');
const cliMain = path.join(repoRoot, 'dist', 'bridge', 'cli', 'main.js');
const echoAgent = path.join(repoRoot, 'test', 'support', 'echo-agent.mjs');

export class ProxyProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly seen: Wire[] = [];
  readonly closed: Promise<number | null>;
  readonly dir = mkdtempSync(path.join(os.tmpdir(), 'bb-proxy-process-'));
  stderr = '';
  private readonly waiters: { match: (m: Wire) => boolean; resolve: (m: Wire) => void }[] = [];
  /** Messages no waiter has taken yet (a burst arrives between two awaits). */
  private readonly untaken: Wire[] = [];
  private nextId = 1;

  /** `agentCommand`: another stand-in than the echo agent; `env`: added to (and over) the proxy's. */
  constructor(options: { agentCommand?: string; env?: Record<string, string> } = {}) {
    const agentCommand = options.agentCommand ?? `${process.execPath} ${echoAgent}`;
    this.child = spawn(process.execPath, [cliMain, 'acp', '--log-file', path.join(this.dir, 'acp.log'), '--agent-command', agentCommand], {
      env: { ...process.env, BOARDBRIDGE_STATE_DIR: path.join(this.dir, 'state'), ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr.setEncoding('utf8').on('data', (t: string) => (this.stderr += t));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as Wire;
      this.seen.push(message);
      const i = this.waiters.findIndex((w) => w.match(message));
      if (i >= 0) this.waiters.splice(i, 1)[0].resolve(message);
      else this.untaken.push(message);
    });
    this.closed = new Promise((resolve) => this.child.once('close', resolve));
  }

  /** Writes one line as it is. */
  line(text: string): void {
    this.child.stdin.write(`${text}\n`);
  }

  send(message: Wire): void {
    this.line(JSON.stringify({ jsonrpc: '2.0', ...message }));
  }

  request(method: string, params?: unknown, id: string | number = this.nextId++): Promise<Wire> {
    const answer = this.next((m) => m.id === id && m.method === undefined);
    this.send({ id, method, params });
    return answer;
  }

  /** The next message that matches, or one seen already that no waiter took. */
  next(match: (m: Wire) => boolean, timeoutMs = 30_000): Promise<Wire> {
    const i = this.untaken.findIndex(match);
    if (i >= 0) return Promise.resolve(this.untaken.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message from the proxy within ${timeoutMs} ms; last seen: ${JSON.stringify(this.seen.slice(-3)).slice(0, 600)}\n${this.stderr.slice(-600)}`)), timeoutMs);
      this.waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  /** initialize and session/new: the session id and what the agent was given (the echo of session/new). */
  async open(clientCapabilities: object = { fs: { readTextFile: true, writeTextFile: true }, terminal: true }): Promise<{ sessionId: string; cwd: string; mcpServers: Wire[] }> {
    const init = await this.request('initialize', { protocolVersion: 1, clientCapabilities });
    if (init.error) throw new Error(init.error.message);
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'bb-proxy-cwd-'));
    const created = await this.request('session/new', { cwd, mcpServers: [] });
    const result = created.result as { sessionId: string; echo: { params: { mcpServers: Wire[] } } };
    return { sessionId: result.sessionId, cwd, mcpServers: result.echo.params.mcpServers };
  }

  /** Has the stand-in agent send the editor `method` (under `id` if given) and gives the reply it got. */
  agentCalls(method: string, params: object, id?: string | number): Promise<Wire> {
    return this.request('_test/call_client', { method, params, ...(id === undefined ? {} : { id }) }).then((answer) => (answer.result as { reply: Wire }).reply);
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
