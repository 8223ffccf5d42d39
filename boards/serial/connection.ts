// One open OS handle on a port, through serialport's native binding directly rather than its
// stream. Bytes come in through a tty read stream on a second, read-only descriptor when
// the device is a tty: libuv reads it in the event loop as soon as it is readable, where
// the binding's reads each take a thread-pool round trip (about 40% more throughput on a
// flooded pty, bench/serial-hub.ts). Otherwise a plain read loop on the binding. Writes,
// line settings and the exclusive lock stay on the binding's descriptor.
import { closeSync, constants, openSync } from 'node:fs';
import tty from 'node:tty';
import type { SerialPort } from 'serialport';
import { loadSerialPort } from '../packages.js';
import { bindingPath } from './port-name.js';
import type { PortSettings } from './port-settings.js';

type BindingPort = Awaited<ReturnType<(typeof SerialPort)['binding']['open']>>;

const READ_BYTES = 64 * 1024;

export interface ConnectionEvents {
  /** Bytes as read; the buffer is reused afterwards, so copy what you keep. */
  data(chunk: Buffer): void;
  /** The OS handle failed (unplug); not called after `close()`. */
  lost(error: Error): void;
}

interface TtyReader {
  stream: tty.ReadStream;
  /** Our descriptor when libuv read from a reopened one of its own (a pty slave); it is ours to close. */
  ownFd?: number;
}

export class PortConnection {
  private closing = false;
  private writes: Promise<void> = Promise.resolve();
  private reader?: TtyReader;

  private constructor(
    private readonly port: BindingPort,
    private readonly events: ConnectionEvents,
  ) {}

  static async open(path: string, settings: PortSettings, events: ConnectionEvents): Promise<PortConnection> {
    const { baudRate, dataBits, parity, stopBits, dtr, rts } = settings;
    const port = await (await loadSerialPort()).binding.open({ path: bindingPath(path), baudRate, dataBits, parity, stopBits, lock: true });
    const connection = new PortConnection(port, events);
    if (dtr !== undefined || rts !== undefined) {
      // A pty has no modem lines (ENOTTY); a real adapter honours them.
      await port.set({ dtr: dtr ?? true, rts: rts ?? true }).catch(() => undefined);
    }
    connection.startReading(path);
    return connection;
  }

  get isOpen(): boolean {
    return this.port.isOpen && !this.closing;
  }

  /** Writes in order: the binding allows one write at a time. */
  write(data: Buffer): Promise<void> {
    const next = this.writes.then(() => this.port.write(data)).then(() => this.port.drain());
    this.writes = next.catch(() => undefined);
    return next;
  }

  set(signals: { dtr?: boolean; rts?: boolean; brk?: boolean }): Promise<void> {
    return this.port.set(signals);
  }

  update(baudRate: number): Promise<void> {
    return this.port.update({ baudRate });
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.closeReader();
    if (this.port.isOpen) await this.port.close().catch(() => undefined);
  }

  private startReading(path: string): void {
    const reader = openTtyReader(path);
    if (!reader) {
      void this.readLoop();
      return;
    }
    this.reader = reader;
    reader.stream.on('data', (chunk: Buffer) => {
      if (!this.closing) this.events.data(chunk);
    });
    reader.stream.once('error', (error: Error) => void this.fail(error));
    reader.stream.once('end', () => void this.fail(new Error(`${path} closed (end of file)`)));
  }

  private async fail(error: Error): Promise<void> {
    if (this.closing) return;
    await this.close();
    this.events.lost(error);
  }

  private closeReader(): void {
    const reader = this.reader;
    this.reader = undefined;
    if (!reader) return;
    reader.stream.removeAllListeners('data');
    reader.stream.on('error', () => undefined);
    reader.stream.destroy();
    if (reader.ownFd !== undefined) {
      try {
        closeSync(reader.ownFd);
      } catch {
        // already closed
      }
    }
  }

  private async readLoop(): Promise<void> {
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    while (!this.closing) {
      try {
        const { bytesRead } = await this.port.read(buffer, 0, buffer.length);
        this.events.data(buffer.subarray(0, bytesRead));
      } catch (error) {
        if (this.closing || (error as { canceled?: boolean }).canceled) return;
        this.closing = true;
        if (this.port.isOpen) await this.port.close().catch(() => undefined);
        this.events.lost(error as Error);
        return;
      }
    }
  }
}

/** A tty read stream on a read-only descriptor of `path`, or undefined to read through the binding. */
function openTtyReader(path: string): TtyReader | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!tty.isatty(fd)) {
      closeSync(fd);
      return undefined;
    }
    const stream = new tty.ReadStream(fd);
    // libuv reopens a pty slave on a new descriptor and leaves ours open; a device it reads as given closes with the stream.
    const handleFd = (stream as unknown as { _handle?: { fd?: number } })._handle?.fd;
    return { stream, ownFd: handleFd === fd ? undefined : fd };
  } catch {
    try {
      closeSync(fd);
    } catch {
      // the stream took it
    }
    return undefined;
  }
}
