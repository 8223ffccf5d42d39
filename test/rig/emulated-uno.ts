// An emulated Arduino Uno on a pty: builds test/rig/uno-pty.c against Debian's libsimavr-dev
// into .tmp/rig/ (gitignored) when missing or older than its source, then runs it with the
// working ATmegaBOOT bootloader (Debian's optiboot hex is broken, see docs/hardware-rig.md).
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stop } from './pty-pair.js';

const REPO = join(import.meta.dirname, '..', '..');
export const BOOTLOADER = '/usr/share/arduino/hardware/arduino/avr/bootloaders/atmega/ATmegaBOOT_168_atmega328.hex';

/** Builds test/rig/<name>.c against libsimavr into .tmp/rig/<name> when missing or older than its source. */
export function buildSimavrProgram(name: string): string {
  const source = join(REPO, 'test', 'rig', `${name}.c`);
  const binary = join(REPO, '.tmp', 'rig', name);
  if (existsSync(binary) && statSync(binary).mtimeMs >= statSync(source).mtimeMs) return binary;
  mkdirSync(join(REPO, '.tmp', 'rig'), { recursive: true });
  execFileSync('gcc', ['-O2', '-Wall', '-o', binary, source, '-lsimavr', '-lpthread'], { stdio: 'pipe' });
  return binary;
}

export function buildEmulator(): string {
  return buildSimavrProgram('uno-pty');
}

export interface EmulatedUno {
  /** A stable link to the pty, as /dev/serial/by-id would give. */
  port: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startEmulatedUno(): Promise<EmulatedUno> {
  const binary = buildEmulator();
  const port = join(mkdtempSync(join(tmpdir(), 'bb-uno-')), 'ttyACM0');
  const child = spawn(binary, [BOOTLOADER, port], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => line.startsWith('pty ') && resolve());
    child.once('exit', (code) => reject(new Error(`uno-pty exited with ${code} before opening its pty`)));
  });
  return { port, process: child, stop: () => stop(child) };
}
