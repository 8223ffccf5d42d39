import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../../boards/compile.js';
import { discoverPlatforms } from '../../../context-providers/arduino/platforms.js';
import { simulatedBoard } from '../../../boards/simulate/simulatable.js';
import { simulate } from '../../../boards/simulate/simulation.js';
import { ArduinoBuilder, debianLayout } from '../../../boards/toolchains/arduino-builder.js';
import { runOnSimavr } from '../../rig/simavr-trace.js';
import { copyOfSketch, GREETER, sketchFolder } from '../../rig/sketches.js';

const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout('/nonexistent-sketchbook'));

async function build(sketch: string): Promise<string> {
  const report = await compile({ sketch, fqbn: 'arduino:avr:uno', tool: builder });
  expect(report.success, report.output).toBe(true);
  return report.image!;
}

async function onAvr8js(hex: string, seconds: number) {
  const board = simulatedBoard('arduino:avr:uno', await discoverPlatforms({ includeDebian: true, home: '/nonexistent-home' }));
  return simulate({ hex, clockHz: board.clockHz, pins: board.pins, forSeconds: seconds, wallLimitMs: 120_000, traceLimit: 10_000 });
}

describe('avr8js against simavr on the same .hex', () => {
  it('Blink: the same serial text and D13 period within 1 %', async () => {
    const hex = await build(copyOfSketch(join(import.meta.dirname, '../../../examples/Blink')));
    const [ours, theirs] = await Promise.all([onAvr8js(hex, 3.2), runOnSimavr(hex, 16_000_000, 3.2)]);
    expect(ours.serial.text).toBe(theirs.serial);
    const rises = theirs.b5.filter((change, i) => change.level === 1 && theirs.b5[i - 1]?.level === 0);
    const simavrPeriod = (rises.at(-1)!.cycle - rises[0].cycle) / (rises.length - 1) / 16e6;
    const d13 = ours.pins.find((pin) => pin.pin === 'D13')!;
    expect(d13.risingEdges).toBe(rises.length);
    expect(Math.abs(d13.periodSeconds! - simavrPeriod) / simavrPeriod).toBeLessThan(0.01);
  });

  it('a serial sketch: byte for byte the same output over 0.5 s', async () => {
    const hex = await build(sketchFolder('Greeter', GREETER));
    const [ours, theirs] = await Promise.all([onAvr8js(hex, 0.55), runOnSimavr(hex, 16_000_000, 0.55)]);
    expect(theirs.serial).toContain('tick 4\r\n');
    expect(ours.serial.text).toBe(theirs.serial);
  });
});
