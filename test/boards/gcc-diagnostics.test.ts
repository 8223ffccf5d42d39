import { readFileSync } from 'node:fs';
import { fixture } from '../support/fixtures.js';
import { describe, expect, it } from 'vitest';
import { diagnosticToFinding, parseGccDiagnostics } from '../../boards/toolchains/gcc-diagnostics.js';

// The golden pairs from arduino-cli (the fixtures' SOURCES.md).
const GOLDEN = fixture('arduino', 'compiler_outputs');
const golden = (name: string) => ({
  output: readFileSync(`${GOLDEN}/${name}`, 'utf8'),
  expected: JSON.parse(readFileSync(`${GOLDEN}/${name}.json`, 'utf8')) as unknown,
});

describe('gcc diagnostics', () => {
  it.each(['test001.txt', 'test002.txt'])('reproduces arduino-cli’s extraction for %s', (name) => {
    const { output, expected } = golden(name);
    expect(parseGccDiagnostics(output)).toEqual(expected);
  });

  it('turns a diagnostic into a finding at the sketch line with gcc’s suggestion', () => {
    const [, second] = parseGccDiagnostics(golden('test001.txt').output);
    expect(diagnosticToFinding(second)).toEqual({
      severity: 'error',
      message: "'asd' was not declared in this scope",
      file: '/home/megabug/Arduino/Blink/Blink.ino',
      line: 6,
      column: 1,
      suggestion: "suggested alternative: 'rand'",
      code: 'compile-error',
    });
  });

  it('treats a quoted command line as the start of another compiler run', () => {
    const output = [
      '/s/a.ino:3:1: error: boom',
      '"/usr/bin/avr-gcc" -c x.c -o x.o',
      'exit status 1',
    ].join('\n');
    expect(parseGccDiagnostics(output)).toEqual([{ severity: 'ERROR', message: 'boom', file: '/s/a.ino', line: 3, col: 1 }]);
  });
});
