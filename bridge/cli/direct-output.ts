// The output of a command that prints once and ends (`context`): written to the file descriptor
// itself, synchronously, not through process.stdout. The stream costs a start the modules it is
// made of (a pipe's: net, streams, the pipe binding; 7-8 ms of a stored context on a pipe), and
// it may still hold the output when the process ends; a synchronous write has given all of it to
// the reader, or to the pipe's buffer, by the time it returns.
import { writeSync } from 'node:fs';

/** Where a write that finds the pipe full waits for its reader (Atomics.wait needs shared memory). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `text` to `fd` before it returns. A descriptor left non-blocking by whoever
 * opened it, whose pipe is full, is written again once its reader has had a moment (1 ms, growing
 * to 50). Returns false, having written what it could, when the reader has gone (EPIPE: `| head`),
 * as a program killed by SIGPIPE would stop.
 */
export function writeAll(fd: number, text: string): boolean {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  let waits = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset);
      waits = 0;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return false;
      if (code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, Math.min(50, 1 + waits++));
    }
  }
  return true;
}
