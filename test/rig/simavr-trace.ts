// simavr as a second simulator: test/rig/simavr-trace.c (built against Debian's libsimavr-dev)
// runs a .hex for a simulated time and reports USART0 output and PORTB5 (D13) changes.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildSimavrProgram } from './emulated-uno.js';

export interface SimavrRun {
  serial: string;
  /** PORTB5 (the Uno's D13) changes: cycle and level. */
  b5: Array<{ cycle: number; level: number }>;
}

/** `d2Levels`: `CYCLE:LEVEL` steps driving D2 (PD2) from that cycle on. */
export async function runOnSimavr(hex: string, clockHz: number, seconds: number, d2Levels: string[] = []): Promise<SimavrRun> {
  const { stdout, stderr } = await promisify(execFile)(buildSimavrProgram('simavr-trace'), [hex, String(clockHz), String(seconds), ...d2Levels], {
    encoding: 'latin1',
    maxBuffer: 64 * 1024 * 1024,
  });
  const b5 = [...stderr.matchAll(/^B5 (\d+) (\d)$/gm)].map((m) => ({ cycle: Number(m[1]), level: Number(m[2]) }));
  return { serial: stdout, b5 };
}
