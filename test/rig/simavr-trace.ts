// simavr as a second simulator: test/rig/simavr-trace.c (built against Debian's libsimavr-dev)
// runs a .hex for a simulated time and reports USART output and port pin changes.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildSimavrProgram } from './emulated-uno.js';

export interface SimavrRun {
  /** USART0 output. */
  serial: string;
  /** PORTB5 (the Uno's D13) changes: cycle and level. */
  b5: Array<{ cycle: number; level: number }>;
  /** Every traced pin (`B5`, `E4`, …) → its changes. */
  pins: Map<string, Array<{ cycle: number; level: number }>>;
  /** USART1… output by number (`1` → text). */
  uarts: Map<string, string>;
}

export interface SimavrOptions {
  /** simavr's chip name; atmega328p when not given. */
  mcu?: string;
  /** Port pins to trace (`B5`); B5 when not given. */
  trace?: string[];
  /** `CYCLE:LEVEL` (the 328P's D2) or `CYCLE:PORTBIT=LEVEL` steps. */
  inputs?: string[];
  /** ADC channel → millivolts (AVCC 5000). */
  analog?: Map<number, number>;
}

/** `d2Levels`: `CYCLE:LEVEL` steps driving D2 (PD2) from that cycle on. */
export async function runOnSimavr(hex: string, clockHz: number, seconds: number, d2Levels: string[] | SimavrOptions = []): Promise<SimavrRun> {
  const options: SimavrOptions = Array.isArray(d2Levels) ? { inputs: d2Levels } : d2Levels;
  const flags = [
    ...(options.mcu ? ['-m', options.mcu] : []),
    ...(options.trace ?? []).flatMap((pin) => ['-t', pin]),
    ...[...(options.analog ?? new Map<number, number>())].flatMap(([channel, millivolts]) => ['-a', `${channel}=${millivolts}`]),
  ];
  const { stdout, stderr } = await promisify(execFile)(buildSimavrProgram('simavr-trace'), [...flags, hex, String(clockHz), String(seconds), ...(options.inputs ?? [])], {
    encoding: 'latin1',
    maxBuffer: 256 * 1024 * 1024,
  });
  const pins = new Map<string, Array<{ cycle: number; level: number }>>();
  for (const m of stderr.matchAll(/^([A-L][0-7]) (\d+) (\d)$/gm)) {
    const list = pins.get(m[1]) ?? [];
    list.push({ cycle: Number(m[2]), level: Number(m[3]) });
    pins.set(m[1], list);
  }
  const uarts = new Map<string, string>();
  for (const m of stderr.matchAll(/^U(\d) (\d+)$/gm)) uarts.set(m[1], (uarts.get(m[1]) ?? '') + String.fromCharCode(Number(m[2])));
  return { serial: stdout, b5: pins.get('B5') ?? [], pins, uarts };
}
