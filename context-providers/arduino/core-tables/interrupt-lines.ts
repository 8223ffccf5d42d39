// A check several cores need: two pins on one external-interrupt line cannot both have a handler,
// because the core keeps one callback per line (Renesas' IRQ channels, SAMD's EXTINT lines).
import type { Finding } from '../../types.js';
import type { CorePin, CoreSketchView } from './core-facts.js';

export function checkSharedInterruptLines(sketch: CoreSketchView, pins: CorePin[], why: string): Finding[] {
  const findings: Finding[] = [];
  const firstPinOnLine = new Map<string, number>();
  const byInterrupt = new Map(pins.filter((pin) => pin.interrupt).map((pin) => [pin.interrupt!.number, pin]));
  for (const call of sketch.calls) {
    if (call.name !== 'attachInterrupt' || call.receiver) continue;
    for (const value of new Set(call.values[0] ?? [])) {
      const pin = byInterrupt.get(value);
      const line = pin?.interrupt?.line;
      if (!pin || !line) continue;
      const earlier = firstPinOnLine.get(line);
      if (earlier === undefined) {
        firstPinOnLine.set(line, pin.number);
      } else if (earlier !== pin.number) {
        findings.push({
          severity: 'warning',
          code: 'interrupt-shared-line',
          message: `attachInterrupt on pins ${earlier} and ${pin.number}: both are ${line} on ${sketch.boardName}; ${why}, so this call replaces the handler of pin ${earlier}`,
          suggestion: 'Use a pin on another interrupt line (see the pin table).',
          ...(call.token.file ? { file: call.token.file } : {}),
          line: call.token.line,
        });
      }
    }
  }
  return findings;
}
