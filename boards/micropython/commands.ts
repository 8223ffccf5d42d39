// The MicroPython board operations: run-script, stop-script, camera-info. Their entries in
// BOARD_OPERATIONS (boards/operations.ts) give them their faces (terminals, the CLI, MCP).
import { basename, resolve } from 'node:path';
import { z } from 'zod';
import { readRegularFile } from '../../platform/regular-file.js';
import type { CommandIo, Outcome } from '../command.js';
import type { OperationContext } from '../operation-context.js';
import type { cameraInfoInput, runScriptInput, stopScriptInput } from '../operation-inputs.js';
import { cameraInfoOverRepl, cameraInfoOverUsbdbg, describeCameraInfo, type CameraInfo } from './camera-info.js';
import { openSerialLink } from './link.js';
import { runScript, stopScript, type RunnerDeps } from './run-script.js';
import { USBDBG_BAUD_FAST, USBDBG_BAUD_SLOW } from './usbdbg.js';

/** Exit codes as a shell reports them: the script raised (1), was stopped (130), ran out of time (124). */
export const EXIT = { ok: 0, failed: 1, usage: 2, timedOut: 124, stopped: 130 } as const;

function runner(deps: OperationContext): RunnerDeps {
  return { openLink: deps.openLink ?? ((path) => openSerialLink(path)), answerTimeoutMs: deps.answerTimeoutMs };
}

export interface RunScriptData {
  port: string;
  script: string;
  timedOut: boolean;
  interrupted: boolean;
  traceback?: string;
}

export async function runScriptRun(input: z.output<z.ZodObject<typeof runScriptInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<RunScriptData>> {
  const file = resolve(io.cwd, input.file);
  const text = await readRegularFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  const output = crlfToLf();
  const result = await runScript(
    {
      port: input.port,
      name: basename(file),
      text,
      onOutput: (chunk) => io.write(output.push(chunk)),
      signal: io.signal,
      timeoutMs: input.timeout === undefined ? undefined : input.timeout * 1000,
      rawPaste: input.no_raw_paste ? false : undefined,
    },
    runner(deps),
    deps.running,
  );
  const rest = output.end();
  if (rest) io.write(rest);
  if (result.traceback) io.write(`${result.traceback.text}\n`);
  else if (result.stderr.trim()) io.write(result.stderr.replace(/\r\n/g, '\n'));
  const data: RunScriptData = { port: input.port, script: file, timedOut: result.timedOut, interrupted: Boolean(result.interrupted), ...(result.traceback ? { traceback: result.traceback.text } : {}) };
  if (result.timedOut) {
    io.write(`stopped ${basename(file)} on ${input.port} after ${input.timeout} s\n`);
    return { exitCode: EXIT.timedOut, data };
  }
  if (result.interrupted) return { exitCode: EXIT.stopped, data };
  return { exitCode: result.traceback ? EXIT.failed : EXIT.ok, data };
}

export async function stopScriptRun(input: z.output<z.ZodObject<typeof stopScriptInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<{ port: string; how: string; reply?: string }>> {
  const stopped = await stopScript(input.port, runner(deps), deps.running);
  if (stopped.how === 'interrupted') io.write(`stopped the script running on ${input.port}\n`);
  else io.write(`sent Ctrl-C to ${input.port}${stopped.reply?.trim() ? `; the board answered:\n${stopped.reply.replace(/\r\n/g, '\n').trim()}` : ''}\n`);
  return { exitCode: EXIT.ok, data: { port: input.port, how: stopped.how, ...(stopped.reply ? { reply: stopped.reply } : {}) } };
}

export async function cameraInfoRun(input: z.output<z.ZodObject<typeof cameraInfoInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<CameraInfo>> {
  if (!input.usbdbg && deps.running.get(input.port)) throw new Error(`a script started here is running on ${input.port}; stop it first (stop-script --port ${input.port})`);
  const info = input.usbdbg
    ? await cameraInfoOverUsbdbg(input.port, runner(deps), input.slow ? USBDBG_BAUD_SLOW : USBDBG_BAUD_FAST)
    : await cameraInfoOverRepl(input.port, runner(deps));
  io.write(`${describeCameraInfo(info)}\n`);
  return { exitCode: EXIT.ok, data: info };
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
