// MicroPython's raw REPL, as a host drives it: Ctrl-A enters it, a script goes in (raw-paste mode
// with the device's flow control when it offers it, else plain raw mode in paced chunks), Ctrl-D
// runs it, and the reply is `OK`, stdout up to \x04, the traceback up to \x04, then `>`. Plain raw
// mode drops bytes when the device is starved, so there the script is first stored on the device in
// pieces whose length and byte sum the device reports back (a damaged piece is sent again), joined and
// checked whole, and run from memory with exec(); only the two lines that start it go unchecked.
// Ctrl-C stops a running script. Every wait has a deadline so a silent device becomes an error.
import { LinkError, type ByteLink } from './link.js';
import { LinkClosed, LinkReader, ReadAborted, ReadTimeout } from './link-reader.js';

const CTRL_A = 0x01;
const CTRL_C = 0x03;
const CTRL_D = 0x04;
const RAW_BANNER = 'raw REPL; CTRL-B to exit';
// Plain raw mode has no flow control: pace the script so a small UART buffer keeps up.
const RAW_CHUNK_BYTES = 256;
const RAW_CHUNK_PAUSE_MS = 10;

export class ReplError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'ReplError';
  }
}

export interface RawReplOptions {
  /** How long the device may take to answer a protocol step (enter, accept a script, stop). */
  answerTimeoutMs?: number;
  /**
   * Offer raw-paste mode (default true). Off for a device known to mishandle it: the WebAssembly
   * port answers "R\x01" but its reader ends the transfer at once.
   */
  rawPaste?: boolean;
}

export interface ExecOptions {
  /** Script output as it arrives. */
  onStdout?: (text: string) => void;
  /** Aborting stops the script with Ctrl-C; exec still resolves with what it printed. */
  signal?: AbortSignal;
  /** Stops the script with Ctrl-C after this long. */
  timeoutMs?: number;
}

export interface ExecResult {
  stdout: string;
  /** The traceback (or compile error), empty when the script ended normally. */
  stderr: string;
  /** Stopped with Ctrl-C: by `signal`, `interrupt()` or the time-out. */
  interrupted: boolean;
  timedOut: boolean;
  /** Whether raw-paste mode carried the script. */
  rawPaste: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tries for each staged piece, and for starting the staged script. */
const VERIFY_ATTEMPTS = 5;
/** Script bytes per staged piece (up to four times as many characters once escaped). */
const PIECE_BYTES = 128;
/** How long a staging script may take to be accepted before its Ctrl-D counts as lost. */
const STAGE_OK_MS = 1500;

const pieceCount = (length: number) => Math.max(1, Math.ceil(length / PIECE_BYTES));

/** A Python bytes literal for `bytes` in printable ASCII (MicroPython 1.9.2 reads \xNN escapes). */
function bytesLiteral(bytes: Uint8Array): string {
  let text = "b'";
  for (const byte of bytes) {
    if (byte >= 0x20 && byte < 0x7f && byte !== 0x27 && byte !== 0x5c) text += String.fromCharCode(byte);
    else text += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${text}'`;
}

/** The staged script prints this first: without it, the start was damaged and nothing ran. */
const RUN_MARKER = '\x06';
/**
 * One line put before the script: it prints the marker and frees the staged copy (exec has compiled
 * it by then). The script's lines are one further down in a traceback than in the file.
 */
const SCRIPT_PREFIX = "print(end='\\x06');del _c\n";
/**
 * The lines sent unchecked. Every damaged form of them fails to parse, names nothing defined,
 * evaluates a name without calling it, or runs the checked `_c` whole: none runs part of the
 * script, and all but the last print no marker.
 */
const START_SCRIPT = 'del _s\nexec(_c)\n';

/**
 * The traceback as the script would have given it sent directly: the frame of `exec(_c)`
 * (`<stdin>`) goes, and the script's frames (`<string>`, exec's name for it) become `<stdin>` again
 * at the lines of the file (one up, past SCRIPT_PREFIX).
 */
function unwrapTraceback(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !/^\s*File "<stdin>", line \d+/.test(line))
    .map((line) => line.replace(/^(\s*File )"<string>", line (\d+)/, (_all, head: string, n: string) => `${head}"<stdin>", line ${Number(n) - 1}`))
    .join('\n');
}

/** The result of a run stopped before the script started: nothing of it ran or printed. */
function stoppedBeforeStart(timedOut: boolean): ExecResult {
  return { stdout: '', stderr: '', interrupted: true, timedOut, rawPaste: false };
}

export class RawRepl {
  private readonly reader: LinkReader;
  private readonly answerMs: number;
  /** Unknown until the device is asked; false after it declined once. */
  private rawPaste: boolean | undefined;
  private running: { stop: () => void } | undefined;
  /** A stop asked for while the script was still being sent. */
  private stopRequested = false;

  constructor(
    private readonly link: ByteLink,
    options: RawReplOptions = {},
  ) {
    this.reader = new LinkReader(link);
    this.answerMs = options.answerTimeoutMs ?? 5000;
    if (options.rawPaste === false) this.rawPaste = false;
  }

  /** Interrupts whatever runs and enters the raw REPL. */
  async enter(): Promise<void> {
    await this.link.write(Uint8Array.of(0x0d, CTRL_C, CTRL_C));
    await this.reader.settle(100, 1000);
    // A board still booting may miss the first Ctrl-A; ask twice before giving up.
    for (let attempt = 0; attempt < 2; attempt++) {
      await this.link.write(Uint8Array.of(0x0d, CTRL_A));
      try {
        await this.reader.until(RAW_BANNER, { timeoutMs: this.answerMs / 2 });
        await this.reader.until('>', { timeoutMs: this.answerMs / 2 });
        // Both Ctrl-As may have been heard: drop the second banner so it is not taken for a reply.
        if (attempt > 0) await this.reader.settle(100, this.answerMs / 2);
        return;
      } catch (error) {
        if (!(error instanceof ReadTimeout) || attempt === 1) throw this.silent(error, 'enter the raw REPL');
      }
    }
  }

  /** Runs `code` (entering the raw REPL first is the caller's job) and collects its output. */
  async exec(code: string, options: ExecOptions = {}): Promise<ExecResult> {
    const bytes = Buffer.from(code, 'utf8');
    // A board unplugged while the script goes out fails the write: the same error as one that goes
    // while it runs.
    const sending = <T>(step: Promise<T>): Promise<T> =>
      step.catch((error: unknown) => {
        throw this.silent(error, 'take the script');
      });
    if (await sending(this.offerRawPaste())) {
      await sending(this.rawPasteWrite(bytes));
      return this.collect(true, options);
    }
    // Plain raw mode has no flow control and a starved device drops bytes: stage the script in
    // verified pieces, join them, check the whole, then start it.
    let seen = '';
    for (let attempt = 1; attempt <= VERIFY_ATTEMPTS; attempt++) {
      await sending(this.stage(bytes));
      if (!(await sending(this.plainWrite(Buffer.from(START_SCRIPT, 'latin1'), this.answerMs, false)))) {
        seen = 'nothing (the end of the start line was lost)';
        continue;
      }
      const result = await this.collect(false, options, RUN_MARKER);
      if (result.started) return result.result;
      // A stop asked for while the start was damaged: the script never ran, and is not run now.
      if (result.interrupted) return stoppedBeforeStart(result.result.timedOut);
      // The start line arrived damaged: nothing of the script ran; stage and start it again.
      seen = (result.result.stderr || result.result.stdout).trim().split(/\r?\n/).pop() ?? '';
    }
    throw new ReplError(this.link.path, `the device on ${this.link.path} did not start the staged script after ${VERIFY_ATTEMPTS} attempts (last it said ${JSON.stringify(seen)}) — the serial link loses bytes; check the cable and what loads the board`);
  }

  /** Waits for the reply of a script just sent; `marker` is the runner's first output, kept from stdout. */
  private async collect(rawPaste: true, options: ExecOptions): Promise<ExecResult>;
  private async collect(rawPaste: false, options: ExecOptions, marker: string): Promise<{ result: ExecResult; started: boolean; interrupted: boolean }>;
  private async collect(rawPaste: boolean, options: ExecOptions, marker?: string): Promise<ExecResult | { result: ExecResult; started: boolean; interrupted: boolean }> {
    let interrupted = false;
    let timedOut = false;
    const stop = () => {
      if (interrupted) return;
      interrupted = true;
      void this.link.write(Uint8Array.of(CTRL_C)).catch(() => undefined);
    };
    this.running = { stop };
    const onAbort = () => stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted || this.stopRequested) stop();
    this.stopRequested = false;
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => ((timedOut = true), stop()), options.timeoutMs);
    const decoder = new TextDecoder();
    let stdout = '';
    // Before the runner's marker has come, output is held back (it is the runner's, not the script's);
    // without the marker none of it is the script's, so none of it is streamed.
    let pending = marker === undefined ? undefined : '';
    let started = marker === undefined;
    const emit = (text: string) => {
      if (pending !== undefined) {
        pending += text;
        if (pending.length < marker!.length) return;
        started = pending.startsWith(marker!);
        text = started ? pending.slice(marker!.length) : pending;
        pending = undefined;
      }
      stdout += text;
      if (text && started) options.onStdout?.(text);
    };
    try {
      // While the script runs there is no deadline; after Ctrl-C the device must answer promptly.
      await this.untilOrStopped(CTRL_D, () => interrupted, (chunk) => emit(decoder.decode(chunk, { stream: true })));
      emit(decoder.decode());
      if (pending) stdout += pending;
      let stderr = (await this.reader.until(Uint8Array.of(CTRL_D), { timeoutMs: this.answerMs })).toString('utf8');
      await this.reader.until('>', { timeoutMs: this.answerMs });
      if (marker === undefined) return { stdout, stderr, interrupted, timedOut, rawPaste };
      // The script was checked whole before it started, and prints the marker itself: after the
      // marker, all that comes is the script's.
      if (started) stderr = unwrapTraceback(stderr);
      return { result: { stdout, stderr, interrupted, timedOut, rawPaste }, started, interrupted };
    } catch (error) {
      throw this.silent(error, interrupted ? 'stop the script after Ctrl-C' : 'finish the script');
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      this.running = undefined;
    }
  }

  /** Stops the running script (Ctrl-C), or the one being sent as soon as it starts. */
  interrupt(): void {
    if (this.running) this.running.stop();
    else this.stopRequested = true;
  }

  /** Leaves the raw REPL for the normal one. */
  async exit(): Promise<void> {
    await this.link.write(Uint8Array.of(0x0d, 0x02));
  }

  dispose(): void {
    this.reader.dispose();
  }

  /** Waits for `marker`; once `stopping()` turns true the wait gets the answer deadline. */
  private async untilOrStopped(marker: number, stopping: () => boolean, onBytes: (b: Buffer) => void): Promise<void> {
    for (;;) {
      const stoppingNow = stopping();
      try {
        // Poll so a stop request starts the deadline; a running script may be silent for hours.
        await this.reader.until(Uint8Array.of(marker), { timeoutMs: stoppingNow ? this.answerMs : 250, onBytes });
        return;
      } catch (error) {
        if (!(error instanceof ReadTimeout) || stoppingNow) throw error;
      }
    }
  }

  /** Asks for raw-paste mode; true when the device is now waiting for a raw-paste transfer. */
  private async offerRawPaste(): Promise<boolean> {
    if (this.rawPaste !== false) {
      await this.link.write(Uint8Array.of(0x05, 0x41, CTRL_A));
      const first = await this.reader.take(1, { timeoutMs: this.answerMs }).catch((e: unknown) => {
        throw this.silent(e, 'answer the raw-paste request');
      });
      if (first[0] === 0x52 /* R */) {
        // "R\x01" offers raw-paste; "R\x00" declines (an event-driven REPL may drop the NUL).
        const second = await this.reader.take(1, { timeoutMs: 300 }).catch(() => Buffer.of(0));
        if (second[0] === 1) {
          this.rawPaste = true;
          return true;
        }
      } else {
        // Firmware without raw-paste takes Ctrl-A as "enter raw REPL" and prints the banner again
        // (its first byte, "r", was just read).
        await this.reader.until(RAW_BANNER.slice(1), { timeoutMs: this.answerMs }).catch((e: unknown) => {
          throw this.silent(e, 'return to the raw REPL after the raw-paste request');
        });
        await this.reader.until('>', { timeoutMs: this.answerMs });
      }
      this.rawPaste = false;
    }
    return false;
  }

  /**
   * Stores the script (after SCRIPT_PREFIX) on the device as indexed bytes pieces in `_s`, then
   * joined in `_c`, each checked against the length and byte sum the device reports; a damaged
   * piece is sent again.
   */
  private async stage(script: Buffer): Promise<void> {
    const bytes = Buffer.concat([Buffer.from(SCRIPT_PREFIX, 'latin1'), script]);
    const count = pieceCount(bytes.length);
    for (let index = 0; index < count; index++) {
      const piece = bytes.subarray(index * PIECE_BYTES, (index + 1) * PIECE_BYTES);
      // The first piece also frees what a script that raised left behind.
      const store = index === 0 ? `_c=None\n_s={0:${bytesLiteral(piece)}}` : `_s[${index}]=${bytesLiteral(piece)}`;
      await this.storeChecked(store, `_s[${index}]`, piece, `part ${index + 1} of ${count} of the script`);
    }
    await this.storeChecked(`_c=b''.join([_s[i] for i in range(${count})])`, '_c', bytes, 'the joined script');
  }

  /** Runs `store` (which sets `name` to `bytes`) until the device counts the bytes it was meant to get. */
  private async storeChecked(store: string, name: string, bytes: Buffer, what: string): Promise<void> {
    const expected = `${bytes.length} ${bytes.reduce((sum, byte) => sum + byte, 0)}`;
    const code = Buffer.from(`${store}\nprint(len(${name}),sum(${name}))\n`, 'latin1');
    let seen = '';
    for (let attempt = 1; ; attempt++) {
      const reply = await this.quickExec(code);
      if (reply && !reply.stderr && reply.stdout.trim() === expected) return;
      seen = reply ? ((reply.stderr || reply.stdout).trim().split(/\r?\n/).pop() ?? '') : 'nothing (the end of the piece was lost)';
      if (attempt === VERIFY_ATTEMPTS) {
        throw new ReplError(
          this.link.path,
          `the device on ${this.link.path} kept receiving ${what} damaged (${VERIFY_ATTEMPTS} attempts; ` +
            `expected it to count "${expected}", last it said ${JSON.stringify(seen)}) — the serial link loses bytes; check the cable and what loads the board`,
        );
      }
    }
  }

  /** A short staging script: sends it and reads its whole reply; undefined when it was lost. */
  private async quickExec(code: Buffer): Promise<{ stdout: string; stderr: string } | undefined> {
    if (!(await this.plainWrite(code, Math.min(this.answerMs, STAGE_OK_MS)))) return undefined;
    try {
      const stdout = (await this.reader.until(Uint8Array.of(CTRL_D), { timeoutMs: this.answerMs })).toString('latin1');
      const stderr = (await this.reader.until(Uint8Array.of(CTRL_D), { timeoutMs: this.answerMs })).toString('latin1');
      await this.reader.until('>', { timeoutMs: this.answerMs });
      return { stdout, stderr };
    } catch (error) {
      throw this.silent(error, 'store the script');
    }
  }

  /**
   * Plain raw mode: the script in paced chunks, Ctrl-D, and the device's "OK". False when nothing
   * came within `okWaitMs`: the Ctrl-D was lost with other bytes, and the device (still reading)
   * has been cleared with Ctrl-C. If the device did take the script after all, that is an error
   * unless `staging` (a staging script may run twice).
   */
  private async plainWrite(bytes: Buffer, okWaitMs = this.answerMs, staging = true): Promise<boolean> {
    for (let offset = 0; offset < bytes.length; offset += RAW_CHUNK_BYTES) {
      await this.link.write(bytes.subarray(offset, offset + RAW_CHUNK_BYTES));
      await sleep(RAW_CHUNK_PAUSE_MS);
    }
    await this.link.write(Uint8Array.of(CTRL_D));
    let ok: Buffer;
    try {
      ok = await this.reader.take(2, { timeoutMs: okWaitMs });
    } catch (error) {
      if (!(error instanceof ReadTimeout) || error.received.length > 0) throw this.silent(error, 'accept the script');
      await this.link.write(Uint8Array.of(CTRL_C));
      const said = await this.reader.settle(300, this.answerMs);
      if (!staging && said.includes('OK')) {
        throw new ReplError(this.link.path, `the device on ${this.link.path} took more than ${okWaitMs / 1000} s to accept the script and was stopped; it said ${JSON.stringify(said.subarray(-80).toString('latin1'))}`);
      }
      return false;
    }
    if (ok.toString('latin1') !== 'OK') {
      throw new ReplError(this.link.path, `the device on ${this.link.path} did not accept the script (it answered ${JSON.stringify(ok.toString('latin1'))} instead of "OK")`);
    }
    return true;
  }

  /** Raw-paste: the device grants a window of bytes and sends \x01 for each further window. */
  private async rawPasteWrite(bytes: Buffer): Promise<void> {
    const header = await this.reader.take(2, { timeoutMs: this.answerMs });
    const increment = header.readUInt16LE(0);
    let window = increment;
    let offset = 0;
    while (offset < bytes.length) {
      // Take flow-control bytes that have arrived; block for one when the window is used up.
      const flow = window === 0 ? await this.reader.take(1, { timeoutMs: this.answerMs }) : this.reader.takeAll();
      for (const byte of flow) {
        if (byte === CTRL_A) window += increment;
        else if (byte === CTRL_D) {
          // The device ended the transfer early (a compile-time failure follows).
          await this.link.write(Uint8Array.of(CTRL_D));
          return;
        }
      }
      const size = Math.min(window, bytes.length - offset);
      if (size > 0) {
        await this.link.write(bytes.subarray(offset, offset + size));
        offset += size;
        window -= size;
      }
    }
    await this.link.write(Uint8Array.of(CTRL_D));
    // The device acknowledges the end of data with \x04 (flow bytes may precede it).
    await this.reader.until(Uint8Array.of(CTRL_D), { timeoutMs: this.answerMs });
  }

  private silent(error: unknown, step: string): Error {
    if (error instanceof ReplError) return error;
    if (error instanceof ReadAborted) return new ReplError(this.link.path, `stopped while waiting for the device on ${this.link.path} to ${step}`);
    if (error instanceof LinkError) return new ReplError(this.link.path, `lost the device while waiting for it to ${step}: ${error.message} — reconnect the board and run again`);
    if (error instanceof LinkClosed) {
      return new ReplError(this.link.path, `lost the device while waiting for it to ${step}: ${error.reason} — reconnect the board and run again`);
    }
    if (!(error instanceof ReadTimeout)) return error instanceof Error ? error : new Error(String(error));
    const got = error.received.length > 0 ? `; it sent ${JSON.stringify(error.received.subarray(-80).toString('latin1'))}` : '; it sent nothing';
    return new ReplError(
      this.link.path,
      `the device on ${this.link.path} stopped answering: it did not ${step} within ${this.answerMs / 1000} s${got} — ` +
        'check that a MicroPython board is connected and running (press reset), and that no other program holds the port',
    );
  }
}
