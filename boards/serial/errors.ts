// Serial failures as values a person can act on: which port, what happened, what to try.
import type { BoundedRegex } from '../bounded-regex.js';

export class SerialPortError extends Error {
  constructor(
    readonly port: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Another client of this hub holds the port. */
export class PortBusyError extends SerialPortError {
  constructor(
    port: string,
    readonly holder: string,
  ) {
    super(port, `port ${port} busy, held by ${holder}; close that monitor first or read from it instead`);
  }
}

/** The port vanished (cable pulled, board reset into another USB identity, pty owner gone). */
export class PortDisconnectedError extends SerialPortError {
  constructor(port: string, detail?: string) {
    super(
      port,
      `port ${port} disconnected${detail ? ` (${detail})` : ''}; the hub re-opens it when it comes back — check the cable`,
    );
  }
}

/** The owner released the port, so nothing more will arrive for this reader. */
export class PortClosedError extends SerialPortError {
  constructor(port: string) {
    super(port, `port ${port} was closed by its owner`);
  }
}

export class PortOpenError extends SerialPortError {
  constructor(port: string, cause: string, hint: string) {
    super(port, `cannot open ${port}: ${cause}; ${hint}`);
  }
}

export class ExpectTimeoutError extends SerialPortError {
  constructor(
    port: string,
    readonly pattern: RegExp | BoundedRegex,
    readonly timeoutMs: number,
    readonly lastOutput: string,
  ) {
    const tail = lastOutput.length > 0 ? `; last output: ${JSON.stringify(lastOutput.slice(-200))}` : '; no output at all';
    super(port, `no match for ${pattern} on ${port} within ${timeoutMs} ms${tail}`);
  }
}

/** An OS error from opening a port, turned into the hint that usually fixes it. */
export function describeOpenFailure(port: string, error: unknown): PortOpenError {
  const text = error instanceof Error ? error.message : String(error);
  if (/ENOENT|No such file/i.test(text)) {
    return new PortOpenError(port, 'no such port', 'check the cable and run `boardbridge ports`');
  }
  if (/EACCES|Permission denied/i.test(text)) {
    return new PortOpenError(port, 'permission denied', 'add yourself to the dialout group (then log in again)');
  }
  if (/Cannot lock port|Resource temporarily unavailable|EBUSY/i.test(text)) {
    return new PortOpenError(port, 'in use by another program', 'close the Arduino IDE serial monitor or other terminal on it');
  }
  return new PortOpenError(port, text, 'check that the board is connected');
}
