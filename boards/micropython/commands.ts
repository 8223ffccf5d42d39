// The MicroPython board commands run inside the bridge (`terminal/create` of `boardbridge
// run-script ...`) and by the CLI: run-script, stop-script, camera-info. The MCP tools run_script,
// stop_script and camera_info call runScript / stopScript / cameraInfoOver* directly.
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readRegularFile } from '../../platform/regular-file.js';
import type { CommandIo, CommandTable, InProcessCommand } from '../command.js';
import { cameraInfoOverRepl, cameraInfoOverUsbdbg, describeCameraInfo } from './camera-info.js';
import { openSerialLink, type ByteLink } from './link.js';
import { RunningScripts, runScript, stopScript, type RunnerDeps } from './run-script.js';
import { USBDBG_BAUD_FAST, USBDBG_BAUD_SLOW } from './usbdbg.js';

export interface MicropythonDeps {
  /** How ports are opened; the bridge passes its serial hub. Default: the tty directly. */
  openLink?: (path: string) => Promise<ByteLink>;
  answerTimeoutMs?: number;
  /** Shared with the MCP tools so stop_script reaches a run started by a command and back. */
  running?: RunningScripts;
}

/** Exit codes as a shell reports them: the script raised (1), was stopped (130), ran out of time (124). */
export const EXIT = { ok: 0, failed: 1, usage: 2, timedOut: 124, stopped: 130 } as const;

class UsageError extends Error {}

/** Runs a parseArgs call, turning its complaints into a usage error. */
function parsed<T>(usage: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nusage: ${usage}`);
  }
}

const PORT = { port: { type: 'string', short: 'p' } } as const;

function requirePort(port: unknown, usage: string): string {
  if (typeof port !== 'string' || port === '') throw new UsageError(`--port is required\nusage: ${usage}`);
  return port;
}

function guarded(command: (argv: string[], io: CommandIo) => Promise<number>): InProcessCommand {
  return async (argv, io) => {
    try {
      return await command(argv, io);
    } catch (error) {
      io.write(`${error instanceof Error ? error.message : String(error)}\n`);
      return error instanceof UsageError ? EXIT.usage : EXIT.failed;
    }
  };
}

export function micropythonCommands(deps: MicropythonDeps = {}): CommandTable {
  const runner: RunnerDeps = { openLink: deps.openLink ?? ((path) => openSerialLink(path)), answerTimeoutMs: deps.answerTimeoutMs };
  const running = deps.running ?? new RunningScripts();

  const RUN_USAGE = 'run-script <file> --port <port> [--timeout <seconds>] [--no-raw-paste]';
  const runCommand = guarded(async (argv, io) => {
    const { values, positionals } = parsed(RUN_USAGE, () =>
      parseArgs({ args: argv, allowPositionals: true, options: { ...PORT, timeout: { type: 'string' }, 'no-raw-paste': { type: 'boolean' } } }),
    );
    const port = requirePort(values.port, RUN_USAGE);
    if (positionals.length !== 1) throw new UsageError(`give exactly one script file\nusage: ${RUN_USAGE}`);
    const seconds = values.timeout === undefined ? undefined : Number(values.timeout);
    if (seconds !== undefined && !(seconds > 0)) throw new UsageError(`--timeout wants a number of seconds, got "${String(values.timeout)}"`);
    const file = resolve(io.cwd, positionals[0]);
    const text = await readRegularFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new Error(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    });
    const output = crlfToLf();
    const result = await runScript(
      {
        port,
        name: basename(file),
        text,
        onOutput: (chunk) => io.write(output.push(chunk)),
        signal: io.signal,
        timeoutMs: seconds === undefined ? undefined : seconds * 1000,
        rawPaste: values['no-raw-paste'] ? false : undefined,
      },
      runner,
      running,
    );
    const rest = output.end();
    if (rest) io.write(rest);
    if (result.traceback) io.write(`${result.traceback.text}\n`);
    else if (result.stderr.trim()) io.write(result.stderr.replace(/\r\n/g, '\n'));
    if (result.timedOut) {
      io.write(`stopped ${basename(file)} on ${port} after ${seconds} s\n`);
      return EXIT.timedOut;
    }
    if (result.interrupted) return EXIT.stopped;
    return result.traceback ? EXIT.failed : EXIT.ok;
  });

  const STOP_USAGE = 'stop-script --port <port>';
  const stopCommand = guarded(async (argv, io) => {
    const { values } = parsed(STOP_USAGE, () => parseArgs({ args: argv, options: PORT }));
    const port = requirePort(values.port, STOP_USAGE);
    const stopped = await stopScript(port, runner, running);
    if (stopped.how === 'interrupted') io.write(`stopped the script running on ${port}\n`);
    else io.write(`sent Ctrl-C to ${port}${stopped.reply?.trim() ? `; the board answered:\n${stopped.reply.replace(/\r\n/g, '\n').trim()}` : ''}\n`);
    return EXIT.ok;
  });

  const INFO_USAGE = 'camera-info --port <port> [--usbdbg [--slow]] [--json]';
  const infoCommand = guarded(async (argv, io) => {
    const { values } = parsed(INFO_USAGE, () =>
      parseArgs({ args: argv, options: { ...PORT, usbdbg: { type: 'boolean' }, slow: { type: 'boolean' }, json: { type: 'boolean' } } }),
    );
    const port = requirePort(values.port, INFO_USAGE);
    if (!values.usbdbg && running.get(port)) throw new Error(`a script started here is running on ${port}; stop it first (stop-script --port ${port})`);
    const info = values.usbdbg
      ? await cameraInfoOverUsbdbg(port, runner, values.slow ? USBDBG_BAUD_SLOW : USBDBG_BAUD_FAST)
      : await cameraInfoOverRepl(port, runner);
    io.write(`${values.json ? JSON.stringify(info, null, 2) : describeCameraInfo(info)}\n`);
    return EXIT.ok;
  });

  return new Map<string, InProcessCommand>([
    ['run-script', runCommand],
    ['stop-script', stopCommand],
    ['camera-info', infoCommand],
  ]);
}

/**
 * `\r\n` → `\n` across chunks: a `\r` at the end of one chunk waits to see whether the
 * next one starts with `\n` (serial reads split lines anywhere).
 */
export function crlfToLf(): { push(chunk: string): string; end(): string } {
  let held = '';
  return {
    push(chunk) {
      const text = (held + chunk).replace(/\r\n/g, '\n');
      held = text.endsWith('\r') ? '\r' : '';
      return held ? text.slice(0, -1) : text;
    },
    end() {
      const rest = held;
      held = '';
      return rest;
    },
  };
}
