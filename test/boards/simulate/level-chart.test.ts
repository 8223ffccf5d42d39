// The whole run's levels in fixed buckets, fed by the same PinTrace the simulator records
// into: a fade's PWM duty ramps across the buckets, a run longer than the buckets merges them,
// a pin that never changed is left out.
import { describe, expect, it } from 'vitest';
import { LevelBuckets, LEVEL_BUCKETS } from '../../../boards/simulate/level-chart.js';
import { PinTrace } from '../../../boards/simulate/pin-trace.js';

const CLOCK = 16_000_000;

function pwmFade(seconds: number): { chart: ReturnType<LevelBuckets['chart']>; trace: PinTrace } {
  const trace = new PinTrace([{ number: 9, name: 'D9', level: 'z' }, { number: 13, name: 'D13', level: 'z' }], CLOCK, 200);
  const levels = new LevelBuckets(trace, CLOCK);
  const period = CLOCK / 490; // analogWrite's 490 Hz
  const end = seconds * CLOCK;
  for (let start = 0; start + period <= end; start += period) {
    const duty = start / end; // 0 → 1 over the run
    trace.record(Math.round(start), 0, 1);
    trace.record(Math.round(start + period * duty), 0, 0);
  }
  return { chart: levels.chart(end), trace };
}

describe('the level chart of a whole simulation run', () => {
  it('shows a 2 s fade as a duty that ramps from 0 to 1 over every bucket, although the trace kept only its first 200 changes', () => {
    const { chart, trace } = pwmFade(2);
    expect(trace.changes).toHaveLength(200);
    expect(trace.dropped).toBeGreaterThan(1500);
    expect(chart.pins.map((p) => p.pin)).toEqual(['D9']);
    const [d9] = chart.pins;
    expect(d9!.high.length).toBeLessThanOrEqual(LEVEL_BUCKETS);
    expect(d9!.high.length * chart.bucketSeconds).toBeGreaterThanOrEqual(2);
    expect((d9!.high.length - 1) * chart.bucketSeconds).toBeLessThan(2);
    const high = d9!.high as number[];
    const tenth = Math.floor(high.length / 10);
    expect(high[tenth]!).toBeLessThan(0.2);
    expect(high[high.length - tenth]!).toBeGreaterThan(0.8);
    // PWM inside a bucket: both levels seen.
    expect(d9!.min[high.length >> 1]).toBe(0);
    expect(d9!.max[high.length >> 1]).toBe(1);
  });

  it('keeps the same number of buckets for a run ten times longer, each covering more time', () => {
    const short = pwmFade(2).chart;
    const long = pwmFade(20).chart;
    expect(long.pins[0]!.high.length).toBeLessThanOrEqual(LEVEL_BUCKETS);
    expect(long.bucketSeconds).toBeGreaterThan(short.bucketSeconds * 4);
    expect(long.pins[0]!.high.length * long.bucketSeconds).toBeGreaterThanOrEqual(20);
  });

  it('gives a square wave whole buckets at one level', () => {
    const trace = new PinTrace([{ number: 13, name: 'D13', level: 'z' }], CLOCK, 1000);
    const levels = new LevelBuckets(trace, CLOCK);
    for (let s = 0; s < 4; s++) trace.record(s * CLOCK, 0, s % 2 === 0 ? 1 : 0);
    const chart = levels.chart(4 * CLOCK);
    const d13 = chart.pins[0]!;
    const quarter = Math.floor(d13.high.length / 4);
    expect(d13.min[quarter >> 1]).toBe(1);
    expect(d13.high[quarter >> 1]).toBe(1);
    expect(d13.max[quarter + (quarter >> 1)]).toBe(0);
    expect(d13.high[quarter + (quarter >> 1)]).toBe(0);
  });
});
