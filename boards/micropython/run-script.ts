// Running a script on a MicroPython board and stopping it: the one implementation behind the
// `run-script` / `stop-script` commands and the run_script / stop_script MCP tools. A run holds
// its port until the script ends; a stop for that port in the same process interrupts it.
import type { ByteLink } from './link.js';
import { LinkReader } from './link-reader.js';
import { RawRepl, type ExecResult } from './raw-repl.js';
import { mapTraceback, type MappedTraceback } from './traceback.js';

export interface RunScriptRequest {
  port: string;
  /** The script's name for tracebacks, e.g. `main.py`. */
  name: string;
  text: string;
  onOutput?: (text: string) => void;
  signal?: AbortSignal;
  /** Stop the script (Ctrl-C) after this long. */
  timeoutMs?: number;
  rawPaste?: boolean;
}

export interface RunScriptResult extends ExecResult {
  traceback?: MappedTraceback;
}

export interface RunnerDeps {
  openLink: (path: string) => Promise<ByteLink>;
  /** How long a board may take to answer a protocol step. */
  answerTimeoutMs?: number;
}

/** Scripts running now, by port, so a stop reaches the run that holds the port. */
export class RunningScripts {
  private readonly runs = new Map<string, RawRepl>();

  add(port: string, repl: RawRepl): void {
    this.runs.set(port, repl);
  }

  delete(port: string, repl: RawRepl): void {
    if (this.runs.get(port) === repl) this.runs.delete(port);
  }

  get(port: string): RawRepl | undefined {
    return this.runs.get(port);
  }
}

export async function runScript(request: RunScriptRequest, deps: RunnerDeps, running: RunningScripts): Promise<RunScriptResult> {
  const link = await deps.openLink(request.port);
  const repl = new RawRepl(link, { answerTimeoutMs: deps.answerTimeoutMs, rawPaste: request.rawPaste });
  running.add(request.port, repl);
  try {
    await repl.enter();
    const result = await repl.exec(request.text, {
      onStdout: request.onOutput,
      signal: request.signal,
      timeoutMs: request.timeoutMs,
    });
    // Back to the friendly REPL, as the board was before (best effort: the result is in hand).
    await repl.exit().catch(() => undefined);
    return { ...result, traceback: mapTraceback(result.stderr, { name: request.name, text: request.text }) };
  } finally {
    running.delete(request.port, repl);
    repl.dispose();
    await link.close();
  }
}

export interface StopResult {
  /** `interrupted` a run of this process; `sent` Ctrl-C to a port nobody here held. */
  how: 'interrupted' | 'sent';
  /** What the board answered to a sent Ctrl-C (its traceback or prompt). */
  reply?: string;
}

const STOP_ANSWER_MS = 5000;

function endsAtPrompt(text: string): boolean {
  return text.includes('\x04>') || /(^|\n)>>> $/.test(text);
}

export async function stopScript(port: string, deps: RunnerDeps, running: RunningScripts): Promise<StopResult> {
  const run = running.get(port);
  if (run) {
    run.interrupt();
    return { how: 'interrupted' };
  }
  const link = await deps.openLink(port);
  const reader = new LinkReader(link);
  try {
    await link.write(Uint8Array.of(0x0d, 0x03, 0x03));
    // The answer ends at a prompt: the raw REPL's \x04> after the traceback, or the friendly >>>.
    // A loaded board may take a while to start it, so wait for the prompt, not for a quiet moment;
    // an idle raw REPL clears its line without a word, so the wait is bounded.
    const deadline = Date.now() + (deps.answerTimeoutMs ?? STOP_ANSWER_MS);
    let reply = Buffer.alloc(0);
    while (!endsAtPrompt(reply.toString('latin1')) && Date.now() < deadline) {
      reply = Buffer.concat([reply, await reader.settle(50, Math.max(1, deadline - Date.now()))]);
    }
    return { how: 'sent', reply: reply.toString('utf8') };
  } finally {
    reader.dispose();
    await link.close();
  }
}
