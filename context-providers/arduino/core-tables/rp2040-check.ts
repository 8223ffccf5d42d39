// The sketch check arduino-pico needs beyond the generic pin checks (analogRead off the ADC is one
// of those, from the facts): PWM pins that cannot hold their own frequency or duty because they
// share a slice (analogWriteFreq is
// global on this core; earlephilhower/arduino-pico 387294c cores/rp2040/wiring_analog.cpp:41-56
// clears every slice's setup, and :104-110 sets a slice up again at its next analogWrite).
import type { Finding, SourceRef } from '../../types.js';
import type { CoreSketchView, SketchCall } from './core-facts.js';
import { pwmSliceOf } from './rp2040-chips.js';

export interface PicoCheckFacts {
  gpioCount: number;
  sliceSource: SourceRef;
}

export function checkPicoSketch(sketch: CoreSketchView, facts: PicoCheckFacts): Finding[] {
  return checkSlices(sketch, facts);
}

const cite = (source: SourceRef): string => `${source.file}:${source.line}`;
const at = (call: SketchCall): Pick<Finding, 'file' | 'line'> => ({ ...(call.token.file ? { file: call.token.file } : {}), line: call.token.line });
const freeCalls = (sketch: CoreSketchView, name: string): SketchCall[] => sketch.calls.filter((call) => call.name === name && call.receiver === undefined);

function checkSlices(sketch: CoreSketchView, facts: PicoCheckFacts): Finding[] {
  const writes = freeCalls(sketch, 'analogWrite');
  const pins = new Map<number, SketchCall>();
  for (const call of writes) for (const pin of call.values[0] ?? []) if (pin >= 0 && pin < facts.gpioCount && !pins.has(pin)) pins.set(pin, call);
  const frequencies = new Set(freeCalls(sketch, 'analogWriteFreq').flatMap((call) => call.values[0] ?? []));
  const findings: Finding[] = [];
  const numbers = [...pins.keys()].sort((a, b) => a - b);
  for (let i = 0; i < numbers.length; i++) {
    for (let j = i + 1; j < numbers.length; j++) {
      const a = pwmSliceOf(numbers[i]);
      const b = pwmSliceOf(numbers[j]);
      if (a.slice !== b.slice) continue;
      const call = pins.get(numbers[j])!;
      if (a.channel === b.channel) {
        findings.push({
          severity: 'warning',
          code: 'rp2-pwm-same-output',
          message: `GPIO${numbers[i]} and GPIO${numbers[j]} are the same PWM output (slice ${a.slice} channel ${a.channel}, ${cite(facts.sliceSource)}): both show the duty cycle of the last analogWrite to either`,
          ...at(call),
          suggestion: 'Move one of them to a GPIO on another slice or channel.',
        });
      } else if (frequencies.size > 1) {
        findings.push({
          severity: 'warning',
          code: 'rp2-pwm-slice-frequency',
          message: `GPIO${numbers[i]} and GPIO${numbers[j]} share PWM slice ${a.slice} (${cite(facts.sliceSource)}) and the sketch sets analogWriteFreq to ${[...frequencies].join(' and ')}: on arduino-pico analogWriteFreq is global and a slice runs at the frequency in force at its last analogWrite, so these two pins cannot have different frequencies`,
          ...at(call),
          suggestion: 'Put pins that need different frequencies on different slices (GPIO n and n+2 are on different slices).',
        });
      }
    }
  }
  return findings;
}
