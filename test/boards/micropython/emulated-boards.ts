// Real MicroPython on ptys for the runner tests: the BBC micro:bit firmware in qemu-system-arm,
// and the MicroPython WebAssembly build behind socat. Each start returns the pty and a stop that
// kills the process (an unplug) and waits for it to go.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SerialPort } from 'serialport';

export interface EmulatedBoard {
  path: string;
  /** Kills the emulator (the board is unplugged). */
  stop(): Promise<void>;
}

export const MICROBIT_FIRMWARE = '/usr/share/firmware-microbit-micropython/firmware.hex';
const WASM_REPL = fileURLToPath(new URL('./wasm-repl.mjs', import.meta.url));

function stopper(child: ChildProcess, cleanup: () => void = () => undefined): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    cleanup();
  };
}

async function waitFor(check: () => boolean, what: string, child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (child.exitCode !== null) throw new Error(`${what}: the process exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the board's friendly REPL answers a return with `>>>`, so a loaded machine's slow
 * boot is not counted against the runner's answer deadlines in the tests.
 */
async function untilAnswering(path: string, timeoutMs = 30_000): Promise<void> {
  const port = new SerialPort({ path, baudRate: 115_200, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  let received = '';
  port.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  try {
    const deadline = Date.now() + timeoutMs;
    while (!received.includes('>>>')) {
      if (Date.now() > deadline) throw new Error(`${path}: no MicroPython prompt after ${timeoutMs} ms (got ${JSON.stringify(received)})`);
      port.write('\r');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await new Promise<void>((resolve) => port.close(() => resolve()));
  }
}

/** MicroPython 1.9.2 on an emulated nRF51 with its UART on a pty. */
export async function startMicrobit(): Promise<EmulatedBoard> {
  const child = spawn('qemu-system-arm', [
    '-M', 'microbit', '-device', `loader,file=${MICROBIT_FIRMWARE}`,
    '-display', 'none', '-serial', 'pty', '-monitor', 'none',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  // qemu names the pty on stdout ("char device redirected to /dev/pts/3 (label serial0)").
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = stopper(child);
  try {
    await waitFor(() => /redirected to (\/dev\/pts\/\d+)/.test(stderr), 'qemu-system-arm', child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}; stderr: ${stderr}`);
  }
  const path = /redirected to (\/dev\/pts\/\d+)/.exec(stderr)![1];
  await untilAnswering(path).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { path, stop };
}

/** The MicroPython WebAssembly REPL (wasm-repl.mjs) on a pty made by socat. */
export async function startWasmBoard(): Promise<EmulatedBoard> {
  const dir = mkdtempSync(join(tmpdir(), 'wasm-board-'));
  const path = join(dir, 'ttyWASM');
  const child = spawn('socat', [`pty,raw,echo=0,link=${path}`, `EXEC:${process.execPath} ${WASM_REPL}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = stopper(child, () => rmSync(dir, { recursive: true, force: true }));
  try {
    await waitFor(() => existsSync(path), 'socat', child);
    await untilAnswering(path);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}; stderr: ${stderr}`);
  }
  return { path, stop };
}
