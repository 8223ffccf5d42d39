// One agent process in its own process group: stdout carries ACP, stderr goes to
// a bounded log, and closing ends the whole group (as does the bridge's death: see
// group-watchdog.ts) and what the agent started outside it (agent-descendants.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import type { Stream } from '@agentclientprotocol/sdk';
import { spawnForm } from '../../boards/executables.js';
import { openConnections } from './agent-connections.js';
import { AGENT_MARK_ENV, agentDescendants, cpuTicks, newAgentMark, signalFound } from './agent-descendants.js';
import { endGroup, signalGroup } from '../services/terminal/process-group.js';
import { startWatchdog, type GroupWatchdog } from '../services/terminal/group-watchdog.js';
import { messageStream } from './message-stream.js';
import type { AgentLaunch } from './resolve.js';
import { StderrLog } from './stderr-log.js';

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  spawnError?: string;
}

export class AgentProcess {
  readonly stderr = new StderrLog();
  readonly skippedLines: string[] = [];
  readonly stream: Stream;
  readonly exited: Promise<AgentExit>;
  /** Resolves with the pid once the process runs (never, when it cannot be started). */
  readonly spawned: Promise<number>;
  private readonly child: ChildProcess;
  private readonly watchdog?: GroupWatchdog;
  /** Inherited by everything the agent starts, so what leaves its process group is still found. */
  private readonly mark = newAgentMark();
  private exit?: AgentExit;

  /** `onStderr` also gets the agent's stderr as it comes (the ACP proxy writes it to its log). */
  constructor(readonly launch: AgentLaunch, cwd: string, baseEnv: NodeJS.ProcessEnv = process.env, onStderr?: (text: string) => void) {
    this.watchdog = startWatchdog();
    const env = { ...baseEnv, ...launch.env, [AGENT_MARK_ENV]: this.mark, ...this.watchdog?.env };
    const form = spawnForm(launch.command, launch.args, { env });
    this.child = spawn(form.command, form.args, {
      windowsVerbatimArguments: form.windowsVerbatimArguments,
      cwd,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.spawned = new Promise((resolve) => this.child.once('spawn', () => resolve(this.child.pid!)));
    if (this.child.pid === undefined) this.watchdog?.disarm();
    else this.watchdog?.watch(this.child.pid);
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (text: string) => {
      this.stderr.append(text);
      onStderr?.(text);
    });
    // Writes to an agent that died are reported through `exited`, not as crashes of the bridge.
    this.child.stdin?.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.exit = { code: null, signal: null, spawnError: error.message };
        resolve(this.exit);
      });
      this.child.once('exit', (code, signal) => {
        this.exit ??= { code, signal };
        resolve(this.exit);
      });
    });
    this.stream = messageStream(this.child.stdout!, this.child.stdin!, {
      onSkippedLine: (line, reason) => {
        if (this.skippedLines.length < 100) this.skippedLines.push(`${reason}: ${line.slice(0, 200)}`);
        this.stderr.append(`[boardbridge] skipped stdout line (${reason}): ${line.slice(0, 200)}\n`);
      },
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** CPU ticks the agent and its processes have used, and their TCP connections being made or open (Linux; elsewhere none). */
  lifeSigns(): { ticks?: number; connections: number } {
    const pid = this.child.pid;
    if (pid === undefined) return { connections: 0 };
    const pids = [pid, ...agentDescendants(pid, this.mark).map((p) => p.pid)];
    return { ticks: cpuTicks(pids), connections: openConnections(pids, pid) };
  }

  /** Kills the agent's whole group at once (an end that took too long). */
  kill(): void {
    signalGroup(this.child, 'SIGKILL');
    this.watchdog?.disarm();
  }

  /** Ends the agent and everything it started; its children get the grace too (Claude Code writes its session file). */
  async close(): Promise<void> {
    const pid = this.child.pid;
    // Found before the group ends: once the agent is gone, its orphans no longer descend from it.
    const outside = pid === undefined ? [] : agentDescendants(pid, this.mark);
    signalFound(outside, 'SIGTERM');
    this.child.stdin?.end();
    await endGroup(this.child, 1500, true);
    this.watchdog?.disarm();
    if (pid !== undefined) signalFound([...outside, ...agentDescendants(pid, this.mark)], 'SIGKILL');
  }
}
