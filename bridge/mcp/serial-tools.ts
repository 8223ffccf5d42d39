// serial_monitor, serial_write and serial_expect: the agent's view of a serial
// port on the bridge's one hub. Reads go through cursors, so the agent reads on
// from where it stopped and is told what it missed.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { PortLease, PortReader, SerialHub } from '../../boards/index.js';
import { defineTool, MAX_TOOL_TEXT, operationTool, type HardwareTool } from './hardware-tool.js';
import { BoundedRegex } from '../../boards/bounded-regex.js';
import { replRunsWrite } from '../../boards/micropython/repl-writes.js';
import { operationOfTool } from '../../boards/operations.js';

const OWNER = 'the agent (MCP serial tools)';

export class AgentSerial {
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

const port = z.string().min(1).describe('serial port, e.g. /dev/ttyACM0');
const baud = z.number().int().positive().default(9600).describe('baud rate (default 9600)');

export function serialTools(serial: AgentSerial): HardwareTool[] {
  return [
    defineTool({
      ...operationTool('serial_monitor'),
      title: 'Read the serial port',
      description: 'Read what the board printed. Returns text since the cursor (or everything buffered, without one) and a cursor to read on from. Waits up to waitMs for data.',
      input: {
        port,
        baud,
        cursor: z.string().optional().describe('cursor from the previous call'),
        waitMs: z.number().int().min(0).max(30_000).default(2000),
      },
      run: async (i, signal) => {
        const { id, reader } = await serial.reader(i.port, i.baud, i.cursor);
        const waited = reader.pending === 0 && i.waitMs > 0 ? await reader.next(AbortSignal.any([signal, AbortSignal.timeout(i.waitMs)])).catch(() => undefined) : undefined;
        const rest = reader.read(MAX_TOOL_TEXT);
        const missed = (waited?.missed ?? 0) + rest.missed;
        const text = Buffer.concat([waited?.data ?? Buffer.alloc(0), rest.data]).toString('utf8');
        const note = missed ? `[${missed} bytes were missed before this: the port talked faster than it was read]\n` : '';
        return { text: `${note}${text || '(nothing new)'}\n[cursor ${id}]` };
      },
    }),
    defineTool({
      ...operationTool('serial_write'),
      title: 'Write to the serial port',
      description: 'Send text to the board, with an optional line ending. Bytes that a MicroPython REPL would run (Ctrl-A to Ctrl-E, or any text to a port known as a MicroPython board) change the device: the person is asked first.',
      input: { port, baud, data: z.string(), lineEnding: z.enum(['none', 'lf', 'crlf']).default('lf') },
      consentQuestion: async (i) => {
        const why = await serial.runsCode(i.port, i.data);
        if (!why) return undefined;
        return { question: operationOfTool('serial_write')!.question!([i.port, sentText(i.data), why]), kind: 'device' };
      },
      run: async (i) => {
        const ending = i.lineEnding === 'lf' ? '\n' : i.lineEnding === 'crlf' ? '\r\n' : '';
        await serial.write(i.port, i.baud, i.data + ending);
        return { text: `sent ${Buffer.byteLength(i.data + ending)} bytes to ${i.port}` };
      },
    }),
    defineTool({
      ...operationTool('serial_expect'),
      title: 'Wait for serial output',
      description: 'Wait until the board prints text matching a regular expression (from the start of the buffered output, or from a cursor), or time out.',
      input: {
        port,
        baud,
        pattern: z.string().min(1).describe('JavaScript regular expression'),
        timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
        cursor: z.string().optional(),
      },
      run: async (i, signal) => {
        let pattern: BoundedRegex;
        try {
          pattern = new BoundedRegex(i.pattern);
        } catch (error) {
          return { text: `invalid pattern ${i.pattern}: ${(error as Error).message}`, isError: true };
        }
        const { id, reader } = await serial.reader(i.port, i.baud, i.cursor);
        try {
          const found = await reader.expect(pattern, { timeoutMs: i.timeoutMs, signal });
          return { text: `matched "${found.match[0]}"\n${found.text.slice(-2000)}\n[cursor ${id}]` };
        } catch (error) {
          return { text: `${(error as Error).message}\n[cursor ${id}]`, isError: true };
        }
      },
    }),
  ];
}

// What is sent, as the person is shown it: escaped (no control byte reaches their terminal) and bounded.
function sentText(data: string): string {
  const shown = JSON.stringify(data.length > 160 ? data.slice(0, 160) : data);
  return `${shown}${data.length > 160 ? '…' : ''} (${Buffer.byteLength(data)} bytes)`;
}
