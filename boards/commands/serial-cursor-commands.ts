// serial-monitor, serial-write and serial-expect: an agent's view of a serial port on the
// session's one hub. Reads go through the session's cursors (OperationContext.serial), so the
// agent reads on from where it stopped and is told what it missed.
import { z } from 'zod';
import { BoundedRegex } from '../bounded-regex.js';
import type { CommandIo, Outcome } from '../command.js';
import type { AgentSerialPorts, OperationContext } from '../operation-context.js';
import type { serialExpectInput, serialMonitorInput, serialWriteInput } from '../operation-inputs.js';

/** What one read returns at most: a model's context, never megabytes of serial noise. */
const READ_LIMIT = 16 * 1024;

function cursors(deps: OperationContext): AgentSerialPorts {
  if (!deps.serial) throw new Error('this face has no serial cursors; use boardbridge monitor --port P');
  return deps.serial;
}

export interface SerialReadData {
  cursor: string;
  text: string;
  missed: number;
}

export async function serialMonitorRun(i: z.output<z.ZodObject<typeof serialMonitorInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<SerialReadData>> {
  const { id, reader } = await cursors(deps).reader(i.port, i.baud, i.cursor);
  const waited = reader.pending === 0 && i.waitMs > 0 ? await reader.next(AbortSignal.any([io.signal, AbortSignal.timeout(i.waitMs)])).catch(() => undefined) : undefined;
  const rest = reader.read(READ_LIMIT);
  const missed = (waited?.missed ?? 0) + rest.missed;
  const text = Buffer.concat([waited?.data ?? Buffer.alloc(0), rest.data]).toString('utf8');
  const note = missed ? `[${missed} bytes were missed before this: the port talked faster than it was read]\n` : '';
  io.write(`${note}${text || '(nothing new)'}\n[cursor ${id}]`);
  return { exitCode: 0, data: { cursor: id, text, missed } };
}

/** Why this write can run code on the board (then it is a device change), or undefined. */
export function serialWriteRunsCode(i: z.output<z.ZodObject<typeof serialWriteInput>>, deps: OperationContext): Promise<string | undefined> {
  return cursors(deps).runsCode(i.port, i.data);
}

export async function serialWriteRun(i: z.output<z.ZodObject<typeof serialWriteInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<{ port: string; bytes: number }>> {
  const ending = i.lineEnding === 'lf' ? '\n' : i.lineEnding === 'crlf' ? '\r\n' : '';
  await cursors(deps).write(i.port, i.baud, i.data + ending);
  const bytes = Buffer.byteLength(i.data + ending);
  io.write(`sent ${bytes} bytes to ${i.port}`);
  return { exitCode: 0, data: { port: i.port, bytes } };
}

/** What is sent, as the person is shown it: escaped (no control byte reaches their terminal) and bounded. */
export function sentText(data: string): string {
  const shown = JSON.stringify(data.length > 160 ? data.slice(0, 160) : data);
  return `${shown}${data.length > 160 ? '…' : ''} (${Buffer.byteLength(data)} bytes)`;
}

export async function serialExpectRun(i: z.output<z.ZodObject<typeof serialExpectInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<{ cursor?: string; matched: boolean; match?: string }>> {
  let pattern: BoundedRegex;
  try {
    pattern = new BoundedRegex(i.pattern);
  } catch (error) {
    io.write(`invalid pattern ${i.pattern}: ${(error as Error).message}`);
    return { exitCode: 1, data: { matched: false } };
  }
  const { id, reader } = await cursors(deps).reader(i.port, i.baud, i.cursor);
  try {
    const found = await reader.expect(pattern, { timeoutMs: i.timeoutMs, signal: io.signal });
    io.write(`matched "${found.match[0]}"\n${found.text.slice(-2000)}\n[cursor ${id}]`);
    return { exitCode: 0, data: { cursor: id, matched: true, match: found.match[0] } };
  } catch (error) {
    io.write(`${(error as Error).message}\n[cursor ${id}]`);
    return { exitCode: 1, data: { cursor: id, matched: false } };
  }
}
