// The byte stream a MicroPython runner talks through. The bridge's serial hub (boards/serial/)
// owns real ports; this is the least the raw REPL and usbdbg clients need, so they run on the hub,
// on a tty opened directly, or on anything else that moves bytes.
import { existsSync } from 'node:fs';
import type { SerialPort } from 'serialport';
import { loadSerialPort } from '../packages.js';
import { bindingPath } from '../serial/port-name.js';

export interface ByteLink {
  /** The port as the user named it, for error messages. */
  readonly path: string;
  write(bytes: Uint8Array): Promise<void>;
  /** Calls `listener` with every chunk received from now on; returns the unsubscribe function. */
  onData(listener: (chunk: Uint8Array) => void): () => void;
  /** Calls `listener` once when the port goes away (unplugged, or closed); returns the unsubscribe function. */
  onClose(listener: (reason: string) => void): () => void;
  /** OpenMV cameras switch from the REPL to usbdbg when the host sets a magic baud rate. */
  setBaudRate?(baudRate: number): Promise<void>;
  /** Gives the port back; safe to call twice. */
  close(): Promise<void>;
}

export class LinkError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'LinkError';
  }
}

// serialport takes an exclusive lock on open; a holder that is just closing the port can keep it
// for a moment, so a locked port is tried again briefly before it counts as held.
const LOCK_RETRY_MS = 1000;

async function openPort(path: string, baudRate: number): Promise<SerialPort> {
  const deadline = Date.now() + LOCK_RETRY_MS;
  const Port = await loadSerialPort();
  for (;;) {
    const port = new Port({ path: bindingPath(path), baudRate, autoOpen: false });
    const error = await new Promise<Error | null>((resolve) => port.open(resolve));
    if (!error) return port;
    if (!/Cannot lock port/.test(error.message) || Date.now() > deadline) {
      throw new LinkError(path, `cannot open ${path}: ${error.message} — check the port name and that no other program (OpenMV IDE, a serial monitor) holds it`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How often an open link checks that its device node is still there. */
const PRESENCE_CHECK_MS = 250;

/** Opens `path` directly with serialport (115200 8N1 unless told otherwise). */
export async function openSerialLink(path: string, baudRate = 115_200): Promise<ByteLink> {
  const port = await openPort(path, baudRate);
  const listeners = new Set<(chunk: Uint8Array) => void>();
  const closeListeners = new Set<(reason: string) => void>();
  port.on('data', (chunk: Buffer) => {
    for (const listener of listeners) listener(chunk);
  });
  // Unplugging raises 'error' and 'close'; without a listener Node would crash.
  port.on('error', () => undefined);
  const gone = (reason: string) => {
    clearInterval(presence);
    for (const listener of closeListeners) listener(reason);
    closeListeners.clear();
  };
  // The device node itself: an unplugged USB port's node goes, and so does an exited emulator's
  // pty (its /dev/pts entry, or the link socat made). serialport sometimes reports neither 'close'
  // nor 'end' for that (the read side just stops), so a wait for a reply would never end.
  // Only a node that is there now (a file path on a POSIX system, not a Windows COM name).
  const watched = path.startsWith('/') && existsSync(path);
  const presence = watched
    ? setInterval(() => {
        if (existsSync(path)) return;
        gone(`${path} was unplugged`);
        if (port.isOpen) port.close(() => undefined);
      }, PRESENCE_CHECK_MS)
    : undefined;
  presence?.unref();
  port.on('close', (error: (Error & { disconnected?: boolean }) | null) => gone(error?.disconnected ? `${path} was unplugged` : `${path} was closed`));
  // A pty whose other side went away (an emulator that exited) can read end-of-file instead of
  // failing: serialport then ends the stream without closing the port, and a wait would never end.
  port.on('end', () => {
    gone(`${path} was unplugged`);
    if (port.isOpen) port.close(() => undefined);
  });
  let closed = false;
  return {
    path,
    write: (bytes) =>
      new Promise<void>((resolve, reject) => {
        if (!port.isOpen) {
          reject(new LinkError(path, `${path} is closed (unplugged?)`));
          return;
        }
        port.write(Buffer.from(bytes), (error) => {
          if (error) reject(new LinkError(path, `writing to ${path} failed: ${error.message}`));
          else port.drain(() => resolve());
        });
      }),
    onData(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    setBaudRate: (rate) =>
      new Promise<void>((resolve, reject) =>
        port.update({ baudRate: rate }, (error) =>
          error ? reject(new LinkError(path, `cannot set ${path} to ${rate} baud: ${error.message}`)) : resolve(),
        ),
      ),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(presence);
      listeners.clear();
      if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    },
  };
}
