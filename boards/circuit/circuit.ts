// The circuit around the chip during a run: it hears every change of the chip's pin drive,
// resolves the nets (net-level.ts), lets each part react (part-models.ts), puts the resulting
// levels and voltages back on the chip's input pins, and samples what every part shows once a
// frame into a bounded history ("led1 on 1.00–2.00 s", "sevseg1 shows "3"").
import type { ChipAttachment, ChipIo, PinDrive } from '../simulate/simulation.js';
import type { BoardPin } from '../../platform/circuit/board-part.js';
import { PULL, RESISTIVE, resolveNets, STRONG, FLOATING, type Driver, type Link, type NetLevel } from './net-level.js';
import type { Netlist } from '../../platform/circuit/netlist.js';
import { partModel, type PartModel, type PartView } from './part-models.js';

/** Wokwi's LED updates at 80 fps by default (docs.wokwi.com/parts/wokwi-led, "fps"); 10 ms frames are close to it and read as round times. */
export const FRAME_SECONDS = 0.01;
/** Intervals each part keeps for its summary (the change list is bounded separately). */
const INTERVALS_KEPT = 20;
/** Rounds of part reactions per pin change: a chain of 74HC595s settles in one per chip. */
const MAX_SETTLE_ROUNDS = 16;

export interface PartChange {
  /** Simulated seconds at the start of the frame where the part began to show it. */
  t: number;
  part: string;
  state: string;
}

export interface PartInterval {
  state: string;
  from: number;
  to: number;
}

export interface PartReport {
  id: string;
  type: string;
  /** What it shows at the end of the run. */
  state: string;
  changes: number;
  /** Its first intervals of one state, in order. */
  intervals: PartInterval[];
}

export interface CircuitReport {
  parts: PartReport[];
  changes: PartChange[];
  dropped: number;
  notes: string[];
}

/** A part as a drawing shows it now: its state text and the numbers behind it. */
export interface PartLook {
  id: string;
  type: string;
  state: string;
  view: PartView;
}

interface PartTrack {
  model: PartModel;
  /** The cycle its current frame began. */
  frameStart: number;
  state?: string;
  view?: PartView;
  since: number;
  changes: number;
  intervals: PartInterval[];
}

export class Circuit implements ChipAttachment {
  private io?: ChipIo;
  private levels: NetLevel[];
  private readonly tracks: PartTrack[] = [];
  private readonly byId = new Map<string, PartTrack>();
  private readonly changes: PartChange[] = [];
  private dropped = 0;
  private readonly notes: string[] = [];
  private readonly shorted = new Set<number>();
  private readonly applied = new Map<number, 0 | 1 | undefined>();
  private readonly analogNets = new Set<number>();
  private readonly pendingAnalog: Array<() => void> = [];
  private frameCycles = 0;
  private lastSample = 0;
  private resolving = false;

  constructor(
    readonly netlist: Netlist,
    private readonly historyLimit: number,
  ) {
    this.levels = netlist.nets.map(() => FLOATING);
    this.notes.push(...netlist.notes);
    for (const part of netlist.parts) {
      const model = partModel(part, {
        level: (pin) => {
          const net = netlist.netOf(part.id, pin);
          return net ? this.levels[net.index] : FLOATING;
        },
        clockHz: () => this.io?.clockHz ?? 16e6,
        now: () => this.io?.cycles() ?? 0,
        after: (seconds, callback) => {
          const io = this.io!;
          io.at(io.cycles() + Math.max(1, Math.round(seconds * io.clockHz)), () => {
            callback();
            this.resolve();
          });
        },
        setAnalog: (pin, volts) => {
          const net = netlist.netOf(part.id, pin);
          if (!net) return;
          this.analogNets.add(net.index);
          const apply = () => {
            for (const channel of channelsOn(net.board)) this.io!.setAnalog(channel, volts);
          };
          if (this.io) apply();
          else this.pendingAnalog.push(apply);
        },
      });
      const track: PartTrack = { model, frameStart: 0, since: 0, changes: 0, intervals: [] };
      this.tracks.push(track);
      this.byId.set(part.id, track);
    }
  }

  attach(io: ChipIo): void {
    this.io = io;
    for (const apply of this.pendingAnalog.splice(0)) apply();
    this.frameCycles = Math.round(FRAME_SECONDS * io.clockHz);
    this.resolve();
    const frame = () => {
      this.sample(io.cycles());
      io.at(io.cycles() + this.frameCycles, frame);
    };
    io.at(this.frameCycles, frame);
  }

  onDrive(): void {
    this.resolve();
  }

  /** Sets a part's control now; an error text when the part or control does not take it. */
  setControl(partId: string, control: string, value: number): string | undefined {
    const track = this.byId.get(partId);
    if (!track) return `there is no part "${partId}" the simulator models (parts: ${[...this.byId.keys()].join(', ') || 'none'})`;
    if (!track.model.setControl) return `${partId} (${track.model.part.type}) has no controls`;
    const problem = track.model.setControl(control, value);
    if (!problem) this.resolve();
    return problem;
  }

  /** The digital level of the net on `part:pin` (floating reads 0, as Wokwi's expect-pin does). */
  pinLevel(partId: string, pin: string): 0 | 1 {
    const net = this.netlist.netOf(partId, pin);
    if (net) return this.levels[net.index].value === 1 ? 1 : 0;
    if (partId === this.netlist.board?.id) {
      const pinOnBoard = this.netlist.boardPin(pin);
      if (pinOnBoard?.kind === 'supply') return pinOnBoard.supply === 'GND' ? 0 : 1;
      const drive = pinOnBoard?.kind === 'io' && this.io ? this.io.drive(pinOnBoard.pin) : 'input';
      return drive === 'high' || drive === 'pullup' ? 1 : 0;
    }
    const own = this.byId.get(partId)?.model.drives?.().find((drive) => drive.pin === pin);
    return own?.value ?? 0;
  }

  /** What each part shows now: the frame so far is closed early. */
  states(): Array<{ id: string; type: string; state: string }> {
    this.closeFrameEarly();
    return this.tracks.flatMap((track) => (track.state === undefined ? [] : [{ id: track.model.part.id, type: track.model.part.type, state: track.state }]));
  }

  /** What each part shows now, with the numbers a drawing uses (the frame so far is closed early). */
  looks(): PartLook[] {
    this.closeFrameEarly();
    return this.tracks.flatMap((track) => (track.state === undefined ? [] : [{ id: track.model.part.id, type: track.model.part.type, state: track.state, view: track.view ?? {} }]));
  }

  // Closes the frame so far for a reading now. A few cycles of frame would show a PWM-dimmed LED
  // as fully on or off (the level of that instant), so parts that show a time average keep
  // their last frame until the current one holds half a frame; a button shows its state at once.
  private closeFrameEarly(): void {
    const io = this.io;
    if (io && io.cycles() > this.lastSample) this.sample(io.cycles(), io.cycles() - this.lastSample < this.frameCycles / 2);
  }

  /** Closes the last frame at the run's end cycle and reports. */
  report(endCycle: number): CircuitReport {
    this.sample(endCycle);
    const end = endCycle / (this.io?.clockHz ?? 16e6);
    return {
      parts: this.tracks.flatMap((track) => {
        if (track.state === undefined) return [];
        const intervals = [...track.intervals];
        if (intervals.length < INTERVALS_KEPT) intervals.push({ state: track.state, from: track.since, to: end });
        return [{ id: track.model.part.id, type: track.model.part.type, state: track.state, changes: track.changes, intervals }];
      }),
      changes: [...this.changes],
      dropped: this.dropped,
      notes: [...this.notes],
    };
  }

  private sample(cycle: number, short = false): void {
    const io = this.io;
    if (!io) return;
    this.lastSample = cycle;
    for (const track of this.tracks) {
      if (short && track.model.averages) continue;
      const frameStart = track.frameStart;
      track.frameStart = cycle;
      const shown = track.model.frame(cycle);
      if (shown === undefined) continue;
      if (shown.view) track.view = shown.view;
      if (track.state === undefined && shown.before !== undefined && shown.at !== undefined && shown.at > 0) this.change(track, shown.before, 0);
      if (shown.state === track.state) continue;
      const t = track.state === undefined ? 0 : shown.at !== undefined ? Math.max(shown.at / io.clockHz, track.since) : frameStart / io.clockHz;
      this.change(track, shown.state, t);
    }
  }

  private change(track: PartTrack, state: string, t: number): void {
    if (track.state !== undefined) {
      track.changes++;
      if (track.intervals.length < INTERVALS_KEPT) track.intervals.push({ state: track.state, from: track.since, to: t });
    }
    track.state = state;
    track.since = t;
    if (this.changes.length < this.historyLimit) this.changes.push({ t, part: track.model.part.id, state });
    else this.dropped++;
  }

  private resolve(): void {
    const io = this.io;
    if (!io || this.resolving) return;
    this.resolving = true;
    try {
      for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
        this.resolveOnce(io);
        const cycle = io.cycles();
        let moved = false;
        for (const track of this.tracks) if (track.model.update(cycle)) moved = true;
        if (!moved) break;
      }
    } finally {
      this.resolving = false;
    }
  }

  private resolveOnce(io: ChipIo): void {
    const { nets } = this.netlist;
    const drivers: Driver[] = [];
    const links: Link[] = [];
    for (const net of nets) {
      for (const pin of net.board) {
        if (pin.kind === 'supply') drivers.push({ net: net.index, value: pin.supply === 'GND' ? 0 : 1, strength: STRONG });
        if (pin.kind === 'io') {
          const drive = io.drive(pin.pin);
          if (drive === 'high' || drive === 'low') drivers.push({ net: net.index, value: drive === 'high' ? 1 : 0, strength: STRONG });
          if (drive === 'pullup') drivers.push({ net: net.index, value: 1, strength: PULL });
        }
      }
    }
    for (const track of this.tracks) {
      const { id } = track.model.part;
      for (const drive of track.model.drives?.() ?? []) {
        const net = this.netlist.netOf(id, drive.pin);
        if (net) drivers.push({ net: net.index, value: drive.value, strength: STRONG });
      }
      for (const link of track.model.links?.() ?? []) {
        const a = this.netlist.netOf(id, link.a);
        const b = this.netlist.netOf(id, link.b);
        if (a && b) links.push({ a: a.index, b: b.index, resistive: link.resistive });
      }
    }
    const { levels, shorts } = resolveNets(nets.length, drivers, links);
    this.levels = levels;
    for (const index of shorts) {
      if (this.shorted.has(index)) continue;
      this.shorted.add(index);
      const where = nets[index].terminals.map((t) => `${t.part}:${t.pin}`).join(', ');
      this.notes.push(`at ${(io.cycles() / io.clockHz).toFixed(3)} s the net of ${where} was driven high and low at once (a short circuit on hardware); it is read as low`);
    }
    for (const net of nets) {
      const level = levels[net.index];
      for (const pin of net.board) {
        if (pin.kind !== 'io') continue;
        const drive: PinDrive = io.drive(pin.pin);
        const outside = drive === 'high' || drive === 'low' || level.strength < RESISTIVE ? undefined : (level.value as 0 | 1);
        if (this.applied.get(pin.pin) !== outside || !this.applied.has(pin.pin)) {
          this.applied.set(pin.pin, outside);
          io.setInput(pin.pin, outside);
        }
        if (outside !== undefined && pin.channel !== undefined && !this.analogNets.has(net.index)) io.setAnalog(pin.channel, outside * 5);
      }
    }
  }
}

/** What steers a run around a circuit (a scenario, an interactive session): the chip's io kept, its pin changes passed to the circuit. */
export abstract class AroundCircuit implements ChipAttachment {
  protected io?: ChipIo;
  constructor(protected readonly circuit: Circuit | undefined) {}

  attach(io: ChipIo): void {
    this.io = io;
    this.circuit?.attach(io);
  }

  onDrive(): void {
    this.circuit?.onDrive();
  }
}

function channelsOn(pins: BoardPin[]): number[] {
  return pins.flatMap((pin) => (pin.kind === 'io' && pin.channel !== undefined ? [pin.channel] : pin.kind === 'analog-only' ? [pin.channel] : []));
}
