// Pins whose PWM comes from one timer (one frequency) or one compare channel (one duty cycle).
import type { SourceRef } from '../../types.js';
import type { CoreFacts, CorePin } from './core-facts.js';

/** Groups of two or more PWM pins with the same key; the key is the group's `timer` label. */
export function groupPwmPins(pins: CorePin[], key: (pwm: NonNullable<CorePin['pwm']>) => string = (pwm) => pwm.timer): NonNullable<CoreFacts['sharedTimers']> {
  const groups = new Map<string, { pins: number[]; source: SourceRef }>();
  for (const pin of pins) {
    if (!pin.pwm) continue;
    const name = key(pin.pwm);
    const group = groups.get(name) ?? { pins: [], source: pin.pwm.source };
    group.pins.push(pin.number);
    groups.set(name, group);
  }
  return [...groups].filter(([, group]) => group.pins.length > 1).map(([timer, group]) => ({ timer, pins: group.pins, source: group.source }));
}
