// The whole run's pin levels in a fixed number of time buckets, kept as the changes stream in
// (the bounded change list keeps only the first N): per bucket and pin the lowest and highest
// level seen and the share of the bucket spent high. When the run outgrows the buckets, pairs
// merge and each bucket covers twice the time, so memory stays the same however long the run.
// A chart draws min/max as a band (a PWM pin fills it) and the high share as its line (a fade ramps).
import type { Level, PinTrace } from './pin-trace.js';

/** Buckets a chart gets: about one per pixel of a wide view. */
export const LEVEL_BUCKETS = 512;
/** The first bucket width, in cycles; it doubles as the run grows. */
const FIRST_BUCKET_CYCLES = 64;

export interface LevelChart {
  /** Simulated seconds each bucket covers; bucket i starts at i × bucketSeconds. */
  bucketSeconds: number;
  /** Pins that changed during the run, each with one value per bucket (null: floating all the bucket). */
  pins: Array<{ pin: string; min: (0 | 1 | null)[]; max: (0 | 1 | null)[]; high: (number | null)[] }>;
}

interface Lane {
  name: string;
  level: Level;
  since: number;
  changed: boolean;
  /** Per bucket: bit 0 set when the pin was low in it, bit 1 when high. */
  seen: Uint8Array;
  /** Per bucket: cycles driven (not floating), and of those high. */
  driven: Float64Array;
  highCycles: Float64Array;
}

export class LevelBuckets {
  private bucketCycles = FIRST_BUCKET_CYCLES;
  private readonly lanes: Lane[];

  constructor(
    trace: PinTrace,
    private readonly clockHz: number,
    private readonly count = LEVEL_BUCKETS,
  ) {
    this.lanes = trace.pins.map((pin) => ({
      name: pin.name,
      level: pin.level,
      since: 0,
      changed: false,
      seen: new Uint8Array(count),
      driven: new Float64Array(count),
      highCycles: new Float64Array(count),
    }));
    trace.onChange((cycle, index, level) => this.change(cycle, index, level));
  }

  private change(cycle: number, index: number, level: Level): void {
    const lane = this.lanes[index]!;
    this.account(lane, cycle);
    lane.level = level;
    lane.changed = true;
  }

  /** The lane's level from `since` up to `cycle`, spread over the buckets it covers. */
  private account(lane: Lane, cycle: number): void {
    while (cycle > this.count * this.bucketCycles) this.widen();
    let from = lane.since;
    lane.since = cycle;
    if (lane.level === 'z') return;
    const bit = lane.level === 1 ? 2 : 1;
    while (from < cycle) {
      const bucket = Math.min(this.count - 1, Math.floor(from / this.bucketCycles));
      const end = Math.min(cycle, (bucket + 1) * this.bucketCycles);
      lane.seen[bucket]! |= bit;
      lane.driven[bucket]! += end - from;
      if (lane.level === 1) lane.highCycles[bucket]! += end - from;
      from = end;
    }
  }

  private widen(): void {
    for (const lane of this.lanes) {
      for (let i = 0; i < this.count; i++) {
        const a = 2 * i;
        const b = a + 1;
        lane.seen[i] = a < this.count ? lane.seen[a]! | (b < this.count ? lane.seen[b]! : 0) : 0;
        lane.driven[i] = a < this.count ? lane.driven[a]! + (b < this.count ? lane.driven[b]! : 0) : 0;
        lane.highCycles[i] = a < this.count ? lane.highCycles[a]! + (b < this.count ? lane.highCycles[b]! : 0) : 0;
      }
    }
    this.bucketCycles *= 2;
  }

  /** The chart of the run up to `cycles` (the run's end). */
  chart(cycles: number): LevelChart {
    for (const lane of this.lanes) this.account(lane, cycles);
    const used = Math.max(1, Math.min(this.count, Math.ceil(cycles / this.bucketCycles)));
    return {
      bucketSeconds: this.bucketCycles / this.clockHz,
      pins: this.lanes
        .filter((lane) => lane.changed)
        .map((lane) => {
          const min: (0 | 1 | null)[] = [];
          const max: (0 | 1 | null)[] = [];
          const high: (number | null)[] = [];
          for (let i = 0; i < used; i++) {
            const seen = lane.seen[i]!;
            min.push(seen === 0 ? null : seen & 1 ? 0 : 1);
            max.push(seen === 0 ? null : seen & 2 ? 1 : 0);
            high.push(lane.driven[i]! > 0 ? Math.round((lane.highCycles[i]! / lane.driven[i]!) * 1000) / 1000 : null);
          }
          return { pin: lane.name, min, max, high };
        }),
    };
  }
}
