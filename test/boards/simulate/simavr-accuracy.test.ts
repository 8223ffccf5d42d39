// avr8js (boardbridge simulate) against a second simulator, simavr (Debian libsimavr-dev,
// test/rig/simavr-trace.c), on the same .hex built by Debian's arduino-builder: the same serial
// bytes, and D13's edges at the same simulated times within 1 % of the blink period.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../../boards/compile.js';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import { parsePinInput } from '../../../boards/simulate/inputs.js';
import { simulatedBoard } from '../../../boards/simulate/simulatable.js';
import { simulate } from '../../../boards/simulate/simulation.js';
import { ArduinoBuilder, debianLayout } from '../../../boards/toolchains/arduino-builder.js';
import { runOnSimavr } from '../../rig/simavr-trace.js';
import { INTERRUPT_COUNTER } from '../../rig/simulate-sketches.js';
import { copyOfSketch, GREETER, sketchFolder } from '../../rig/sketches.js';

const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout('/nonexistent-sketchbook'));
const CLOCK = 16_000_000;

async function build(sketch: string): Promise<string> {
  const report = await compile({ sketch, fqbn: 'arduino:avr:uno', tool: builder });
  expect(report.success, report.output).toBe(true);
  return report.image!;
}

async function onAvr8js(hex: string, seconds: number, pins: string[] = []) {
  const board = simulatedBoard('arduino:avr:uno', await discoverPlatforms({ includeDebian: true, home: '/nonexistent-home' }));
  const inputs = pins.map((spec) => parsePinInput(spec, board.naming, 'test'));
  return simulate({ hex, clockHz: board.clockHz, pins: board.pins, forSeconds: seconds, inputs, wallLimitMs: 120_000, traceLimit: 10_000 });
}

describe('avr8js against simavr on the same .hex', () => {
  it('Blink: the same serial text, the same D13 edges at the same times within 1 % of the period', async () => {
    const hex = await build(copyOfSketch(join(import.meta.dirname, '../../../examples/Blink')));
    const [ours, theirs] = await Promise.all([onAvr8js(hex, 3.2), runOnSimavr(hex, CLOCK, 3.2)]);
    expect(theirs.serial).toBe('Blink ready\r\n');
    expect(ours.serial.text).toBe(theirs.serial);

    const rises = theirs.b5.filter((change, i) => change.level === 1 && theirs.b5[i - 1]?.level === 0);
    const simavrPeriod = (rises.at(-1)!.cycle - rises[0].cycle) / (rises.length - 1) / CLOCK;
    const d13 = ours.pins.find((pin) => pin.pin === 'D13')!;
    expect(rises.length).toBeGreaterThanOrEqual(3);
    expect(d13.risingEdges).toBe(rises.length);
    expect(Math.abs(d13.periodSeconds! - simavrPeriod) / simavrPeriod).toBeLessThan(0.01);

    // Every level change of D13 after the first (pinMode's output low): the same sequence, each at
    // the same simulated time within 1 % of the period.
    const ourEdges = ours.trace.changes.filter((c) => c.pin === 'D13' && c.level !== 'z');
    const theirEdges = theirs.b5.map((c) => ({ t: c.cycle / CLOCK, level: c.level }));
    const settled = (edges: Array<{ t: number; level: unknown }>) => edges.filter((e, i) => i > 0 && e.level !== edges[i - 1].level);
    const a = settled(ourEdges);
    const b = settled(theirEdges);
    expect(a.map((e) => e.level)).toEqual(b.map((e) => e.level));
    expect(a.length).toBeGreaterThanOrEqual(6);
    const worst = Math.max(...a.map((e, i) => Math.abs(e.t - b[i].t)));
    expect(worst, `largest D13 edge time difference ${worst} s`).toBeLessThan(0.01 * simavrPeriod);
  });

  it('a serial sketch: byte for byte the same output over 0.5 s', async () => {
    const hex = await build(sketchFolder('Greeter', GREETER));
    const [ours, theirs] = await Promise.all([onAvr8js(hex, 0.55), runOnSimavr(hex, CLOCK, 0.55)]);
    expect(theirs.serial).toContain('tick 4\r\n');
    expect(ours.serial.text).toBe(theirs.serial);
  });

  it('attachInterrupt on D2 driven by the same scripted levels: the same serial output', async () => {
    const hex = await build(sketchFolder('Interrupt', INTERRUPT_COUNTER));
    const script: Array<[number, 0 | 1]> = [
      [0.2, 0],
      [0.3, 1],
      [0.4, 0],
    ];
    const [ours, theirs] = await Promise.all([
      onAvr8js(hex, 0.6, script.map(([t, level]) => `2=${level ? 'high' : 'low'}@${t * 1000}ms`)),
      runOnSimavr(hex, CLOCK, 0.6, script.map(([t, level]) => `${Math.round(t * CLOCK)}:${level}`)),
    ]);
    expect(theirs.serial).toBe('falls=1\r\nfalls=2\r\n');
    expect(ours.serial.text).toBe(theirs.serial);
  });
});
