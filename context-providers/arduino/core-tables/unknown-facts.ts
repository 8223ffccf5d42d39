// Facts of a board whose core is recognised but whose tables cannot be read: every capability
// unknown with the one reason, never an empty table that reads as "none".
import type { Finding } from '../../types.js';
import type { CoreFacts, Knowledge } from './core-facts.js';

export function unknownFacts(core: string, reason: string, files: string[], warnings: Finding[] = []): CoreFacts {
  const unknown: Knowledge = { known: false, reason };
  return { core, pins: [], known: { pwm: unknown, analog: unknown, interrupt: unknown, dac: unknown, serial: unknown }, notes: [], files, warnings };
}
