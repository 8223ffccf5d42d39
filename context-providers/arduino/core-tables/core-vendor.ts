// Whose core a board builds with: its own platform's, or the one `build.core=<vendor>:<core>` refers to.
// Rules read from a core's .c/.cpp sources (what analogWrite does off PWM) are stated only for that
// vendor's core; a fork may behave otherwise.
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';

export function coreVendor(board: ResolvedBoard): string {
  if (board.corePlatformPath === board.platformPath) return board.vendor;
  const reference = board.properties.get('build.core') ?? '';
  return reference.includes(':') ? reference.slice(0, reference.indexOf(':')) : board.vendor;
}
