// How each known part behaves on its nets' levels: what it drives, which of its pins it joins,
// what its controls do, and what it shows, sampled once a frame (so PWM becomes a brightness and
// a multiplexed display the digits a person would see). The behaviour each follows is the one
// docs.wokwi.com/parts/<type> states.
import type { KnownPart } from '../../platform/circuit/netlist.js';
import { RESISTIVE, type NetLevel } from './net-level.js';

export interface PartContext {
  /** The level on one of this part's pins (floating when no wire reaches it). */
  level(pin: string): NetLevel;
  clockHz(): number;
  /** The simulated cycle now. */
  now(): number;
  /** Runs `callback` after `seconds` of simulated time, then re-resolves the circuit. */
  after(seconds: number, callback: () => void): void;
  /** Sets the ADC input of every analog board pin on this part pin's net. */
  setAnalog(pin: string, volts: number): void;
}

export interface PartModel {
  readonly part: KnownPart;
  /** What it shows is a time average over its frame (an LED's brightness, a multiplexed display). */
  readonly averages?: boolean;
  /** Levels changed at `cycle`; returns true when what the part drives changed. */
  update(cycle: number): boolean;
  /** Strong levels it puts on its pins. */
  drives?(): Array<{ pin: string; value: 0 | 1 }>;
  /** Pins it joins now: closed contacts, or a resistor's two ends. */
  links?(): Array<{ a: string; b: string; resistive: boolean }>;
  /** An error text when the control or value is not one it takes. */
  setControl?(control: string, value: number): string | undefined;
  /**
   * What it shows over the frame ending at `cycle`; undefined when nothing to say (a resistor).
   * `at`: the cycle it began to show it, when the part knows it exactly (one switch in the frame,
   * the first edge of a tone).
   */
  frame(cycle: number): Shown | undefined;
}

/**
 * What a part shows, as numbers a drawing can use (the panel's circuit view): LED `on` and
 * `brightness` (0–1), `rgb` (each 0–1), `segments` (A–G, DP per digit, 0/1), bar-graph `bars`,
 * servo `angle` (degrees), buzzer `hz` (0 silent), `pressed`, switch `value`, pot `position` (0–1),
 * shift-register `outputs` (Q0–Q7).
 */
export type PartView = Record<string, number | boolean | number[]>;

export interface Shown {
  state: string;
  view?: PartView;
  at?: number;
  /** What it showed before `at` (for the first frame, which has no earlier one). */
  before?: string;
}

/** Supply for the potentiometer's wiper: the board's 5 V (AVCC on the Uno, Nano, Mega). */
const VCC_VOLTS = 5;
/** Arduino's Servo library: write(0) sends MIN_PULSE_WIDTH, write(180) MAX_PULSE_WIDTH (Servo.h: 544 and 2400 µs). */
const SERVO_MIN_US = 544;
const SERVO_MAX_US = 2400;

const lit = (anode: NetLevel, cathode: NetLevel) => anode.value === 1 && anode.strength >= RESISTIVE && cathode.value === 0 && cathode.strength >= RESISTIVE;
const high = (level: NetLevel) => level.value === 1 && level.strength >= RESISTIVE;

/** Time a condition held within the current frame, in cycles. */
class OnTime {
  private since?: number;
  private total = 0;
  private frameStart = 0;
  private switches = 0;
  private lastSwitch = 0;
  set(on: boolean, cycle: number): void {
    if (on === (this.since !== undefined)) return;
    if (on) this.since = cycle;
    else {
      this.total += cycle - this.since!;
      this.since = undefined;
    }
    this.switches++;
    this.lastSwitch = cycle;
  }
  get on(): boolean {
    return this.since !== undefined;
  }
  /** The frame that ends at `cycle` (then a new one starts): the fraction it was on and its switches. */
  take(cycle: number): { duty: number; switches: number; lastSwitch: number } {
    const span = cycle - this.frameStart;
    const on = this.total + (this.since !== undefined ? cycle - this.since : 0);
    const taken = { duty: span > 0 ? on / span : this.on ? 1 : 0, switches: this.switches, lastSwitch: this.lastSwitch };
    this.total = 0;
    this.switches = 0;
    if (this.since !== undefined) this.since = cycle;
    this.frameStart = cycle;
    return taken;
  }
}

/** One switch or none in a frame is a plain on/off at its exact time; more is PWM, shown as its duty. */
function brightness(frame: { duty: number; switches: number; lastSwitch: number }, on: boolean): Shown {
  if (frame.switches <= 1) return { state: on ? 'on' : 'off', view: { on, brightness: on ? 1 : 0 }, ...(frame.switches === 1 ? { at: frame.lastSwitch, before: on ? 'off' : 'on' } : {}) };
  if (frame.duty < 0.01) return { state: 'off', view: { on: false, brightness: 0 } };
  if (frame.duty > 0.99) return { state: 'on', view: { on: true, brightness: 1 } };
  // In 5 % steps, as the text says it: a PWM period that does not divide the frame would make 1 % steps flicker.
  const fifths = Math.max(1, Math.round(frame.duty * 20));
  return { state: `on ${fifths * 5} %`, view: { on: true, brightness: fifths / 20 } };
}

class Led implements PartModel {
  readonly averages = true;
  private readonly on = new OnTime();
  constructor(
    readonly part: KnownPart,
    private readonly ctx: PartContext,
  ) {}
  update(cycle: number): boolean {
    this.on.set(lit(this.ctx.level('A'), this.ctx.level('C')), cycle);
    return false;
  }
  frame(cycle: number): Shown {
    return brightness(this.on.take(cycle), this.on.on);
  }
}

class RgbLed implements PartModel {
  readonly averages = true;
  private readonly channels = ['R', 'G', 'B'].map(() => new OnTime());
  constructor(
    readonly part: KnownPart,
    private readonly ctx: PartContext,
  ) {}
  update(cycle: number): boolean {
    const common = this.ctx.level('COM');
    const cathode = this.part.attrs.common === 'cathode';
    ['R', 'G', 'B'].forEach((pin, i) => {
      const own = this.ctx.level(pin);
      this.channels[i].set(cathode ? lit(own, common) : lit(common, own), cycle);
    });
    return false;
  }
  frame(cycle: number): Shown {
    const duty = this.channels.map((channel) => channel.take(cycle).duty);
    const view = { rgb: duty.map((d) => Math.round(d * 100) / 100) };
    if (duty.every((d) => d < 0.01)) return { state: 'off', view };
    return { state: `colour #${duty.map((d) => Math.round(d * 255).toString(16).padStart(2, '0')).join('')}`, view };
  }
}

class BarGraph implements PartModel {
  readonly averages = true;
  private readonly leds = Array.from({ length: 10 }, () => new OnTime());
  constructor(
    readonly part: KnownPart,
    private readonly ctx: PartContext,
  ) {}
  update(cycle: number): boolean {
    this.leds.forEach((led, i) => led.set(lit(this.ctx.level(`A${i + 1}`), this.ctx.level(`C${i + 1}`)), cycle));
    return false;
  }
  frame(cycle: number): Shown {
    const duty = this.leds.map((led) => led.take(cycle).duty);
    const on = duty.map((d) => d >= 0.5);
    const count = on.filter(Boolean).length;
    return { state: count === 0 ? 'off' : `lit ${on.map((o) => (o ? '1' : '0')).join('')} (${count} of 10)`, view: { bars: duty.map((d) => Math.round(d * 100) / 100) } };
  }
}

/** Segment patterns (bit 0 = A … bit 6 = G) of the characters a 7-segment display makes. */
const GLYPHS = new Map<number, string>(
  [
    ['0', 'ABCDEF'],
    ['1', 'BC'],
    ['2', 'ABDEG'],
    ['3', 'ABCDG'],
    ['4', 'BCFG'],
    ['5', 'ACDFG'],
    ['6', 'ACDEFG'],
    ['7', 'ABC'],
    ['8', 'ABCDEFG'],
    ['9', 'ABCDFG'],
    ['9', 'ABCFG'],
    ['A', 'ABCEFG'],
    ['b', 'CDEFG'],
    ['C', 'ADEF'],
    ['c', 'DEG'],
    ['d', 'BCDEG'],
    ['E', 'ADEFG'],
    ['F', 'AEFG'],
    ['H', 'BCEFG'],
    ['L', 'DEF'],
    ['P', 'ABEFG'],
    ['U', 'BCDEF'],
    ['-', 'G'],
    [' ', ''],
  ].map(([glyph, segments]) => [[...segments].reduce((bits, s) => bits | (1 << (s.charCodeAt(0) - 65)), 0), glyph]),
);
const SEGMENTS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'DP'];

class SevenSegment implements PartModel {
  readonly averages = true;
  private readonly digits: number;
  /** The segments each digit showed while it was last selected. */
  private readonly shown: number[];
  private readonly selectedInFrame: boolean[];
  constructor(
    readonly part: KnownPart,
    private readonly ctx: PartContext,
  ) {
    this.digits = Math.min(4, Math.max(1, Number(part.attrs.digits ?? '1') || 1));
    this.shown = Array.from({ length: this.digits }, () => 0);
    this.selectedInFrame = this.shown.map(() => false);
  }
  private commonPin(digit: number): string {
    return this.digits === 1 ? 'COM' : `DIG${digit + 1}`;
  }
  update(): boolean {
    const cathode = this.part.attrs.common === 'cathode';
    for (let d = 0; d < this.digits; d++) {
      const common = this.ctx.level(this.commonPin(d));
      const selected = cathode ? common.value === 0 && common.strength >= RESISTIVE : high(common);
      if (!selected) continue;
      this.selectedInFrame[d] = true;
      this.shown[d] = SEGMENTS.reduce((bits, pin, i) => {
        const own = this.ctx.level(pin);
        return bits | ((cathode ? lit(own, common) : lit(common, own)) ? 1 << i : 0);
      }, 0);
    }
    return false;
  }
  frame(): Shown {
    const segments = this.shown.flatMap((bits, d) => SEGMENTS.map((_, i) => (this.selectedInFrame[d] && bits & (1 << i) ? 1 : 0)));
    const text = this.shown
      .map((bits, d) => {
        const pattern = this.selectedInFrame[d] ? bits : 0;
        const glyph = GLYPHS.get(pattern & 0x7f) ?? '?';
        return glyph + (pattern & 0x80 ? '.' : '');
      })
      .join('');
    // A digit not selected during the next frame is dark in it.
    this.selectedInFrame.fill(false);
    this.update();
    return { state: text.trim() === '' ? 'off' : `shows "${text}"`, view: { segments } };
  }
}

class ShiftRegister implements PartModel {
  private shift = 0;
  private latch = 0;
  private lastClock = 0 as 0 | 1 | 'z';
  private lastLatch = 0 as 0 | 1 | 'z';
  private enabled = true;
  constructor(
    readonly part: KnownPart,
    private readonly ctx: PartContext,
  ) {}
  update(): boolean {
    const before = `${this.shift},${this.latch},${this.enabled}`;
    const clock = this.ctx.level('SHCP').value;
    const store = this.ctx.level('STCP').value;
    // An unwired MR is taken as inactive and an unwired OE as enabled (Wokwi's page asks to tie them).
    const reset = this.ctx.level('MR').value === 0;
    if (reset) this.shift = 0;
    else if (clock === 1 && this.lastClock === 0) this.shift = ((this.shift << 1) | (this.ctx.level('DS').value === 1 ? 1 : 0)) & 0xff;
    if (store === 1 && this.lastLatch === 0) this.latch = this.shift;
    this.lastClock = clock;
    this.lastLatch = store;
    this.enabled = this.ctx.level('OE').value !== 1;
    return before !== `${this.shift},${this.latch},${this.enabled}`;
  }
  drives(): Array<{ pin: string; value: 0 | 1 }> {
    // The register shifts towards Q7: the bit shifted in first ends on Q7 after eight clocks.
    const outputs = this.enabled ? Array.from({ length: 8 }, (_, i) => ({ pin: `Q${i}`, value: ((this.latch >> i) & 1) as 0 | 1 })) : [];
    return [...outputs, { pin: 'Q7S', value: ((this.shift >> 7) & 1) as 0 | 1 }];
  }
  frame(): Shown {
    if (!this.enabled) return { state: 'outputs off (OE high)', view: { outputs: [] } };
    const outputs = Array.from({ length: 8 }, (_, i) => (this.latch >> i) & 1);
    return { state: `Q0–Q7 ${outputs.join('')}`, view: { outputs } };
  }
}

class Servo implements PartModel {
  private riseAt?: number;
  private angle?: number;
  constructor(
    readonly part: KnownPart,
    private readonly ctx: PartContext,
  ) {}
  update(cycle: number): boolean {
    const on = high(this.ctx.level('PWM'));
    if (on && this.riseAt === undefined) this.riseAt = cycle;
    if (!on && this.riseAt !== undefined) {
      const us = ((cycle - this.riseAt) / this.ctx.clockHz()) * 1e6;
      this.riseAt = undefined;
      // A servo takes 0.5–2.5 ms pulses; anything else (a steady PWM level) is not a position.
      if (us >= 400 && us <= 2600) this.angle = Math.min(180, Math.max(0, ((us - SERVO_MIN_US) / (SERVO_MAX_US - SERVO_MIN_US)) * 180));
    }
    return false;
  }
  frame(): Shown {
    return this.angle === undefined ? { state: 'no pulse', view: {} } : { state: `at ${Math.round(this.angle)}°`, view: { angle: Math.round(this.angle * 10) / 10 } };
  }
}

class Buzzer implements PartModel {
  private lastRise?: number;
  private firstRise?: number;
  private period?: number;
  private wasOn = false;
  constructor(
    readonly part: KnownPart,
    private readonly ctx: PartContext,
  ) {}
  update(cycle: number): boolean {
    const on = lit(this.ctx.level('2'), this.ctx.level('1'));
    if (on && !this.wasOn) {
      if (this.lastRise !== undefined) this.period = cycle - this.lastRise;
      else this.firstRise = cycle;
      this.lastRise = cycle;
    }
    this.wasOn = on;
    return false;
  }
  frame(cycle: number): Shown {
    if (this.lastRise === undefined) return { state: 'silent', view: { hz: 0 } };
    // Silent once no edge came for two periods (or 50 ms): tone() ended, or noTone().
    const quiet = Math.max(2 * (this.period ?? 0), this.ctx.clockHz() / 20);
    if (cycle - this.lastRise > quiet) {
      const at = this.lastRise + (this.period ?? 0);
      this.lastRise = this.firstRise = this.period = undefined;
      return { state: 'silent', view: { hz: 0 }, at };
    }
    if (this.period === undefined) return { state: 'silent', view: { hz: 0 } };
    const hz = Math.round(this.ctx.clockHz() / this.period);
    return { state: `sounds ${hz} Hz`, view: { hz }, ...(this.firstRise !== undefined ? { at: this.firstRise } : {}) };
  }
}

/** Contacts that bounce as Wokwi's pushbutton page describes: open and close for about 1 ms when moved. */
abstract class Contact implements PartModel {
  protected closed: boolean;
  /** When a control last moved it. */
  protected movedAt?: number;
  constructor(
    readonly part: KnownPart,
    protected readonly ctx: PartContext,
    initial: boolean,
  ) {
    this.closed = initial;
  }
  update(): boolean {
    return false;
  }
  protected move(to: boolean, apply: (state: boolean) => void): void {
    this.movedAt = this.ctx.now();
    if (this.part.attrs.bounce === '0') {
      apply(to);
      return;
    }
    // A fixed pattern (so runs repeat exactly): the new state, then eight reversals within 1 ms.
    const times = [0, 0.00008, 0.00017, 0.00029, 0.0004, 0.00052, 0.00066, 0.0008, 0.00095];
    times.forEach((t, i) => (t === 0 ? apply(to) : this.ctx.after(t, () => apply(i % 2 === 0 ? to : !to))));
  }
  abstract frame(): Shown;
}

class Pushbutton extends Contact {
  private pressed = false;
  constructor(part: KnownPart, ctx: PartContext) {
    super(part, ctx, false);
  }
  links() {
    return this.closed ? [{ a: '1.l', b: '2.l', resistive: false }] : [];
  }
  setControl(control: string, value: number): string | undefined {
    if (control !== 'pressed') return `a wokwi-pushbutton has the control "pressed" (1 or 0), not "${control}"`;
    if (value !== 0 && value !== 1) return `"pressed" takes 1 (press) or 0 (release), not ${value}`;
    this.pressed = value === 1;
    this.move(this.pressed, (state) => (this.closed = state));
    return undefined;
  }
  frame(): Shown {
    return { state: this.pressed ? 'pressed' : 'released', view: { pressed: this.pressed }, ...(this.movedAt !== undefined ? { at: this.movedAt } : {}) };
  }
}

class SlideSwitch extends Contact {
  private right: boolean;
  constructor(part: KnownPart, ctx: PartContext) {
    super(part, ctx, true);
    this.right = part.attrs.value === '1';
  }
  links() {
    // While bouncing the moving contact is between the two sides, touching neither.
    return this.closed ? [{ a: '2', b: this.right ? '3' : '1', resistive: false }] : [];
  }
  setControl(control: string, value: number): string | undefined {
    if (control !== 'value') return `a wokwi-slide-switch takes the control "value" (0 left, 1 right), not "${control}"`;
    if (value !== 0 && value !== 1) return `"value" takes 0 (left) or 1 (right), not ${value}`;
    this.right = value === 1;
    this.move(true, (state) => (this.closed = state));
    return undefined;
  }
  frame(): Shown {
    return { state: this.right ? 'right (2–3)' : 'left (1–2)', view: { value: this.right ? 1 : 0 }, ...(this.movedAt !== undefined ? { at: this.movedAt } : {}) };
  }
}

class Potentiometer implements PartModel {
  private position: number;
  constructor(
    readonly part: KnownPart,
    private readonly ctx: PartContext,
  ) {
    const initial = Number(part.attrs.value ?? '0');
    this.position = Number.isFinite(initial) ? Math.min(1023, Math.max(0, initial)) / 1023 : 0;
    ctx.setAnalog('SIG', this.position * VCC_VOLTS);
  }
  update(): boolean {
    return false;
  }
  setControl(control: string, value: number): string | undefined {
    if (control !== 'position') return `a ${this.part.type} has the control "position" (0.0 to 1.0), not "${control}"`;
    if (!(value >= 0 && value <= 1)) return `"position" is 0.0 to 1.0, not ${value}`;
    this.position = value;
    this.ctx.setAnalog('SIG', value * VCC_VOLTS);
    return undefined;
  }
  frame(): Shown {
    return { state: `at ${this.position.toFixed(2)} (${(this.position * VCC_VOLTS).toFixed(2)} V)`, view: { position: this.position } };
  }
}

class Resistor implements PartModel {
  constructor(readonly part: KnownPart) {}
  update(): boolean {
    return false;
  }
  links() {
    return [{ a: '1', b: '2', resistive: true }];
  }
  frame(): undefined {
    return undefined;
  }
}

const MODELS: Record<string, new (part: KnownPart, ctx: PartContext) => PartModel> = {
  'wokwi-led': Led,
  'wokwi-rgb-led': RgbLed,
  'wokwi-led-bar-graph': BarGraph,
  'wokwi-7segment': SevenSegment,
  'wokwi-74hc595': ShiftRegister,
  'wokwi-servo': Servo,
  'wokwi-buzzer': Buzzer,
  'wokwi-pushbutton': Pushbutton,
  'wokwi-slide-switch': SlideSwitch,
  'wokwi-potentiometer': Potentiometer,
  'wokwi-slide-potentiometer': Potentiometer,
  'wokwi-resistor': Resistor,
};

export function partModel(part: KnownPart, ctx: PartContext): PartModel {
  return new MODELS[part.type](part, ctx);
}
