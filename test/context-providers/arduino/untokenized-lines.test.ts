// The preprocessor's active lines of files it is told not to tokenize (tokensOf): passed over as a
// skipped group is, kept as runs of text, and each run's tokens() gives exactly the tokens the
// default reading makes there: text, kind, line, start of line, space before and file. Checked on
// the real cores' Arduino.h and everything it includes (as the serial-port reader follows them),
// under each board's own defines, and on a header made of what is hard for a lexer.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Token } from '../../../context-providers/arduino/c-tokens.js';
import { preprocess, type PreprocessOptions, type PreprocessResult } from '../../../context-providers/arduino/preprocessor.js';
import { compileDefines, isInside } from '../../../context-providers/arduino/variant-header.js';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import { resolveFqbn } from '../../../platform/arduino/resolve.js';
import { DATA_DIR_32BIT, TMP } from './paths.js';

const plain = (tokens: Token[]) => tokens.map(({ kind, text, line, bol, spaceBefore, file }) => ({ kind, text, line, bol, spaceBefore, file }));

/** The same reading with no file tokenized: every token is in a run, in order; the rest is the same. */
function expectSameReading(mains: string[], options: PreprocessOptions): PreprocessResult {
  const tokenized = preprocess(mains, options);
  const untokenized = preprocess(mains, { ...options, tokensOf: () => false });
  expect(tokenized.untokenized).toEqual([]);
  expect(untokenized.tokens).toEqual([]);
  expect(plain(untokenized.untokenized.flatMap((run) => run.tokens()))).toEqual(plain(tokenized.tokens));
  for (const run of untokenized.untokenized) expect(run.tokens().every((token) => token.file === run.file)).toBe(true);
  expect(untokenized.files).toEqual(tokenized.files);
  expect([...untokenized.macros.keys()]).toEqual([...tokenized.macros.keys()]);
  expect(untokenized.includes).toEqual(tokenized.includes);
  expect(untokenized.warnings).toEqual(tokenized.warnings);
  // Naming some files: theirs are tokens, as the default reading has them; the others' are runs.
  const first = tokenized.files[0];
  const some = preprocess(mains, { ...options, tokensOf: (file) => file !== first });
  expect(plain(some.tokens)).toEqual(plain(tokenized.tokens.filter((token) => token.file !== first)));
  expect(plain(some.untokenized.flatMap((run) => run.tokens()))).toEqual(plain(tokenized.tokens.filter((token) => token.file === first)));
  return tokenized;
}

describe('active lines kept as text', () => {
  const boards = [
    'arduino:avr:uno',
    'arduino:renesas_uno:minima',
    'rp2040:rp2040:rpipico',
    'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE',
    'arduino:samd:mkr1000',
    'arduino:mbed:envie_m7',
    'cm:esp32:ringo',
  ];
  for (const fqbn of boards) {
    test(`${fqbn}: the core's headers give the same tokens from their runs as read whole`, async () => {
      const installed = await discoverPlatforms(fqbn.startsWith('arduino:avr:') ? { dataDirs: [], sketchbookDirs: [], home: TMP } : { dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [], includeDebian: false, home: TMP });
      const board = resolveFqbn(fqbn, installed);
      const variantDir = board.variantPath;
      const result = expectSameReading([join(board.corePath, 'Arduino.h')], {
        defines: compileDefines(board),
        includeDirs: [board.corePath, ...(variantDir ? [variantDir] : [])],
        followSystem: true,
        follow: (path) => isInside(path, board.corePath) || (variantDir !== undefined && isInside(path, variantDir)),
      });
      // Real code was read: thousands of tokens in several files.
      expect(result.tokens.length).toBeGreaterThan(500);
      expect(result.files.length).toBeGreaterThan(3);
    });
  }

  test('until ends the reading at the first point with no #if open where it says so, in this file and the main files after it', () => {
    const dir = join(TMP, 'until');
    mkdirSync(dir, { recursive: true });
    const first = join(dir, 'first.h');
    const second = join(dir, 'second.h');
    const lines = [
      '#define EARLY 1',
      'int before;',
      '#if EARLY',
      'const int table[] = {',
      '#if EARLY',
      '  1,',
      '#endif',
      '  2 };',
      '#endif',
      '#define LATER 2',
      'int after;',
      '#if 1',
    ];
    writeFileSync(first, lines.join('\n') + '\n');
    writeFileSync(second, '#define SECOND 3\nint second;\n');
    const asked: number[] = [];
    const untilTable = (result: PreprocessResult): boolean => {
      asked.push(result.untokenized.length);
      return result.untokenized.some((run) => run.text.includes('table'));
    };
    const untokenized = preprocess([first, second], { defines: {}, includeDirs: [], follow: () => true, tokensOf: () => false, until: untilTable });
    // Asked after `#define EARLY`, after `int before;`, and after the #if group's #endif; never inside the group.
    expect(asked).toEqual([0, 1, 4]);
    expect(untokenized.untokenized.flatMap((run) => run.tokens()).map((token) => token.text).join(' ')).toBe('int before ; const int table [ ] = { 1 , 2 } ;');
    expect([...untokenized.macros.keys()]).toEqual(['EARLY']);
    expect(untokenized.files).toEqual([first]);
    // The #if left open after the stop is not read, so it is no warning.
    expect(untokenized.warnings).toEqual([]);
    // Tokenized, it is asked after directives: here it stops after `#define LATER`.
    const tokenized = preprocess([first, second], { defines: {}, includeDirs: [], follow: () => true, until: (result) => result.macros.has('LATER') });
    expect(tokenized.tokens.map((token) => token.text)).not.toContain('after');
    expect(tokenized.tokens.map((token) => token.text)).toContain('table');
    expect(tokenized.files).toEqual([first]);
  });

  test('splices, comments over lines, raw strings, literals and skipped groups: the same tokens and lines', () => {
    const dir = join(TMP, 'untokenized-lines');
    mkdirSync(dir, { recursive: true });
    const inner = join(dir, 'inner.h');
    const outer = join(dir, 'outer.h');
    const innerText = '#pragma once\nint inner_value = 1; /* a comment\n over two lines */ int after_comment;\n';
    writeFileSync(inner, innerText);
    const lines = [
      'extern int first; // a line comment with #define in it',
      '  int spliced = \\',
      '    2;',
      '#define SPLICED_MACRO(a) \\',
      '  ((a) + 1)',
      'const char *raw = R"x(line one',
      '#not a directive',
      'line three)x";',
      "char quote = '\"'; const char *text = \"#include <nothing.h>\";",
      '#if 0',
      'int skipped;',
      '#else',
      '   extern SerialThing Serial7',
      '     ;',
      '#endif',
      '#include "inner.h"',
      '/* a comment before code */ int last_value',
      '= SPLICED_MACRO(3);',
    ];
    writeFileSync(outer, lines.join('\n') + '\n');
    const result = expectSameReading([outer], { defines: {}, includeDirs: [dir], follow: () => true });
    expect(result.tokens.map((token) => token.text)).toContain('Serial7');
    expect(result.tokens.map((token) => token.text)).not.toContain('skipped');
    // Lines are those of the file as written, splices and comments over lines counted.
    const lineOf = (word: string) => lines.findIndex((line) => line.includes(word)) + 1;
    for (const word of ['last_value', 'Serial7', 'spliced', 'raw']) expect(result.tokens.find((token) => token.text === word)?.line, word).toBe(lineOf(word));
    expect(result.tokens.find((token) => token.text === 'after_comment')?.line).toBe(innerText.split('\n').findIndex((line) => line.includes('after_comment')) + 1);
  });
});
