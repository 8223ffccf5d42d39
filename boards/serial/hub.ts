// The one serial hub of a running bridge. The MCP server, the terminal board commands and the
// CLI share it, so each port has one owner, any number of readers, and an upload pauses a
// monitor instead of failing on a busy port (DESIGN.md, "Hardware tools reach the agent three ways").
import { existsSync, realpathSync } from 'node:fs';
import { windowsPortName } from './port-name.js';
import { PortConnection } from './connection.js';
import { describeOpenFailure, PortBusyError, SerialPortError } from './errors.js';
import { installedBoardIdentifications } from './installed-boards.js';
import { PortEntry } from './port-entry.js';
import { PortLease } from './port-lease.js';
import { portSettings, type PortSettings } from './port-settings.js';
import { listPorts, type BoardIdentification, type PortListing } from './port-list.js';
import { PortReader } from './reader.js';

export interface SerialHubOptions {
  /**
   * Boards to recognise by USB VID/PID in `listPorts()`. When absent, the installed platforms'
   * boards.txt files are read on the first `listPorts()`.
   */
  boards?: BoardIdentification[];
  /** Ring buffer per open port; memory per port stays at this size under any flood. */
  bufferBytes?: number;
  /** How often an unplugged port is looked for. */
  reconnectIntervalMs?: number;
}

const DEFAULT_BUFFER_BYTES = 1024 * 1024;

export class SerialHub {
  private readonly entries = new Map<string, PortEntry>();
  private readonly pauses = new Map<string, { count: number; by: string }>();
  private readonly reconnecting = new Set<PortEntry>();
  /** Each path a port was opened or asked for by → the device it named then (by-id links vanish on unplug). */
  private readonly aliases = new Map<string, string>();
  private readonly keys = new WeakMap<PortEntry, string>();
  /** Devices the MicroPython tools (run-script, camera-info, stop-script) have talked to: a REPL listens there. */
  private readonly repls = new Set<string>();
  private boards: Promise<BoardIdentification[]> | undefined;
  private listing: Promise<PortListing> | undefined;
  private readonly bufferBytes: number;
  private readonly reconnectIntervalMs: number;

  constructor(options: SerialHubOptions = {}) {
    this.boards = options.boards ? Promise.resolve(options.boards) : undefined;
    this.bufferBytes = options.bufferBytes ?? DEFAULT_BUFFER_BYTES;
    this.reconnectIntervalMs = options.reconnectIntervalMs ?? 250;
  }

  /** Replaces the board table once the installed platforms are known. */
  setBoards(boards: BoardIdentification[]): void {
    this.boards = Promise.resolve(boards);
  }

  /**
   * One port listing at a time (it runs udevadm): requests that come while one is under way
   * share its answer, so a flood of requests costs one listing, not one each.
   */
  listPorts(): Promise<PortListing> {
    this.listing ??= (async () => {
      // Unreadable platforms only cost the board names, never the port list.
      this.boards ??= installedBoardIdentifications().catch(() => []);
      return listPorts(await this.boards);
    })().finally(() => (this.listing = undefined));
    return this.listing;
  }

  /** Marks `path` as a port a MicroPython REPL listens on: text written there can run as code. */
  markRepl(path: string): void {
    this.repls.add(this.keyOf(path));
  }

  /** Whether a MicroPython tool of this bridge has talked to the device `path` names. */
  knownRepl(path: string): boolean {
    return this.repls.has(this.keyOf(path));
  }

  /** Who holds `path`, if anyone. */
  holder(path: string): string | undefined {
    return this.entries.get(this.keyOf(path))?.owner;
  }

  // One device, one entry: /dev/serial/by-id/usb-Arduino…, /dev/ttyACM0 and any other link
  // to it are the same port. A link that no longer resolves (board unplugged) keeps the
  // device it named when it was last seen.
  private keyOf(path: string): string {
    if (process.platform === 'win32') return windowsPortName(path) ?? path;
    let key: string;
    try {
      key = realpathSync(path);
    } catch {
      return this.aliases.get(path) ?? path;
    }
    this.aliases.set(path, key);
    return key;
  }

  /**
   * Takes ownership of `path` and opens it. The same owner gets its existing lease back; anyone
   * else gets PortBusyError naming the holder (they can still read through `reader()`).
   * A port paused for an upload is opened when the upload resumes it.
   */
  async open(path: string, settings: Partial<PortSettings>, owner: string): Promise<PortLease> {
    const checked = portSettings(settings);
    const key = this.keyOf(path);
    const existing = this.entries.get(key);
    if (existing) {
      if (existing.owner !== owner) throw new PortBusyError(existing.path === path ? path : `${path} (the same device as ${existing.path})`, existing.owner);
      return this.lease(existing);
    }
    const entry = new PortEntry(path, checked, owner, this.bufferBytes);
    this.entries.set(key, entry);
    this.keys.set(entry, key);
    if (this.pauses.has(key)) {
      entry.state = 'paused';
      return this.lease(entry);
    }
    try {
      await this.openDevice(entry);
    } catch (error) {
      this.entries.delete(key);
      throw describeOpenFailure(path, error);
    }
    return this.lease(entry);
  }

  /** A reader on a port someone already holds, without taking ownership. */
  reader(path: string, from: 'now' | 'oldest' = 'now'): PortReader {
    const entry = this.entries.get(this.keyOf(path));
    if (!entry) {
      throw new SerialPortError(path, `port ${path} is not open in this bridge; open it with a monitor first`);
    }
    return new PortReader(entry, from);
  }

  /**
   * Closes the OS handle of `path` (if held) so a tool such as avrdude can use the port; readers
   * and the owner keep their places. Pauses nest; the port re-opens after the last `resume`.
   */
  async pause(path: string, by: string): Promise<void> {
    const key = this.keyOf(path);
    const pause = this.pauses.get(key);
    if (pause) {
      pause.count++;
      return;
    }
    this.pauses.set(key, { count: 1, by });
    const entry = this.entries.get(key);
    if (!entry || entry.state === 'released') return;
    this.stopReconnecting(entry);
    entry.state = 'paused';
    await this.closeDevice(entry);
    entry.notify();
  }

  async resume(path: string): Promise<void> {
    const key = this.keyOf(path);
    const pause = this.pauses.get(key);
    if (!pause) return;
    if (--pause.count > 0) return;
    this.pauses.delete(key);
    const entry = this.entries.get(key);
    if (!entry || entry.state !== 'paused') return;
    try {
      await this.openDevice(entry);
    } catch {
      // The board may still be re-enumerating after the upload: wait for it like a re-plug.
      this.markUnplugged(entry, 'did not come back after the upload');
    }
  }

  /** Runs `task` with `path` paused, resuming it afterwards whatever happens. */
  async whilePaused<T>(path: string, by: string, task: () => Promise<T>): Promise<T> {
    await this.pause(path, by);
    try {
      return await task();
    } finally {
      await this.resume(path);
    }
  }

  /** Why `path` is paused, if it is. */
  pausedBy(path: string): string | undefined {
    return this.pauses.get(this.keyOf(path))?.by;
  }

  /** Releases every port; the hub can be used again afterwards. */
  async close(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => this.release(entry)));
  }

  private lease(entry: PortEntry): PortLease {
    return new PortLease(entry, (released) => this.release(released));
  }

  private async release(entry: PortEntry): Promise<void> {
    const key = this.keys.get(entry);
    if (key !== undefined && this.entries.get(key) === entry) this.entries.delete(key);
    if (entry.state === 'released') return;
    this.stopReconnecting(entry);
    entry.state = 'released';
    await this.closeDevice(entry);
    entry.notify();
  }

  private async openDevice(entry: PortEntry): Promise<void> {
    const device = await PortConnection.open(entry.path, entry.settings, {
      data: (chunk) => entry.received(chunk),
      lost: (error) => {
        if (entry.device !== device) return;
        entry.device = undefined;
        if (entry.state === 'open') this.markUnplugged(entry, error.message);
      },
    });
    if (entry.state === 'released' || this.pauses.has(this.keyOf(entry.path))) {
      // Released or paused while the open was under way: give the port straight back.
      await device.close();
      return;
    }
    entry.device = device;
    entry.state = 'open';
    this.rekey(entry);
    entry.notify();
  }

  // A board that came back under another name (by-id link now → ttyACM1) is found by that name too.
  private rekey(entry: PortEntry): void {
    const before = this.keys.get(entry);
    const now = this.keyOf(entry.path);
    if (before === undefined || before === now || this.entries.get(before) !== entry || this.entries.has(now)) return;
    this.entries.delete(before);
    this.entries.set(now, entry);
    this.keys.set(entry, now);
  }

  private async closeDevice(entry: PortEntry): Promise<void> {
    const device = entry.device;
    entry.device = undefined;
    await device?.close();
  }

  private markUnplugged(entry: PortEntry, detail: string): void {
    entry.state = 'unplugged';
    entry.disconnects++;
    entry.lastDisconnect = detail;
    entry.notify();
    this.stopReconnecting(entry);
    entry.reconnectTimer = setInterval(() => void this.tryReconnect(entry), this.reconnectIntervalMs);
    entry.reconnectTimer.unref();
  }

  private async tryReconnect(entry: PortEntry): Promise<void> {
    if (entry.state !== 'unplugged' || this.reconnecting.has(entry) || !existsSync(entry.path)) return;
    this.reconnecting.add(entry);
    try {
      await this.openDevice(entry);
      this.stopReconnecting(entry);
    } catch {
      // Still enumerating or held elsewhere: the next tick tries again.
    } finally {
      this.reconnecting.delete(entry);
    }
  }

  private stopReconnecting(entry: PortEntry): void {
    if (entry.reconnectTimer) clearInterval(entry.reconnectTimer);
    entry.reconnectTimer = undefined;
  }
}
