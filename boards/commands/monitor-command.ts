// `boardbridge monitor --port P [--baud B] [--for 5s] [--until REGEX] [--timestamps]`
// Reads through the shared hub: if someone already holds the port, it reads alongside them.
import { StringDecoder } from 'node:string_decoder';
import type { CommandIo, InProcessCommand } from '../command.js';
import { PortBusyError, PortClosedError, PortDisconnectedError } from '../serial/errors.js';
import type { PortLease } from '../serial/port-lease.js';
import type { PortReader } from '../serial/reader.js';
import { parseCommand, parseDuration, parseRegex, UsageError } from './arguments.js';
import type { BoardCommandDeps } from './deps.js';
import type { BoundedRegex } from '../bounded-regex.js';

const USAGE = 'boardbridge monitor --port P [--baud B] [--for 5s] [--until REGEX] [--timestamps]';
/** --until looks at this much of the latest output, so a match may span chunks. */
const UNTIL_WINDOW = 16 * 1024;

let monitors = 0;

export function monitorCommand(deps: BoardCommandDeps): InProcessCommand {
  return async (argv, io) => {
    const { values } = parseCommand(
      {
        args: argv,
        options: {
          port: { type: 'string', short: 'p' },
          baud: { type: 'string', short: 'b' },
          for: { type: 'string' },
          until: { type: 'string' },
          timestamps: { type: 'boolean' },
        },
      },
      USAGE,
    );
    if (!values.port) throw new UsageError('--port is required', USAGE);
    const baudRate = Number(values.baud ?? '9600');
    const until = values.until === undefined ? undefined : parseRegex(values.until, USAGE);
    const limit = values.for === undefined ? undefined : AbortSignal.timeout(parseDuration(values.for, USAGE));
    const signal = limit ? AbortSignal.any([io.signal, limit]) : io.signal;

    const owner = `${deps.owner ?? 'boardbridge monitor'} #${++monitors}`;
    let lease: PortLease | undefined;
    let reader: PortReader;
    try {
      lease = await deps.hub.open(values.port, { baudRate }, owner);
      reader = lease.reader();
    } catch (error) {
      if (!(error instanceof PortBusyError)) throw error;
      reader = deps.hub.reader(values.port);
      io.write(`[${values.port} is held by ${error.holder}; reading alongside]\n`);
    }
    try {
      const matched = await pump(reader, io, signal, until, values.timestamps === true);
      if (until && !matched) {
        io.write(`\n[no match for ${until} on ${values.port}${limit?.aborted ? ` within ${values.for}` : ''}]\n`);
        return 1;
      }
      return 0;
    } finally {
      await lease?.release();
    }
  };
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
