// avr8js 0.21.1's AVRTimer counts by one clock event per prescaler period: with the Arduino
// cores' /64 that is an event every 64 cycles per running timer (three on the 328P, six on the
// ATmega2560: an event every ~11 cycles), each walking the CPU's event list. Its `count` already
// takes any number of steps at once (it compares the values passed over, timer.js
// `timerUpdated`, and steps phase-correct modes one by one), and reading TCNT brings the counter
// up to date. So countByEvents schedules the next count at the step where something happens: a
// compare match (OCRnA/B/C), TOP, BOTTOM or the wrap, which are the only steps that set a flag,
// move an output pin or load a buffered OCR. What else could see the steps in between is brought
// up to date when it looks: a read of TIFRn (the flags), and a write of OCRnx, ICRn or TCCRnA
// (which move the next event) counts up to now first, as the per-period events had, then
// schedules again. TCCRnB and TCNTn writes already reschedule at once (timer.js).
import type { AVRTimer, AVRTimerConfig, CPU } from 'avr8js';

/** avr8js's TimerMode (timer.js). */
const NORMAL = 0;
const PHASE_CORRECT = 1;
const CTC = 2;
export const FAST_PWM = 3;
const PHASE_FREQUENCY_CORRECT = 4;

/** The members of avr8js 0.21.1's AVRTimer (timer.js) this file and timer-channel-c.ts complete. */
export interface TimerInternals {
  count: (reschedule?: boolean, external?: boolean) => void;
  divider: number;
  lastCycle: number;
  tcnt: number;
  timerMode: number;
  TOP: number;
  ocrA: number;
  ocrB: number;
  ocrC: number;
  hasOCRC: boolean;
  countingUp: boolean;
  tcntUpdated: boolean;
  updateDivider: boolean;
  compC: number;
  OCFC: Parameters<CPU['clearInterruptByFlag']>[0];
  updateCompPin(compValue: number, pinName: 'A' | 'B' | 'C', bottom?: boolean): void;
}

/** Counter steps from now to the next one where the timer does anything but count (at least 1). */
export function stepsToNextEvent(timer: Pick<TimerInternals, 'tcnt' | 'timerMode' | 'TOP' | 'ocrA' | 'ocrB' | 'ocrC' | 'hasOCRC' | 'countingUp'>): number {
  const { tcnt, timerMode, TOP } = timer;
  const compares = timer.hasOCRC ? [timer.ocrA, timer.ocrB, timer.ocrC] : [timer.ocrA, timer.ocrB];
  if (timerMode === NORMAL || timerMode === CTC || timerMode === FAST_PWM) {
    if (tcnt >= TOP) return 1;
    // From 0, the wrap back to 0 would pass unseen (timerUpdated takes a wrap from prev > value):
    // stop at TOP, one step before it.
    let steps = tcnt === 0 ? TOP : TOP + 1 - tcnt;
    for (const ocr of compares) if (ocr > tcnt && ocr <= TOP) steps = Math.min(steps, ocr - tcnt);
    return steps;
  }
  if (timerMode === PHASE_CORRECT || timerMode === PHASE_FREQUENCY_CORRECT) {
    if (TOP === 0 || tcnt > TOP) return 1;
    let steps: number;
    if (timer.countingUp) {
      steps = TOP - tcnt;
      for (const ocr of compares) if (ocr > tcnt && ocr <= TOP) steps = Math.min(steps, ocr - tcnt);
    } else {
      steps = tcnt;
      for (const ocr of compares) if (ocr < tcnt) steps = Math.min(steps, tcnt - ocr);
    }
    return Math.max(1, steps);
  }
  return 1;
}

export function countByEvents(timer: AVRTimer, cpu: CPU, config: AVRTimerConfig): void {
  const internals = timer as unknown as TimerInternals;
  const count = internals.count;
  const members = ['divider', 'lastCycle', 'tcnt', 'timerMode', 'ocrA', 'ocrB', 'ocrC', 'hasOCRC', 'countingUp', 'tcntUpdated', 'updateDivider'] as const;
  if (typeof count !== 'function' || members.some((name) => !(name in internals)) || typeof internals.TOP !== 'number') {
    throw new Error(
      `avr8js AVRTimer no longer has the members boards/simulate/timer-events.ts schedules by (count, ${members.join(', ')}, TOP; written for avr8js 0.21.1); check its count() and update the file`,
    );
  }
  // A count pending at once (after a TCCRnB or TCNTn write) reschedules itself.
  const settled = () => internals.divider !== 0 && !internals.updateDivider && !internals.tcntUpdated;
  const schedule = () => {
    const at = internals.lastCycle + stepsToNextEvent(internals) * internals.divider;
    cpu.updateClockEvent(internals.count, at - cpu.cycles);
  };
  // Replaced before anything schedules it: avr8js always schedules `this.count`, so this runs.
  // The count in hand is left to add its own next event (never moved from here: while a clock
  // event's callback runs, cpu.tick still holds its entry at the head of the list, and
  // clearClockEvent would take that one). A prescaler change schedules one period ahead itself.
  internals.count = (reschedule = true, external = false) => {
    const newDivider = internals.updateDivider;
    count(false, external);
    if (reschedule && !newDivider && internals.divider) {
      cpu.addClockEvent(internals.count, internals.lastCycle + stepsToNextEvent(internals) * internals.divider - cpu.cycles);
    }
  };
  const catchUp = () => {
    if (settled()) internals.count(false);
  };
  cpu.readHooks[config.TIFR] = (addr) => {
    catchUp();
    return cpu.data[addr];
  };
  const registers = [config.OCRA, config.OCRB, config.TCCRA, ...(config.OCRC ? [config.OCRC] : []), ...(config.bits === 16 && config.ICR ? [config.ICR] : [])];
  for (const addr of registers) {
    const hook = cpu.writeHooks[addr];
    cpu.writeHooks[addr] = (value, oldValue, address, mask) => {
      catchUp();
      const handled = hook?.(value, oldValue, address, mask);
      if (settled()) schedule();
      return handled;
    };
  }
}
