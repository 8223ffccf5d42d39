import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildPinMap } from '../../../context-providers/arduino/pin-map.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../platform/arduino/platforms.js';
import { resolveFqbn } from '../../../platform/arduino/resolve.js';
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

  const checkText = (name: string, text: string, fqbn: string, includes: string[] = []) => {
    const dir = join(TMP, 'check-sketches', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.ino`), text);
    const board = resolveFqbn(fqbn, installed);
    return checkSketch([join(dir, `${name}.ino`)], dir, board, buildPinMap(board), includes);
  };

  test('analogWrite over a literal loop range is checked for every value the loop takes', () => {
    const findings = checkText('LoopRange', 'void setup() {}\nvoid loop() {\n  for (int p = 2; p <= 13; p++) analogWrite(p, 128);\n  for (int q = 9; q < 12; q++) { analogWrite(q, 64); }\n}\n', 'arduino:avr:uno');
    expect(findings.map((finding) => [finding.code, finding.line])).toEqual([['pwm-pin', 3]]);
    expect(findings[0].message).toContain('analogWrite(D2)');
    // The Uno's PWM pins are 3, 5, 6, 9, 10, 11: the message names the loop values without one.
    expect(findings[0].message).toMatch(/\(pins 2, 4, 7, 8, 12, 13 of the loop's 12 values\)$/);
  });

  test('a loop whose body changes its variable is not taken as a range', () => {
    const findings = checkText('LoopChanged', 'void loop() {\n  for (int p = 2; p <= 13; p++) { analogWrite(p, 1); p = 9; }\n}\n', 'arduino:avr:uno');
    expect(findings).toEqual([]);
  });

  test("tone() and analogWrite on the timer tone() takes is a warning citing Tone.cpp and the variant's timer table", () => {
    const text = 'void setup() {\n  tone(8, 440);\n  analogWrite(3, 100);\n  analogWrite(5, 100);\n}\nvoid loop() {}\n';
    const uno = checkText('ToneTimer', text, 'arduino:avr:uno');
    expect(uno.map((finding) => [finding.code, finding.severity, finding.line])).toEqual([['tone-timer', 'warning', 3]]);
    expect(uno[0].message).toMatch(/uses Timer 2 \(pins_arduino\.h:\d+\), which tone\(\) takes on Arduino UNO \(Tone\.cpp:\d+\)/);
    // On the Leonardo tone() takes Timer 3 (D5), so neither D3 nor D5… D5 is Timer 3 there.
    const leonardo = checkText('ToneTimer', text, 'arduino:avr:leonardo');
    expect(leonardo.map((finding) => [finding.code, finding.line])).toEqual([['tone-timer', 4]]);
  });
});
