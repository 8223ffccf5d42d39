// What the owner of a port holds: writes, modem lines, readers, and the release.
import { PortDisconnectedError, SerialPortError } from './errors.js';
import type { PortEntry, PortState } from './port-entry.js';
import { PortReader } from './reader.js';

export interface ModemSignals {
  dtr?: boolean;
  rts?: boolean;
  brk?: boolean;
}

export class PortLease {
  constructor(
    private readonly entry: PortEntry,
    private readonly releaseEntry: (entry: PortEntry) => Promise<void>,
  ) {}

  get path(): string {
    return this.entry.path;
  }

  get owner(): string {
    return this.entry.owner;
  }

  /** `open`, `paused` (an upload has it), `unplugged` (waiting for it to come back) or `released`. */
  get state(): PortState {
    return this.entry.state;
  }

  reader(from: 'now' | 'oldest' = 'now'): PortReader {
    return new PortReader(this.entry, from);
  }

  async write(data: string | Uint8Array): Promise<void> {
    const device = this.usableDevice('write to');
    try {
      await device.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data));
    } catch (error) {
      throw new SerialPortError(this.path, `write to ${this.path} failed: ${(error as Error).message}`);
    }
  }

  /** Sets DTR/RTS/BREAK; a pty has no modem lines, so this fails there with a clear message. */
  async setSignals(signals: ModemSignals): Promise<void> {
    const device = this.usableDevice('set modem lines on');
    try {
      await device.set(signals);
    } catch (error) {
      const lines = Object.keys(signals).join('/');
      throw new SerialPortError(this.path, `cannot set ${lines} on ${this.path}: ${(error as Error).message}`);
    }
  }

  /** Changes the baud rate of the open port; it also applies after a pause or re-plug. */
  async setBaudRate(baudRate: number): Promise<void> {
    this.entry.settings = { ...this.entry.settings, baudRate };
    const device = this.entry.device;
    if (device?.isOpen) await device.update(baudRate);
  }

  release(): Promise<void> {
    return this.releaseEntry(this.entry);
  }

  private usableDevice(action: string): NonNullable<PortEntry['device']> {
    const { device, state, path } = this.entry;
    if (state === 'paused') {
      throw new SerialPortError(path, `cannot ${action} ${path}: paused while an upload runs; try again when it finishes`);
    }
    if (state === 'unplugged') throw new PortDisconnectedError(path, this.entry.lastDisconnect);
    if (state === 'released' || !device?.isOpen) {
      throw new SerialPortError(path, `cannot ${action} ${path}: the port is not open`);
    }
    return device;
  }
}
