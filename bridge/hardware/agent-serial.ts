// The agent's serial leases and cursors on the bridge's one hub, one set per session: the
// serial-monitor, serial-write and serial-expect operations (boards/operations.ts) read through
// them, so the agent reads on from where it stopped and is told what it missed.
import { randomUUID } from 'node:crypto';
import type { PortLease, PortReader, SerialHub } from '../../boards/index.js';
import { replRunsWrite } from '../../boards/micropython/repl-writes.js';
import type { AgentSerialPorts } from '../../boards/operation-context.js';

const OWNER = 'the agent (MCP serial tools)';

export class AgentSerial implements AgentSerialPorts {
  private readonly leases = new Map<string, PortLease>();
  private readonly cursors = new Map<string, PortReader>();

  constructor(private readonly hub: SerialHub) {}

  /** Opens the port for the agent, or reads along with whoever already holds it. */
  async reader(port: string, baud: number, cursor?: string): Promise<{ id: string; reader: PortReader }> {
    if (cursor) {
      const known = this.cursors.get(cursor);
      if (!known) throw new Error(`unknown cursor ${cursor}; omit it to start reading ${port} again`);
      return { id: cursor, reader: known };
    }
    await this.ensureOpen(port, baud);
    const reader = this.leases.get(port)?.reader('oldest') ?? this.hub.reader(port, 'oldest');
    const id = randomUUID().slice(0, 8);
    this.cursors.set(id, reader);
    return { id, reader };
  }

  /** Why writing `data` to `port` can run code on the board (a device change), or undefined. */
  runsCode(port: string, data: string): Promise<string | undefined> {
    return replRunsWrite(this.hub, port, data);
  }

  async write(port: string, baud: number, data: string): Promise<void> {
    await this.ensureOpen(port, baud);
    const lease = this.leases.get(port);
    if (!lease) throw new Error(`${port} is held by ${this.hub.holder(port)}; writing needs the port to itself`);
    await lease.write(data);
  }

  async close(): Promise<void> {
    await Promise.all([...this.leases.values()].map((l) => l.release()));
    this.leases.clear();
    this.cursors.clear();
  }

  private async ensureOpen(port: string, baud: number): Promise<void> {
    if (this.leases.has(port)) return;
    const holder = this.hub.holder(port);
    if (holder && holder !== OWNER) return; // someone else's monitor: read along through hub.reader
    this.leases.set(port, await this.hub.open(port, { baudRate: baud }, OWNER));
  }
}
