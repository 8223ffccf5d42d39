// SoftwareSerial receives through a pin-change interrupt on its RX pin. The rule is the installed
// library's own: AVR's SoftwareSerial.cpp begin() sets up reception only
// `if (digitalPinToPCICR((int8_t)_receivePin))` (Debian's arduino-core-avr, SoftwareSerial.cpp:319),
// and which pins have one is the variant's digitalPinToPCICR (pins_arduino.h). An RX pin without
// one compiles and transmits, but never receives: a WARNING at the object's declaration.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { join } from '../../platform/path-join.js';
import type { Finding } from '../types.js';
import { stamp } from './cache.js';
import { tokenize } from './c-tokens.js';
import type { LibraryPinUse } from './library-pins.js';
import type { PinMap } from './pin-map.js';
import type { SketchSymbols } from './sketch-symbols.js';

/** Where the installed SoftwareSerial.cpp tests its receive pin's pin-change register, by file and stamp. */
const rxTests = new Map<string, { stamp: string; line: number | undefined }>();

// `if ( digitalPinToPCICR ( [(int8_t)] _receivePin ) )` among the file's tokens (comments are not code).
function receiveTestLine(source: string): number | undefined {
  const current = stamp(source);
  const cached = rxTests.get(source);
  if (cached?.stamp === current) return cached.line;
  let line: number | undefined;
  if (existsSync(source)) {
    const tokens = tokenize(readFileSync(source, 'utf8'), source);
    for (let index = 0; index < tokens.length && line === undefined; index++) {
      if (tokens[index].text !== 'if' || tokens[index + 1]?.text !== '(' || tokens[index + 2]?.text !== 'digitalPinToPCICR' || tokens[index + 3]?.text !== '(') continue;
      let at = index + 4;
      if (tokens[at]?.text === '(' && tokens[at + 2]?.text === ')') at += 3;
      if (tokens[at]?.text === '_receivePin' && tokens[at + 1]?.text === ')' && tokens[at + 2]?.text === ')') line = tokens[index].line;
    }
  }
  rxTests.set(source, { stamp: current, line });
  return line;
}

export function softwareSerialRxFindings(uses: LibraryPinUse[], symbols: SketchSymbols, pinMap: PinMap, boardName: string): Finding[] {
  const pinChange = pinMap.pinChange;
  if (!pinChange) return [];
  const findings: Finding[] = [];
  for (const use of uses) {
    if (use.className !== 'SoftwareSerial' || use.param.split(/\s+/).pop() !== 'receivePin' || !use.declaration.file.startsWith('/')) continue;
    const source = join(dirname(use.declaration.file), 'SoftwareSerial.cpp');
    const testLine = receiveTestLine(source);
    if (testLine === undefined) continue;
    const pins = symbols.valuesOf(use.arg, use.at)?.filter((pin) => pin >= 0 && pin < pinMap.pins.length && !pinChange.pins.includes(pin));
    if (!pins || pins.length === 0) continue;
    const where = pinChange.source ? ` (${basename(pinChange.source.file)}:${pinChange.source.line})` : '';
    findings.push({
      severity: 'warning',
      code: 'softserial-rx-pin',
      file: use.token.file,
      line: use.token.line,
      message: `${use.label}: RX pin ${pins.join(', ')} has no pin-change interrupt on ${boardName} (digitalPinToPCICR(${pins[0]}) is the null pointer${where}); SoftwareSerial sets up reception only on a pin that has one (SoftwareSerial.cpp:${testLine}), so it sends but never receives`,
      suggestion: `Use an RX pin with a pin-change interrupt: ${pinChange.pins.join(', ')}.`,
    });
  }
  return findings;
}
