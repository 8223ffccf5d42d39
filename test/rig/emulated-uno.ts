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
const SOURCE = join(REPO, 'test', 'rig', 'uno-pty.c');
const BINARY = join(REPO, '.tmp', 'rig', 'uno-pty');
export const BOOTLOADER = '/usr/share/arduino/hardware/arduino/avr/bootloaders/atmega/ATmegaBOOT_168_atmega328.hex';

export function buildEmulator(): string {
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= statSync(SOURCE).mtimeMs) return BINARY;
  mkdirSync(join(REPO, '.tmp', 'rig'), { recursive: true });
  execFileSync('gcc', ['-O2', '-Wall', '-o', BINARY, SOURCE, '-lsimavr', '-lpthread'], { stdio: 'pipe' });
  return BINARY;
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
