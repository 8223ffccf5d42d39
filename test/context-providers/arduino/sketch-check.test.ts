import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildPinMap } from '../../../context-providers/arduino/pin-map.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../context-providers/arduino/platforms.js';
import { resolveFqbn } from '../../../context-providers/arduino/resolve.js';
import { checkBuildSize, checkSketch } from '../../../context-providers/arduino/sketch-check.js';
import { OWN_FIXTURES, TMP } from './paths.js';

const SKETCH = join(OWN_FIXTURES, 'sketches/PinChecks');
const INO = join(SKETCH, 'PinChecks.ino');

describe('the sketch check on an Uno', () => {
  let installed: InstalledPlatforms;
  beforeAll(async () => {
    installed = await discoverPlatforms({ dataDirs: [], sketchbookDirs: [], home: TMP });
  });

  const check = (fqbn: string) => {
    const board = resolveFqbn(fqbn, installed);
    return checkSketch([INO], SKETCH, board, buildPinMap(board), []);
  };

  test('finds exactly the marked mistakes, each with file, line, severity and suggestion', () => {
    const findings = check('arduino:avr:uno');
    expect(findings.map((finding) => [finding.code, finding.line])).toEqual([
      ['interrupt-pin', 13],
      ['unknown-serial', 15],
      ['missing-include', 16],
      ['pwm-pin', 27],
      ['analog-pin', 29],
      ['pin-range', 30],
      ['pwm-pin', 34],
    ]);
    for (const finding of findings) {
      expect(finding).toMatchObject({ file: INO, severity: 'error' });
      expect(finding.suggestion).toBeTruthy();
    }
  });

  test('analogWrite on a non-PWM pin names the PWM pins', () => {
    const pwm = check('arduino:avr:uno').find((finding) => finding.code === 'pwm-pin' && finding.line === 27)!;
    expect(pwm.message).toContain('analogWrite(D7)');
    expect(pwm.suggestion).toBe('Use a PWM pin: D3, D5, D6, D9, D10, D11.');
  });

  test('on a Mega the same sketch has Serial1 and pin 25, and pin 7 has PWM', () => {
    const codes = check('arduino:avr:mega').map((finding) => finding.code);
    expect(codes).not.toContain('unknown-serial');
    expect(codes).not.toContain('pin-range');
    expect(codes).not.toContain('pwm-pin');
    expect(codes).toContain('interrupt-pin');
  });

  test('driving SDA by hand while Wire is in use is a warning naming the bus role', () => {
    const sketch = join(OWN_FIXTURES, 'sketches/BusConflict');
    const board = resolveFqbn('arduino:avr:uno', installed);
    const findings = checkSketch([join(sketch, 'BusConflict.ino')], sketch, board, buildPinMap(board), ['Wire.h']);
    expect(findings.map((finding) => [finding.code, finding.line])).toEqual([['bus-pin-conflict', 6]]);
    expect(findings[0].message).toContain("Wire's SDA");
  });

  test("a variant without digitalPinHasPWM (gemma) leaves analogWrite unchecked instead of calling every pin wrong", () => {
    const codes = check('arduino:avr:gemma').map((finding) => finding.code);
    expect(codes).not.toContain('pwm-pin');
    expect(codes).toContain('pin-range');
  });

  test('flash and RAM over the limits of the board are errors at the boards.txt line', () => {
    const uno = resolveFqbn('arduino:avr:uno', installed);
    const findings = checkBuildSize({ flashBytes: 33000, ramBytes: 1900 }, uno);
    expect(findings.map((finding) => [finding.code, finding.severity])).toEqual([['flash-over', 'error'], ['ram-low', 'warning']]);
    expect(findings[0].file).toMatch(/boards\.txt$/);
    expect(findings[0].message).toContain('32256');
    expect(checkBuildSize({ flashBytes: 1000, ramBytes: 3000 }, uno).map((finding) => finding.code)).toEqual(['ram-over']);
    expect(checkBuildSize({ flashBytes: 1000, ramBytes: 100 }, uno)).toEqual([]);
  });
});
