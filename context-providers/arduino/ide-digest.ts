// The Arduino IDE's facts as a short key for the context caches (they can be large). A module of its
// own, imported only when there are such facts: node:crypto loads with it, which costs a command
// line 4 ms it never needs.
import { createHash } from 'node:crypto';
import type { ArduinoIdeState } from '../types.js';

export function ideDigest(ide: ArduinoIdeState): string {
  return createHash('sha1').update(JSON.stringify(ide)).digest('hex');
}
