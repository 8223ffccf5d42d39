// A simulation an agent steers step by step: started paused, then run for a simulated time or
// until a serial line matches, with serial read and written, controls set and part pins read in
// between. While paused the run awaits the next step (no CPU, no timers), so one left alone
// costs nothing and goes with its owner.
import type { BoundedRegex } from '../bounded-regex.js';
import type { SimulatedBoard } from '../simulate/simulatable.js';
import { simulate, type SimulationResult, type StopReason } from '../simulate/simulation.js';
import { AroundCircuit, Circuit, type PartLook } from './circuit.js';
import type { Netlist } from '../../platform/circuit/netlist.js';

/** Simulated time one simulation may reach in all (as `simulate --for` allows). */
export const LIVE_MAX_SECONDS = 600;
/** Serial text kept for reading; older text is dropped and said so. */
const SERIAL_KEPT = 64 * 1024;

export interface RunReport {
  atSeconds: number;
  stop: string;
  /** Serial text that arrived during this run. */
  serial: string;
  parts: Array<{ id: string; type: string; state: string }>;
  ended: boolean;
}

type Stop = { reason: StopReason; detail: string };

export class LiveSimulation extends AroundCircuit {
  private resume?: (stop: Stop | undefined) => void;
  private run?: { endCycle: number; until?: BoundedRegex; wallEnd: number; done: (report: RunReport) => void; serialFrom: number; hit?: string };
  private serial = '';
  private serialDropped = 0;
  private readCursor = 0;
  private line = '';
  private finished?: SimulationResult;
  private readonly stepWatchers = new Set<(report: RunReport) => void>();

  constructor(
    private readonly hex: string,
    readonly board: SimulatedBoard,
    readonly netlist: Netlist | undefined,
    private readonly wallLimitMs: number,
  ) {
    super(netlist ? new Circuit(netlist, 0) : undefined);
    void simulate({
      hex,
      clockHz: board.clockHz,
      pins: board.pins,
      forSeconds: LIVE_MAX_SECONDS,
      wallLimitMs: Number.MAX_SAFE_INTEGER,
      traceLimit: 0,
      outside: this,
    }).then((result) => {
      this.finished = result;
      const report = this.report(`the simulation ended: ${result.stop.detail}`, true);
      this.run?.done(report);
      this.run = undefined;
      for (const watcher of this.stepWatchers) watcher(report);
    });
  }

  /** A fresh simulation of the same image and circuit. */
  restarted(): LiveSimulation {
    this.stop();
    return new LiveSimulation(this.hex, this.board, this.netlist, this.wallLimitMs);
  }

  get ended(): boolean {
    return this.finished !== undefined;
  }

  get seconds(): number {
    return this.io ? this.io.cycles() / this.io.clockHz : 0;
  }

  onSerial(text: string): void {
    this.serial += text;
    if (this.serial.length > SERIAL_KEPT) {
      const cut = this.serial.length - SERIAL_KEPT;
      this.serial = this.serial.slice(cut);
      this.serialDropped += cut;
    }
    const run = this.run;
    if (!run?.until) return;
    if (text !== '\n') {
      if (this.line.length < 4096) this.line += text;
      return;
    }
    const line = this.line.replace(/\r$/, '');
    this.line = '';
    if (run.hit === undefined && run.until.test(line)) {
      run.hit = line;
      this.io?.pause();
    }
  }

  afterSlice(): Promise<Stop | undefined> | undefined {
    const run = this.run;
    const io = this.io!;
    if (run) {
      const why =
        run.hit !== undefined
          ? `the line "${run.hit}" matched ${run.until}`
          : io.cycles() >= run.endCycle
            ? 'the asked time passed'
            : performance.now() > run.wallEnd
              ? `the wall-clock limit of ${this.wallLimitMs / 1000} s ran out`
              : undefined;
      if (!why) return undefined;
      this.run = undefined;
      const report = this.report(why, false, run.serialFrom);
      run.done(report);
      for (const watcher of this.stepWatchers) watcher(report);
    }
    return new Promise((resolve) => (this.resume = resolve));
  }

  /** Runs `seconds` more of simulated time, or until a serial line matches `until`. */
  async runFor(seconds: number, until?: BoundedRegex): Promise<RunReport> {
    if (this.finished) return this.report(`the simulation has ended (${this.finished.stop.detail})`, true);
    if (this.run) throw new Error('the simulation is already running a step; wait for it');
    await this.waitPaused();
    const io = this.io!;
    const serialFrom = this.serialDropped + this.serial.length;
    const endCycle = Math.min(io.cycles() + Math.round(seconds * io.clockHz), Math.round(LIVE_MAX_SECONDS * io.clockHz));
    const done = new Promise<RunReport>((resolve) => {
      this.run = { endCycle, ...(until ? { until } : {}), wallEnd: performance.now() + this.wallLimitMs, done: resolve, serialFrom };
    });
    io.at(endCycle, () => io.pause());
    const resume = this.resume!;
    this.resume = undefined;
    resume(undefined);
    return done;
  }

  /** Hears the end of each step (and of the simulation); returns the unwatch. */
  onStep(watcher: (report: RunReport) => void): () => void {
    this.stepWatchers.add(watcher);
    return () => this.stepWatchers.delete(watcher);
  }

  /** Serial text not read yet (and how much was dropped before it). */
  readSerial(): { text: string; dropped: number } {
    const start = Math.max(this.readCursor - this.serialDropped, 0);
    const dropped = Math.max(this.serialDropped - this.readCursor, 0);
    this.readCursor = this.serialDropped + this.serial.length;
    return { text: this.serial.slice(start), dropped };
  }

  writeSerial(text: string): void {
    this.io?.writeSerial([...Buffer.from(text)]);
  }

  setControl(part: string, control: string, value: number): string | undefined {
    if (!this.circuit) return 'there is no diagram.json, so there are no parts to control';
    return this.circuit.setControl(part, control, value);
  }

  pinLevel(part: string, pin: string): 0 | 1 | string {
    if (!this.circuit) return 'there is no diagram.json, so there are no part pins to read';
    const known = this.netlist!.diagram.parts.some((p) => p.id === part);
    if (!known) return `the diagram has no part "${part}"`;
    return this.circuit.pinLevel(part, pin);
  }

  parts(): Array<{ id: string; type: string; state: string }> {
    return this.circuit?.states() ?? [];
  }

  /** What each part shows now, with the numbers a drawing of it uses. */
  looks(): PartLook[] {
    return this.circuit?.looks() ?? [];
  }

  stop(): void {
    if (this.finished) return;
    const resume = this.resume;
    this.resume = undefined;
    resume?.({ reason: 'aborted', detail: 'the simulation was stopped' });
  }

  private async waitPaused(): Promise<void> {
    for (let i = 0; i < 1000 && !this.resume && !this.finished; i++) await new Promise((resolve) => setImmediate(resolve));
    if (!this.resume) throw new Error(this.finished ? 'the simulation has ended' : 'the simulation did not pause');
  }

  private report(stop: string, ended: boolean, serialFrom = this.serialDropped + this.serial.length): RunReport {
    const start = Math.max(serialFrom - this.serialDropped, 0);
    return { atSeconds: this.seconds, stop, serial: this.serial.slice(start), parts: this.parts(), ended };
  }
}
