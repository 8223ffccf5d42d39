// The byte stream a MicroPython runner talks through. The bridge's serial hub (boards/serial/)
// owns real ports; this is the least the raw REPL and usbdbg clients need, so they run on the hub,
// on a tty opened directly, or on anything else that moves bytes.
import { SerialPort } from 'serialport';

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

/** Opens `path` directly with serialport (115200 8N1 unless told otherwise). */
export async function openSerialLink(path: string, baudRate = 115_200): Promise<ByteLink> {
  const port = new SerialPort({ path, baudRate, autoOpen: false });
  await new Promise<void>((resolve, reject) =>
    port.open((error) =>
      error
        ? reject(new LinkError(path, `cannot open ${path}: ${error.message} — check the port name and that no other program (OpenMV IDE, a serial monitor) holds it`))
        : resolve(),
    ),
  );
  const listeners = new Set<(chunk: Uint8Array) => void>();
  const closeListeners = new Set<(reason: string) => void>();
  port.on('data', (chunk: Buffer) => {
    for (const listener of listeners) listener(chunk);
  });
  // Unplugging raises 'error' and 'close'; without a listener Node would crash.
  port.on('error', () => undefined);
  port.on('close', (error: (Error & { disconnected?: boolean }) | null) => {
    const reason = error?.disconnected ? `${path} was unplugged` : `${path} was closed`;
    for (const listener of closeListeners) listener(reason);
    closeListeners.clear();
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
      listeners.clear();
      if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    },
  };
}
