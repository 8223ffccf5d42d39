// MicroPython's raw REPL, as a host drives it: Ctrl-A enters it, a script goes in (raw-paste mode
// with the device's flow control when it offers it, else plain raw mode in paced chunks), Ctrl-D
// runs it, and the reply is `OK`, stdout up to \x04, the traceback up to \x04, then `>`.
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
    const rawPaste = await this.sendScript(bytes).catch((error: unknown) => {
      throw this.silent(error, 'take the script');
    });
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
    try {
      // While the script runs there is no deadline; after Ctrl-C the device must answer promptly.
      await this.untilOrStopped(CTRL_D, () => interrupted, (chunk) => {
        const text = decoder.decode(chunk, { stream: true });
        stdout += text;
        if (text) options.onStdout?.(text);
      });
      const tail = decoder.decode();
      stdout += tail;
      if (tail) options.onStdout?.(tail);
      const stderr = (await this.reader.until(Uint8Array.of(CTRL_D), { timeoutMs: this.answerMs })).toString('utf8');
      await this.reader.until('>', { timeoutMs: this.answerMs });
      return { stdout, stderr, interrupted, timedOut, rawPaste };
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

  /** Sends the script and its Ctrl-D; returns whether raw-paste mode carried it. */
  private async sendScript(bytes: Buffer): Promise<boolean> {
    if (this.rawPaste !== false) {
      await this.link.write(Uint8Array.of(0x05, 0x41, CTRL_A));
      const first = await this.reader.take(1, { timeoutMs: this.answerMs }).catch((e: unknown) => {
        throw this.silent(e, 'answer the raw-paste request');
      });
      if (first[0] === 0x52 /* R */) {
        // "R\x01" offers raw-paste; "R\x00" declines (an event-driven REPL may drop the NUL).
        const second = await this.reader.take(1, { timeoutMs: 300 }).catch(() => Buffer.of(0));
        if (second[0] === 1) {
          await this.rawPasteWrite(bytes);
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
    for (let offset = 0; offset < bytes.length; offset += RAW_CHUNK_BYTES) {
      await this.link.write(bytes.subarray(offset, offset + RAW_CHUNK_BYTES));
      await sleep(RAW_CHUNK_PAUSE_MS);
    }
    await this.link.write(Uint8Array.of(CTRL_D));
    const ok = await this.reader.take(2, { timeoutMs: this.answerMs }).catch((e: unknown) => {
      throw this.silent(e, 'accept the script');
    });
    if (ok.toString('latin1') !== 'OK') {
      throw new ReplError(this.link.path, `the device on ${this.link.path} did not accept the script (it answered ${JSON.stringify(ok.toString('latin1'))} instead of "OK")`);
    }
    return false;
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
