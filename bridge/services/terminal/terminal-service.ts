// Answers terminal/* requests: real processes confined to the workspace and to the
// permission policy, output kept under the agent's byte limit, and board commands
// run in-process so they share the bridge's one serial hub.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { RequestError } from '@agentclientprotocol/sdk';
import type {
  CreateTerminalRequest,
  TerminalExitStatus,
  TerminalOutputResponse,
} from '@agentclientprotocol/sdk';
import type { CommandTable, InProcessCommand } from '../../../boards/command.js';
import { operationOfWords } from '../../../boards/operations.js';
import type { WorkspaceGuard } from '../fs/workspace-guard.js';
import { HOST_OUTPUT_CEILING, OutputBuffer } from './output-limit.js';
import { startWatchdog } from './group-watchdog.js';
import { endGroup } from './process-group.js';
import { splitShellWords } from '../../shell-words.js';

interface Terminal {
  id: string;
  commandLine: string;
  output: OutputBuffer;
  exit?: TerminalExitStatus;
  exited: Promise<TerminalExitStatus>;
  kill(): Promise<void>;
}


export interface TerminalServiceOptions {
  guard: WorkspaceGuard;
  /** Why `commandLine` may not run (undefined: it may), asked for everything but read-only board commands. */
  authorize: (commandLine: string) => string | undefined;
  /** Board commands the bridge runs itself when the agent asks for `boardbridge <name> ...`. */
  commands?: CommandTable;
  env?: NodeJS.ProcessEnv;
  onEvent?: (event: TerminalEvent) => void;
}

export type TerminalEvent =
  | { type: 'terminal_started' | 'terminal_exited'; terminalId: string; command: string; inProcess: boolean; exit?: TerminalExitStatus }
  | { type: 'terminal_refused'; command: string; reason: string }
  /** Output as it arrives, for faces; after FACE_OUTPUT_BUDGET bytes of one terminal only the agent gets the rest. */
  | { type: 'terminal_output'; terminalId: string; text: string; truncated?: boolean };

/** How much of one terminal's output the faces are shown live (the agent's own limit is separate). */
export const FACE_OUTPUT_BUDGET = 256 * 1024;

/** A `boardbridge <command> ...` line the bridge runs in-process, or no board command. */
export function boardCommandOf(params: CreateTerminalRequest, commands: CommandTable | undefined): { argv: string[] | undefined; board: InProcessCommand | undefined } {
  const argv = params.args?.length ? [params.command, ...params.args] : splitShellWords(params.command, { plainOnly: true });
  const board = argv && argv[0] === 'boardbridge' ? commands?.get(argv[1] ?? '') : undefined;
  return { argv: argv ?? undefined, board };
}

export class TerminalService {
  private readonly terminals = new Map<string, Terminal>();

  constructor(private readonly options: TerminalServiceOptions) {}

  create(params: CreateTerminalRequest): { terminalId: string } {
    if (typeof params.command !== 'string' || params.command.trim() === '') {
      throw RequestError.invalidParams({ command: params.command }, 'command must be a non-empty string');
    }
    const cwd = this.options.guard.check(params.cwd ?? this.options.guard.roots[0], 'write');
    if (!isFolder(cwd)) {
      throw RequestError.invalidParams({ cwd: params.cwd }, `the terminal's cwd ${params.cwd ?? cwd} does not exist or is not a folder; create it first or run the command from the workspace`);
    }
    const limit = Math.min(params.outputByteLimit ?? HOST_OUTPUT_CEILING, HOST_OUTPUT_CEILING * 16);
    const env: Record<string, string> = { ...(this.options.env ?? process.env) } as Record<string, string>;
    for (const variable of params.env ?? []) env[variable.name] = variable.value;
    const id = `term-${randomUUID()}`;
    const output = new OutputBuffer(limit, this.faceTee(id));
    const { argv, board } = boardCommandOf(params, this.options.commands);
    const commandLine = params.args?.length ? [params.command, ...params.args].join(' ') : params.command;
    // A board command that only reads runs without a grant, as its MCP tool does; the others
    // need one, and then ask their own consent (a device change, the project's own code) as every face does.
    const refusal = board && argv && operationOfWords(argv.slice(1))?.operation.readOnly ? undefined : this.options.authorize(commandLine);
    if (refusal !== undefined) {
      this.options.onEvent?.({ type: 'terminal_refused', command: commandLine, reason: refusal });
      throw new RequestError(-32602, `Permission denied: ${refusal}; ask for permission for this command first (your own execute tool call), or have the person run boardbridge with --allow all`, { command: commandLine });
    }
    const terminal = board && argv
      ? this.runInProcess(id, commandLine, output, (signal) => board(argv.slice(2), { write: (t) => output.append(Buffer.from(t)), signal, cwd, env, mayShow: (file) => this.options.guard.allows(file, 'read'), mayWrite: (file) => this.options.guard.allows(file, 'write') }))
      : this.runProcess(id, commandLine, output, params, cwd, env);
    this.terminals.set(id, terminal);
    this.options.onEvent?.({ type: 'terminal_started', terminalId: id, command: commandLine, inProcess: Boolean(board) });
    void terminal.exited.then((exit) =>
      this.options.onEvent?.({ type: 'terminal_exited', terminalId: id, command: commandLine, inProcess: Boolean(board), exit }),
    );
    return { terminalId: id };
  }

  // Faces see what the agent sees, as it arrives, decoded on character boundaries and
  // bounded per terminal so a flooding monitor cannot fill a face's history.
  private faceTee(terminalId: string): ((data: Buffer) => void) | undefined {
    const onEvent = this.options.onEvent;
    if (!onEvent) return undefined;
    const decoder = new StringDecoder('utf8');
    let shown = 0;
    let cut = false;
    return (data) => {
      if (cut) return;
      const part = data.subarray(0, FACE_OUTPUT_BUDGET - shown);
      shown += part.length;
      cut = part.length < data.length;
      const text = decoder.write(part) + (cut ? decoder.end() : '');
      if (text || cut) onEvent({ type: 'terminal_output', terminalId, text, ...(cut ? { truncated: true } : {}) });
    };
  }

  output(terminalId: string): TerminalOutputResponse {
    const terminal = this.get(terminalId);
    return { output: terminal.output.text(terminal.exit !== undefined), truncated: terminal.output.truncated, exitStatus: terminal.exit ?? null };
  }

  async waitForExit(terminalId: string): Promise<TerminalExitStatus> {
    return this.get(terminalId).exited;
  }

  async kill(terminalId: string): Promise<void> {
    await this.get(terminalId).kill();
  }

  async release(terminalId: string): Promise<void> {
    const terminal = this.get(terminalId);
    this.terminals.delete(terminalId);
    if (!terminal.exit) await terminal.kill();
  }

  /** Ends every terminal: called when the session closes. */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.terminals.keys()].map((id) => this.release(id)));
  }

  get size(): number {
    return this.terminals.size;
  }

  private get(terminalId: string): Terminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw new RequestError(-32002, `Resource not found: no terminal ${terminalId} (released or never created)`, { terminalId });
    return terminal;
  }

  private runProcess(
    id: string,
    commandLine: string,
    output: OutputBuffer,
    params: CreateTerminalRequest,
    cwd: string,
    env: Record<string, string>,
  ): Terminal {
    // A command with no args is a shell line (claude-code-acp sends the whole line this way), as Zed runs it.
    // Like an agent's, a terminal's group must not outlive a bridge that is killed.
    const watchdog = startWatchdog();
    const options = { cwd, env: { ...env, ...watchdog?.env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] } satisfies SpawnOptions;
    const child: ChildProcess = params.args?.length
      ? spawn(params.command, params.args, options)
      : spawn(env.SHELL || '/bin/sh', ['-c', params.command], options);
    if (child.pid === undefined) watchdog?.disarm();
    else watchdog?.watch(child.pid);
    child.once('close', () => watchdog?.disarm());
    child.stdout?.on('data', (d: Buffer) => output.append(d));
    child.stderr?.on('data', (d: Buffer) => output.append(d));
    const terminal: Terminal = {
      id,
      commandLine,
      output,
      exited: new Promise((resolve) => {
        child.once('error', (error) => {
          output.append(Buffer.from(`boardbridge: cannot start ${commandLine}: ${error.message}\n`));
          terminal.exit = { exitCode: 127, signal: null };
          resolve(terminal.exit);
        });
        child.once('close', (code, signal) => {
          terminal.exit ??= { exitCode: code, signal: signal ?? null };
          resolve(terminal.exit);
        });
      }),
      kill: () => endGroup(child),
    };
    return terminal;
  }

  private runInProcess(
    id: string,
    commandLine: string,
    output: OutputBuffer,
    run: (signal: AbortSignal) => Promise<number>,
  ): Terminal {
    const controller = new AbortController();
    const terminal: Terminal = {
      id,
      commandLine,
      output,
      exited: Promise.resolve()
        .then(() => run(controller.signal))
        .catch((error: unknown) => {
          output.append(Buffer.from(`${error instanceof Error ? error.message : String(error)}\n`));
          return 1;
        })
        .then((exitCode) => (terminal.exit = { exitCode, signal: controller.signal.aborted ? 'SIGTERM' : null })),
      kill: async () => {
        controller.abort();
        await terminal.exited;
      },
    };
    return terminal;
  }
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
