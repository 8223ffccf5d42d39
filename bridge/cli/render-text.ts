// Renders session events for a person in a terminal: streamed replies, tool
// calls as they start, update and finish (with diffs for edits), the plan, the
// turn's real stop reason and its usage. Live (a terminal that can move its cursor,
// without --plain): running tool calls are one line each, rewritten in place, under a
// status line with the turn's elapsed time and what it waits for. Plain: each change
// is a new line, as scripts read it.
import path from 'node:path';
import type { StopReason } from '@agentclientprotocol/sdk';
import type { BridgeEvent } from '../session/events.js';
import type { ToolCallState } from '../session/state.js';
import { diffLines } from './line-diff.js';
import { LiveArea } from './live-area.js';
import { terminalLine as one, terminalSafe } from './terminal-text.js';

const useColor = (stream: NodeJS.WriteStream) => Boolean(stream.isTTY) && !process.env.NO_COLOR;

export const STOP_TEXT: Record<StopReason, string> = {
  end_turn: 'done (end_turn)',
  max_tokens: 'stopped: the agent ran out of output tokens (max_tokens) — ask it to continue',
  max_turn_requests: 'stopped: the agent hit its limit of model requests for one turn (max_turn_requests)',
  refusal: 'stopped: the agent refused (refusal)',
  cancelled: 'cancelled',
};

/** A terminal command's output shows when it exits: its last lines, with a count of those before. */
const TAIL_LINES = 20;
const TAIL_CHARS = 8192;

const STATUS_MARK: Record<string, string> = { pending: '○', in_progress: '◐', completed: '●', failed: '✗' };
const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

export interface RendererOptions {
  /** Rewrite running tool calls in place and show a status line (a capable TTY, no --plain). */
  live?: boolean;
}

/** Live rendering needs a terminal that moves its cursor. */
export function canRenderLive(out: NodeJS.WriteStream, plain: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(out.isTTY) && !plain && env.TERM !== 'dumb';
}

export class TextRenderer {
  private midLine = false;
  private lastRole?: string;
  private readonly shownStatus = new Map<string, string>();
  private readonly shownDiffs = new Set<string>();
  /** The end of each running terminal's output and how many lines it had in all: shown when the command exits. */
  private readonly terminalTails = new Map<string, { text: string; newlines: number; truncated: boolean }>();
  private readonly color: boolean;
  private readonly live?: LiveArea;
  /** Live mode: the turn's running tool calls, in the order they appeared. */
  private readonly running = new Map<string, ToolCallState>();
  private readonly terminals = new Map<string, string>();
  private turnStarted?: number;
  private ticker?: NodeJS.Timeout;
  private lastOutput = 0;
  private waitingFor?: string;
  private usage?: { used: number; size: number; cost?: { amount: number; currency: string } | null };
  private usageChanged = false;

  constructor(private readonly out: NodeJS.WriteStream, private readonly workspace: string, options: RendererOptions = {}) {
    this.color = useColor(out);
    if (options.live) this.live = new LiveArea(out, () => this.liveLines(), (l, i) => (i === this.running.size ? this.dim(l) : l));
  }

  /** A line from the face itself (e.g. "cancelling…"), written above the live lines. */
  say(text: string): void {
    this.line(text);
  }

  /** The face asks the person something below the output: the live lines step aside meanwhile. */
  pause(reason: string): void {
    this.waitingFor = reason;
    if (this.midLine) this.newline();
    this.live?.pause();
  }

  resume(): void {
    this.waitingFor = undefined;
    this.live?.resume();
    this.live?.draw();
  }

  render(raw: BridgeEvent): void {
    // Everything the agent sent passes the one sanitiser before it is shown (or kept for the live lines).
    const event = terminalSafe(raw);
    this.track(event);
    switch (event.type) {
      case 'session_started':
        return this.line(this.dim(one(`${event.agent.name ?? event.agent.id} ${event.agent.version ?? ''} · session ${event.sessionId} · ${event.cwd}`)));
      case 'context_sent':
        if (event.note) this.line(this.dim(`↳ ${event.note}`));
        return this.line(this.dim(event.full ? `↳ hardware context: ${event.board} (${event.chars} chars, as ${event.form})` : `↳ hardware context unchanged: ${event.board}`));
      case 'context_missing':
        return this.line(this.dim(`↳ no hardware context: ${event.reason}`));
      case 'message_chunk':
        return this.chunk(event.role, event.text);
      case 'tool_call':
        return this.toolCall(event.toolCall);
      case 'plan':
        this.line(this.bold('Plan'));
        for (const entry of event.entries) this.line(`  ${entry.status === 'completed' ? '☑' : entry.status === 'in_progress' ? '◐' : '☐'} ${one(entry.content)}`);
        return;
      case 'mode':
        return this.line(this.dim(`mode: ${one(event.currentModeId)}`));
      case 'permission_decision':
        if (event.by === 'person') return;
        return this.line(this.dim(`permission ${event.outcome}${event.optionKind ? ` (${event.optionKind})` : ''} by ${event.by}${event.reason ? `: ${one(event.reason)}` : ''}`));
      case 'elicitation_decision':
        if (event.by === 'person') return;
        return this.line(this.dim(event.by === 'policy' ? 'the agent\'s form was declined: nobody here to answer it' : 'the agent\'s form was cancelled'));
      case 'elicitation_complete':
        return this.line(this.dim(`the agent says the page it opened is done (${one(event.elicitationId)})`));
      case 'file_written':
        return this.line(this.dim(`${event.created ? 'created' : 'wrote'} ${one(this.rel(event.path))} (undo: boardbridge undo)`));
      case 'terminal_started':
        return this.line(this.dim(`$ ${one(event.command)}${event.inProcess ? '   (run by boardbridge)' : ''}`));
      case 'terminal_output': {
        const kept = this.terminalTails.get(event.terminalId) ?? { text: '', newlines: 0, truncated: false };
        kept.text = (kept.text + event.text).slice(-TAIL_CHARS);
        kept.newlines += event.text.split('\n').length - 1;
        kept.truncated ||= Boolean(event.truncated);
        this.terminalTails.set(event.terminalId, kept);
        return;
      }
      case 'terminal_exited': {
        const kept = this.terminalTails.get(event.terminalId);
        this.terminalTails.delete(event.terminalId);
        if (kept?.text.trim()) this.showTail(kept);
        this.line(this.dim(`  exit ${event.exitCode ?? event.signal}`));
        return;
      }
      case 'stop':
        this.line(event.stopReason === 'end_turn' ? this.dim(STOP_TEXT.end_turn) : this.yellow(STOP_TEXT[event.stopReason]));
        return this.showUsage();
      case 'agent_exited':
        return this.line(this.red(`the agent exited (${event.signal ?? `code ${event.code}`})${event.stderrTail ? `:\n${event.stderrTail}` : ''}`));
      case 'error':
        // A command the bridge refused did not fail: it never ran, for the reason given.
        if (event.code === 'terminal_refused') this.line(this.yellow(`⊘ ${one(event.message)}`));
        else this.line(this.red(`error: ${event.message}`));
        if (event.hint) this.line(`  → ${event.hint}`);
        return;
      case 'notice':
        return this.line(one(`${event.severity}: ${event.title}${event.description ? ` — ${event.description}` : ''}`));
      default:
        return;
    }
  }

  // What the turn waits for, for the status line: the person, a terminal, a tool, or the model.
  private track(event: BridgeEvent): void {
    switch (event.type) {
      case 'prompt_sent':
        this.turnStarted = Date.now();
        this.running.clear();
        if (this.live && !this.ticker) this.ticker = setInterval(() => this.tick(), 1000).unref();
        return;
      case 'terminal_started':
        this.terminals.set(event.terminalId, event.command);
        return;
      case 'terminal_exited':
        this.terminals.delete(event.terminalId);
        return;
      case 'usage':
        this.usage = { used: event.used, size: event.size, cost: event.cost };
        this.usageChanged = true;
        return;
      case 'stop':
      case 'agent_exited':
        this.endTurn();
        return;
      case 'error':
        if (this.turnStarted) this.endTurn();
        return;
    }
  }

  private endTurn(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.turnStarted = undefined;
    this.running.clear();
    this.terminals.clear();
    this.live?.erase();
  }

  private tick(): void {
    if (!this.live || this.waitingFor) return;
    // A reply that stopped mid-line for a while: end the line so the status can show.
    if (this.midLine && Date.now() - this.lastOutput > 2000) this.newline();
    if (!this.midLine) this.live.redraw();
  }

  private liveLines(): string[] {
    const lines = [...this.running.values()].map((call) => `${STATUS_MARK[call.status] ?? '·'} ${one(`${call.kind} ${call.title || call.toolCallId}`)}`);
    if (this.turnStarted === undefined) return lines;
    const seconds = Math.floor((Date.now() - this.turnStarted) / 1000);
    const frame = SPINNER[seconds % SPINNER.length];
    lines.push(`${frame} ${seconds}s · waiting for ${this.waitReason()} · Ctrl-C cancels`);
    return lines;
  }

  private waitReason(): string {
    if (this.waitingFor) return this.waitingFor;
    const terminal = [...this.terminals.values()].at(-1);
    if (terminal) return `a terminal: ${one(terminal)}`;
    const tool = [...this.running.values()].filter((c) => c.status === 'in_progress').at(-1);
    if (tool) return `a tool: ${one(tool.title || tool.kind)}`;
    return 'the model';
  }

  // The last lines of a command's output (a compile error with its file:line is at the end), and how many came before.
  private showTail(kept: { text: string; newlines: number; truncated: boolean }): void {
    const text = kept.text.trimEnd();
    const lines = text.split('\n');
    // The lines the whole output had, up to its last non-blank one.
    const total = kept.newlines - (kept.text.slice(text.length).split('\n').length - 1) + 1;
    const shown = lines.slice(-TAIL_LINES);
    const before = Math.max(0, total - shown.length);
    if (before) this.line(this.dim(`  │ … ${before} line${before === 1 ? '' : 's'} before`));
    for (const l of shown) this.line(`  │ ${l}`);
    if (kept.truncated) this.line(this.dim('  │ … (output past this point is not shown here)'));
  }

  private showUsage(): void {
    if (!this.usage || !this.usageChanged) return;
    this.usageChanged = false;
    const { used, size, cost } = this.usage;
    const tokens = `${used.toLocaleString('en-US')} of ${size.toLocaleString('en-US')} context tokens`;
    this.line(this.dim(`usage: ${tokens}${cost ? ` · ${cost.amount.toFixed(4)} ${cost.currency} so far` : ''}`));
  }

  private chunk(role: string, text: string): void {
    if (role === 'user') return;
    this.live?.erase();
    if (this.lastRole !== role && this.midLine) this.newline();
    if (this.lastRole !== role && role === 'thought') this.out.write(this.dim('thinking: '));
    this.lastRole = role;
    this.out.write(role === 'thought' ? this.dim(text) : text);
    this.midLine = !text.endsWith('\n');
    this.lastOutput = Date.now();
    if (!this.midLine) this.live?.draw();
  }

  private toolCall(call: ToolCallState): void {
    const key = `${call.status}|${call.title}|${call.refused ?? ''}`;
    if (this.shownStatus.get(call.toolCallId) === key) return;
    this.shownStatus.set(call.toolCallId, key);
    const done = call.status === 'completed' || call.status === 'failed';
    if (this.live && !done) {
      // Live: a running call is one line below the output, rewritten as it changes.
      this.running.set(call.toolCallId, call);
      this.showDiffs(call);
      if (!this.midLine) this.live.redraw();
      return;
    }
    this.running.delete(call.toolCallId);
    // A call the person (or the policy) refused never ran: the agent's `failed` would say it broke.
    const outcome = call.refused && call.status === 'failed' ? 'refused' : call.status;
    this.line(`${STATUS_MARK[call.status] ?? '·'} ${one(`${call.kind} ${call.title || call.toolCallId}`)} ${this.dim(`[${outcome}]`)}`);
    this.showDiffs(call);
  }

  private showDiffs(call: ToolCallState): void {
    // The diff shows once, as soon as it is known: before a permission prompt when the agent asks.
    for (const item of call.content) {
      if (item.type !== 'diff' || this.shownDiffs.has(`${call.toolCallId}|${item.path}`)) continue;
      this.shownDiffs.add(`${call.toolCallId}|${item.path}`);
      this.line(this.dim(`  ${one(this.rel(item.path))}`));
      const lines = diffLines(item.oldText ?? '', item.newText);
      if (!lines) {
        this.line(this.dim('  (too large to show)'));
        continue;
      }
      for (const l of lines.slice(0, 60)) this.line(l.op === '+' ? this.green(`  + ${l.text}`) : l.op === '-' ? this.red(`  - ${l.text}`) : this.dim(`    ${l.text}`));
      if (lines.length > 60) this.line(this.dim(`  … ${lines.length - 60} more lines`));
    }
  }

  private rel(p: string): string {
    const r = path.relative(this.workspace, p);
    return r && !r.startsWith('..') ? r : p;
  }

  private line(text: string): void {
    this.live?.erase();
    if (this.midLine) this.newline();
    this.out.write(text + '\n');
    this.lastRole = undefined;
    this.lastOutput = Date.now();
    this.live?.draw();
  }

  private newline(): void {
    this.out.write('\n');
    this.midLine = false;
  }

  private paint(code: number, text: string): string {
    return this.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }
  private dim = (t: string) => this.paint(2, t);
  private bold = (t: string) => this.paint(1, t);
  private red = (t: string) => this.paint(31, t);
  private green = (t: string) => this.paint(32, t);
  private yellow = (t: string) => this.paint(33, t);
}
