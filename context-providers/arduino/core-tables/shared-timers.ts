// Pins whose PWM comes from one timer (or RP2040 slice): a frequency set for one applies to all.
import type { SourceRef } from '../../types.js';
import type { CoreFacts, CorePin } from './core-facts.js';

/** Groups of two or more PWM pins by `pwm.timer`, in pin order, cited at the first pin's row. */
export function sharedTimersOf(pins: CorePin[]): NonNullable<CoreFacts['sharedTimers']> {
  const groups = new Map<string, { pins: number[]; source: SourceRef }>();
  for (const pin of pins) {
    if (!pin.pwm) continue;
    const group = groups.get(pin.pwm.timer) ?? { pins: [], source: pin.pwm.source };
    group.pins.push(pin.number);
    groups.set(pin.pwm.timer, group);
  }
  return [...groups].filter(([, group]) => group.pins.length > 1).map(([timer, group]) => ({ timer, pins: group.pins, source: group.source }));
}
