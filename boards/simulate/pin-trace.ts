// Every level change of every pin, in cycles, with per-pin figures kept as they stream
// (edges, period, duty) so the summary is exact however long the run and however small
// the bounded list of changes handed to scripts and agents.
export type Level = 0 | 1 | 'z';

export interface PinChange {
  /** Simulated seconds since reset. */
  t: number;
  pin: string;
  level: Level;
}

export interface PinSummary {
  pin: string;
  /** The Arduino pin number. */
  number: number;
  /** The level at the end of the run. */
  level: Level;
  risingEdges: number;
  fallingEdges: number;
  /** Mean time between rising edges (needs two). */
  periodSeconds?: number;
  frequencyHz?: number;
  /** High time over the whole periods between the first and the last rising edge. */
  dutyPercent?: number;
}

interface PinStats {
  number: number;
  name: string;
  level: Level;
  changed: boolean;
  rising: number;
  falling: number;
  firstRise?: number;
  lastRise?: number;
  highSince?: number;
  highTotal: number;
  highAtFirstRise: number;
  highAtLastRise: number;
}

export type ChangeListener = (cycle: number, index: number, level: Level) => void;

export class PinTrace {
  readonly changes: PinChange[] = [];
  dropped = 0;
  private readonly stats: PinStats[];
  private readonly listeners: ChangeListener[] = [];

  constructor(
    pins: Array<{ number: number; name: string; level: Level }>,
    private readonly clockHz: number,
    private readonly limit: number,
  ) {
    this.stats = pins.map((pin) => ({ ...pin, changed: false, rising: 0, falling: 0, highTotal: 0, highAtFirstRise: 0, highAtLastRise: 0 }));
  }

  get pins(): ReadonlyArray<{ number: number; name: string; level: Level }> {
    return this.stats;
  }

  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  record(cycle: number, index: number, level: Level): void {
    const pin = this.stats[index];
    const before = pin.level;
    if (before === level) return;
    pin.level = level;
    pin.changed = true;
    if (level === 1) {
      if (before === 0) {
        pin.rising++;
        if (pin.firstRise === undefined) {
          pin.firstRise = cycle;
          pin.highAtFirstRise = pin.highTotal;
        }
        pin.lastRise = cycle;
        pin.highAtLastRise = pin.highTotal;
      }
      pin.highSince = cycle;
    } else {
      if (before === 1 && level === 0) pin.falling++;
      if (pin.highSince !== undefined) pin.highTotal += cycle - pin.highSince;
      pin.highSince = undefined;
    }
    if (this.changes.length < this.limit) this.changes.push({ t: cycle / this.clockHz, pin: pin.name, level });
    else this.dropped++;
    for (const listener of this.listeners) listener(cycle, index, level);
  }

  /** The pins that changed during the run. */
  summary(): PinSummary[] {
    return this.stats
      .filter((pin) => pin.changed)
      .map((pin) => {
        const summary: PinSummary = { pin: pin.name, number: pin.number, level: pin.level, risingEdges: pin.rising, fallingEdges: pin.falling };
        if (pin.rising >= 2 && pin.firstRise !== undefined && pin.lastRise !== undefined) {
          const span = pin.lastRise - pin.firstRise;
          summary.periodSeconds = span / (pin.rising - 1) / this.clockHz;
          summary.frequencyHz = 1 / summary.periodSeconds;
          summary.dutyPercent = ((pin.highAtLastRise - pin.highAtFirstRise) / span) * 100;
        }
        return summary;
      });
  }
}
