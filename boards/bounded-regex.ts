// Regular expressions that come from an agent or a person (serial_expect, --until, a form
// field's pattern) run with a time limit: JavaScript's engine backtracks, and a pattern such as
// `(a|a)*$` or `a*a*a*a*b` can take minutes on a short line, which in the bridge's own thread
// would stop everything else (the agent's messages, the serial ports, the panel).
//
// A pattern without quantifiers cannot backtrack beyond a constant factor and runs here. One
// with them runs in a worker thread that the calling thread waits for, at most `budgetMs`; a
// worker still matching then is ended and RegexTooSlowError thrown. The worker is inline code
// (no file of its own), so the bundled .vsix needs nothing beside the bundle.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/** How long one match may take, including the worker's start the first time. */
export const REGEX_BUDGET_MS = 2000;

export class RegexTooSlowError extends Error {
  constructor(
    readonly pattern: string,
    readonly budgetMs: number,
    textLength: number,
  ) {
    super(`the pattern /${pattern}/ took longer than ${budgetMs / 1000} s on ${textLength} characters and was stopped (it backtracks too much): simplify it, e.g. without nested or adjacent * and +`);
    this.name = 'RegexTooSlowError';
  }
}

export interface BoundedMatch {
  /** The whole match, then each group (undefined where a group did not take part). */
  groups: Array<string | undefined>;
  index: number;
}

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, state } = workerData;
const flag = new Int32Array(state);
port.on('message', ({ source, flags, text }) => {
  let reply;
  try {
    const match = new RegExp(source, flags).exec(text);
    reply = match ? { groups: [...match], index: match.index } : null;
  } catch (error) {
    reply = { error: String(error && error.message) };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

interface Matcher {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
}

let matcher: Matcher | undefined;

function startMatcher(): Matcher {
  const { port1, port2 } = new MessageChannel();
  const state = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { port: port2, state }, transferList: [port2] });
  // Neither keeps the process alive: a command that is done exits.
  worker.unref();
  port1.unref();
  return { worker, port: port1, flag: new Int32Array(state) };
}

/** True when `source` has no quantifier (`*`, `+`, `?`, `{n}`) outside escapes, classes and `(?` group openers. */
export function withoutQuantifiers(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(' && source[i + 1] === '?') i++;
    else if (c === '*' || c === '+' || c === '?' || c === '{') return false;
  }
  return true;
}

export class BoundedRegex {
  private readonly inline: RegExp | undefined;

  /** Throws SyntaxError for a pattern that is not a regular expression. */
  constructor(
    readonly source: string,
    readonly flags = '',
    private readonly budgetMs = REGEX_BUDGET_MS,
  ) {
    const checked = new RegExp(source, flags.replace(/[gy]/g, ''));
    this.flags = checked.flags;
    if (withoutQuantifiers(source)) this.inline = checked;
  }

  exec(text: string): BoundedMatch | null {
    if (this.inline) {
      const match = this.inline.exec(text);
      return match ? { groups: [...match], index: match.index } : null;
    }
    matcher ??= startMatcher();
    const { port, flag, worker } = matcher;
    Atomics.store(flag, 0, 0);
    port.postMessage({ source: this.source, flags: this.flags, text });
    if (Atomics.wait(flag, 0, 0, this.budgetMs) === 'timed-out') {
      matcher = undefined;
      void worker.terminate();
      port.close();
      throw new RegexTooSlowError(this.source, this.budgetMs, text.length);
    }
    const reply = receiveMessageOnPort(port)?.message as BoundedMatch | null | { error: string } | undefined;
    if (reply === undefined) throw new Error(`the pattern /${this.source}/ got no answer from its matcher`);
    if (reply && 'error' in reply) throw new SyntaxError(reply.error);
    return reply;
  }

  test(text: string): boolean {
    return this.exec(text) !== null;
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }
}
