// Pins whose PWM comes from one timer (one frequency) or one compare channel (one duty cycle).
import type { Finding, SourceRef } from '../../types.js';
import type { CoreFacts, CorePin, CoreSketchView, SketchCall } from './core-facts.js';

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

/** Each pin value an `analogWrite(pin, …)` call can take, with its call. */
export function analogWritePins(sketch: CoreSketchView): Array<{ pin: number; call: SketchCall }> {
  return sketch.calls.filter((call) => call.name === 'analogWrite' && !call.receiver).flatMap((call) => [...new Set(call.values[0] ?? [])].map((pin) => ({ pin, call })));
}

/** analogWrite on two pins with one timer output (SAMD's TCC0 WO2/WO6 on CC2, RP2040's GPIO n and n+16): one duty cycle. */
export function checkSharedPwmOutputs(sketch: CoreSketchView, pins: CorePin[], label: string): Finding[] {
  const findings: Finding[] = [];
  const first = new Map<string, number>();
  for (const { pin, call } of analogWritePins(sketch)) {
    const pwm = pins.find((p) => p.number === pin)?.pwm;
    if (!pwm?.channel) continue;
    const key = `${pwm.timer} ${pwm.channel}`;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, pin);
    else if (earlier !== pin) {
      findings.push({
        severity: 'warning',
        code: 'pwm-shared-channel',
        message: `analogWrite on pins ${earlier} and ${pin}: both are ${label} ${key} on ${sketch.boardName}, so they output the same duty cycle (the last value written)`,
        suggestion: 'Use a PWM pin on another timer or channel (see the pin table).',
        ...(call.token.file ? { file: call.token.file } : {}),
        line: call.token.line,
      });
    }
  }
  return findings;
}
