// A minimal ACP client for harness tests: spawns a real agent in its own process group, answers
// fs/*, terminal/* (real child processes) and permission requests, and keeps every raw JSON-RPC
// line the agent wrote so tests can assert on it and record fixtures.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  client,
  methods,
  ndJsonStream,
  RequestError,
  type ClientConnection,
  type InitializeResponse,
  type McpServer,
  type PromptResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import type { AgentLaunch } from './agents.js';

export type PermissionPolicy = 'allow_once' | 'allow_always' | 'reject_once' | 'hold';
/** How fs/read_text_file of a missing file is answered. */
export type MissingFileAnswer = 'resource-not-found' | 'empty-text' | 'internal-error';

export interface ProbeOptions {
  launch: AgentLaunch;
  /** Working directory of the agent process and default cwd of terminals. */
  cwd: string;
  permission?: PermissionPolicy;
  missingFile?: MissingFileAnswer;
}

export interface AgentRequestRecord {
  method: string;
  params: unknown;
}

interface Terminal {
  child: ChildProcess;
  output: string;
  truncated: boolean;
  limit?: number;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
}

export class AgentProbe {
  /** Every JSON line the agent wrote to stdout, in order. */
  readonly lines: string[] = [];
  /** Non-JSON stdout lines (skipped, as a real client must). */
  readonly stdoutNoise: string[] = [];
  readonly updates: SessionNotification[] = [];
  /** Agent→client requests in arrival order. */
  readonly agentRequests: AgentRequestRecord[] = [];
  /** How each session/request_permission was answered, in order. */
  readonly permissionAnswers: RequestPermissionResponse[] = [];
  stderr = '';
  readonly connection: ClientConnection;
  private readonly child: ChildProcess;
  private readonly pendingPermissions = new Set<(r: RequestPermissionResponse) => void>();
  private readonly terminals = new Map<string, Terminal>();
  private terminalSeq = 0;

  constructor(private readonly options: ProbeOptions) {
    const { launch } = options;
    this.child = spawn(launch.command, launch.args, { cwd: options.cwd, env: launch.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    const app = client({ name: 'boardbridge-acp-probe' })
      .onNotification(methods.client.session.update, ({ params }) => {
        this.updates.push(params);
      })
      .onRequest(methods.client.session.requestPermission, ({ params }) => this.answerPermission(params))
      .onRequest(methods.client.fs.readTextFile, async ({ params }) => {
        this.agentRequests.push({ method: methods.client.fs.readTextFile, params });
        return { content: await this.readText(params.path, params.line ?? undefined, params.limit ?? undefined) };
      })
      .onRequest(methods.client.fs.writeTextFile, async ({ params }) => {
        this.agentRequests.push({ method: methods.client.fs.writeTextFile, params });
        await mkdir(dirname(params.path), { recursive: true });
        await writeFile(params.path, params.content);
        return {};
      })
      .onRequest(methods.client.terminal.create, ({ params }) => {
        this.agentRequests.push({ method: methods.client.terminal.create, params });
        return { terminalId: this.startTerminal(params.command, params.args ?? [], params.cwd ?? this.options.cwd, params.outputByteLimit ?? undefined) };
      })
      .onRequest(methods.client.terminal.output, ({ params }) => {
        this.agentRequests.push({ method: methods.client.terminal.output, params });
        const terminal = this.terminal(params.terminalId);
        const status = terminal.child.exitCode !== null || terminal.child.signalCode !== null
          ? { exitStatus: { exitCode: terminal.child.exitCode, signal: terminal.child.signalCode } }
          : {};
        return { output: terminal.output, truncated: terminal.truncated, ...status };
      })
      .onRequest(methods.client.terminal.waitForExit, async ({ params }) => {
        this.agentRequests.push({ method: methods.client.terminal.waitForExit, params });
        return this.terminal(params.terminalId).exit;
      })
      .onRequest(methods.client.terminal.kill, ({ params }) => {
        this.agentRequests.push({ method: methods.client.terminal.kill, params });
        killGroup(this.terminal(params.terminalId).child);
        return {};
      })
      .onRequest(methods.client.terminal.release, ({ params }) => {
        this.agentRequests.push({ method: methods.client.terminal.release, params });
        killGroup(this.terminal(params.terminalId).child);
        this.terminals.delete(params.terminalId);
        return {};
      });
    this.connection = app.connect(ndJsonStream(Writable.toWeb(this.child.stdin!), this.jsonLinesOf(this.child.stdout!)));
  }

  initialize(): Promise<InitializeResponse> {
    return this.connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: 'boardbridge-acp-probe', version: '0.0.0' },
    });
  }

  async newSession(cwd: string, mcpServers: McpServer[] = []): Promise<string> {
    const response = await this.connection.agent.request(methods.agent.session.new, { cwd, mcpServers });
    return response.sessionId;
  }

  prompt(sessionId: string, text: string): Promise<PromptResponse> {
    return this.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
  }

  /** Sends session/cancel and answers every held permission request "cancelled", as ACP requires. */
  async cancel(sessionId: string): Promise<void> {
    await this.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    for (const answer of this.pendingPermissions) answer({ outcome: { outcome: 'cancelled' } });
    this.pendingPermissions.clear();
  }

  /** Resolves once the agent has sent a request with this method (e.g. a held permission). */
  async waitForRequest(method: string): Promise<AgentRequestRecord> {
    for (;;) {
      const found = this.agentRequests.find((r) => r.method === method);
      if (found) return found;
      if (this.child.exitCode !== null) throw new Error(`agent exited (${this.child.exitCode}) before sending ${method}; stderr:\n${this.stderr.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Kills the agent's whole process group and every terminal it started. */
  async close(): Promise<void> {
    for (const terminal of this.terminals.values()) killGroup(terminal.child);
    this.connection.close();
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    if (this.child.exitCode === null && this.child.signalCode === null) {
      killGroup(this.child);
      await exited;
    }
  }

  private answerPermission(params: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    this.agentRequests.push({ method: methods.client.session.requestPermission, params });
    const policy = this.options.permission ?? 'allow_once';
    const answered = (answer: RequestPermissionResponse): RequestPermissionResponse => {
      this.permissionAnswers.push(answer);
      return answer;
    };
    if (policy === 'hold') return new Promise((resolve) => this.pendingPermissions.add((answer) => resolve(answered(answer))));
    // Option ids differ per agent (allow / proceed_once ...): choose by kind.
    const option = params.options.find((o) => o.kind === policy) ?? params.options.find((o) => o.kind.startsWith(policy.split('_')[0] ?? ''));
    if (!option) return Promise.resolve(answered({ outcome: { outcome: 'cancelled' } }));
    return Promise.resolve(answered({ outcome: { outcome: 'selected', optionId: option.optionId } }));
  }

  private async readText(path: string, line?: number, limit?: number): Promise<string> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const answer = this.options.missingFile ?? 'resource-not-found';
      if (answer === 'empty-text') return '';
      if (answer === 'internal-error') throw RequestError.internalError({ path }, `cannot read ${path}: no such file`);
      throw RequestError.resourceNotFound(`file://${path}`);
    }
    if (line === undefined && limit === undefined) return text;
    const lines = text.split('\n');
    const start = Math.max(0, (line ?? 1) - 1);
    return lines.slice(start, limit === undefined ? undefined : start + limit).join('\n');
  }

  private startTerminal(command: string, args: string[], cwd: string, limit?: number): string {
    // Claude Code sends the whole shell line in `command` with no args.
    const child = args.length === 0
      ? spawn('/bin/sh', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.terminalSeq += 1;
    const id = `term-${this.terminalSeq}`;
    const terminal: Terminal = {
      child,
      output: '',
      truncated: false,
      limit,
      exit: new Promise((resolve) => child.once('close', (exitCode, signal) => resolve({ exitCode, signal }))),
    };
    const append = (chunk: Buffer): void => {
      terminal.output += chunk.toString('utf8');
      if (terminal.limit !== undefined && Buffer.byteLength(terminal.output) > terminal.limit) {
        terminal.output = terminal.output.slice(terminal.output.length - terminal.limit);
        terminal.truncated = true;
      }
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);
    this.terminals.set(id, terminal);
    return id;
  }

  private terminal(id: string): Terminal {
    const terminal = this.terminals.get(id);
    if (!terminal) throw RequestError.resourceNotFound(id);
    return terminal;
  }

  // Keeps the raw lines for fixtures and drops non-JSON stdout noise before the SDK parses it.
  private jsonLinesOf(stdout: Readable): ReadableStream<Uint8Array> {
    let pending = '';
    let open = true;
    const encoder = new TextEncoder();
    return new ReadableStream<Uint8Array>({
      cancel: () => {
        open = false;
      },
      start: (controller) => {
        stdout.on('data', (chunk: Buffer) => {
          if (!open) return;
          pending += chunk.toString('utf8');
          const parts = pending.split('\n');
          pending = parts.pop() ?? '';
          for (const line of parts) {
            if (line.trim() === '') continue;
            if (!line.trimStart().startsWith('{')) {
              this.stdoutNoise.push(line);
              continue;
            }
            this.lines.push(line);
            controller.enqueue(encoder.encode(line + '\n'));
          }
        });
        stdout.on('end', () => {
          if (open) controller.close();
          open = false;
        });
      },
    });
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}
