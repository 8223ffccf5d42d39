// One open OS handle on a port, through serialport's native binding directly rather than its
// stream: a plain read loop into the hub's ring buffer keeps up with `cat` on a flooded pty,
// where the stream layer's small pooled reads fell to about half of that (bench/serial-hub.ts).
import { SerialPort } from 'serialport';
import type { PortSettings } from './port-settings.js';

type BindingPort = Awaited<ReturnType<(typeof SerialPort)['binding']['open']>>;

const READ_BYTES = 64 * 1024;

export interface ConnectionEvents {
  /** Bytes as read; the buffer is reused afterwards, so copy what you keep. */
  data(chunk: Buffer): void;
  /** The OS handle failed (unplug); not called after `close()`. */
  lost(error: Error): void;
}

export class PortConnection {
  private closing = false;
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly port: BindingPort,
    private readonly events: ConnectionEvents,
  ) {}

  static async open(path: string, settings: PortSettings, events: ConnectionEvents): Promise<PortConnection> {
    const { baudRate, dataBits, parity, stopBits, dtr, rts } = settings;
    const port = await SerialPort.binding.open({ path, baudRate, dataBits, parity, stopBits, lock: true });
    const connection = new PortConnection(port, events);
    if (dtr !== undefined || rts !== undefined) {
      // A pty has no modem lines (ENOTTY); a real adapter honours them.
      await port.set({ dtr: dtr ?? true, rts: rts ?? true }).catch(() => undefined);
    }
    void connection.readLoop();
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
    if (this.port.isOpen) await this.port.close().catch(() => undefined);
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
