// `monitor`: reads through the shared hub; if someone already holds the port, it reads alongside them.
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import type { CommandIo, Outcome } from '../command.js';
import type { OperationContext } from '../operation-context.js';
import type { monitorInput } from '../operation-inputs.js';
import { PortBusyError, PortClosedError, PortDisconnectedError } from '../serial/errors.js';
import type { PortLease } from '../serial/port-lease.js';
import type { PortReader } from '../serial/reader.js';
import { parseDuration, parseRegex } from './arguments.js';
import type { BoundedRegex } from '../bounded-regex.js';

/** --until looks at this much of the latest output, so a match may span chunks. */
const UNTIL_WINDOW = 16 * 1024;

let monitors = 0;

export interface MonitorData {
  port: string;
  matched?: boolean;
}

export async function monitorRun(input: z.output<z.ZodObject<typeof monitorInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<MonitorData>> {
    const baudRate = input.baud ?? 9600;
    const until = input.until === undefined ? undefined : parseRegex(input.until);
    const limit = input.for === undefined ? undefined : AbortSignal.timeout(parseDuration(input.for));
    const signal = limit ? AbortSignal.any([io.signal, limit]) : io.signal;

    const owner = `${deps.owner ?? 'boardbridge monitor'} #${++monitors}`;
    let lease: PortLease | undefined;
    let reader: PortReader;
    try {
      lease = await deps.hub.open(input.port, { baudRate }, owner);
      reader = lease.reader();
    } catch (error) {
      if (!(error instanceof PortBusyError)) throw error;
      reader = deps.hub.reader(input.port);
      io.write(`[${input.port} is held by ${error.holder}; reading alongside]\n`);
    }
    try {
      const matched = await pump(reader, io, signal, until, input.timestamps === true);
      if (until && !matched) {
        io.write(`\n[no match for ${until} on ${input.port}${limit?.aborted ? ` within ${input.for}` : ''}]\n`);
        return { exitCode: 1, data: { port: input.port, matched: false } };
      }
      return { exitCode: 0, data: { port: input.port, ...(until ? { matched: true } : {}) } };
    } finally {
      await lease?.release();
    }
}

/** Copies the port to the terminal until `signal` ends it or `until` matches (returns true). */
async function pump(
  reader: PortReader,
  io: CommandIo,
  signal: AbortSignal,
  until: BoundedRegex | undefined,
  timestamps: boolean,
): Promise<boolean> {
  const decoder = new StringDecoder('utf8');
  let recent = '';
  let atLineStart = true;
  for (;;) {
    let chunk;
    try {
      chunk = await reader.next(signal);
    } catch (error) {
      if (signal.aborted) return false;
      if (error instanceof PortDisconnectedError) {
        io.write(`\n[${error.message}]\n`);
        continue;
      }
      if (error instanceof PortClosedError) {
        io.write(`\n[${error.message}]\n`);
        return false;
      }
      throw error;
    }
    if (chunk.missed > 0) io.write(`\n[missed ${chunk.missed} bytes: output came faster than it was read]\n`);
    const text = decoder.write(chunk.data);
    io.write(timestamps ? stamp(text, atLineStart) : text);
    if (text.length > 0) atLineStart = text.endsWith('\n');
    if (until) {
      recent = (recent + text).slice(-UNTIL_WINDOW);
      if (until.test(recent)) return true;
    }
  }
}

/** Prefixes each line start with the UTC time of day (HH:MM:SS.mmm), like the IDE monitor does. */
function stamp(text: string, atLineStart: boolean): string {
  const time = new Date().toISOString().slice(11, 23);
  const lines = text.split('\n');
  return lines
    .map((line, index) => {
      const starts = index === 0 ? atLineStart : true;
      const last = index === lines.length - 1;
      return starts && !(last && line === '') ? `${time} ${line}` : line;
    })
    .join('\n');
}
