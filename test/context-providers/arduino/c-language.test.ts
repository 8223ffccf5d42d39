import { describe, expect, test } from 'vitest';
import { compileExpression, evaluate, parseIntegerLiteral } from '../../../context-providers/arduino/c-expression.js';
import { tokenize } from '../../../context-providers/arduino/c-tokens.js';
import { expandMacros, preprocess, type Macro } from '../../../context-providers/arduino/preprocessor.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TMP } from './paths.js';

const texts = (source: string) => tokenize(source).map((token) => token.text);

describe('the C tokenizer', () => {
  test('comments, strings, char literals and raw strings never yield identifiers', () => {
    const source = 'a /* analogWrite(7) */ "x // y" \'"\' R"d(analogWrite(")d" u8"z" // analogWrite\nb';
    expect(tokenize(source).filter((token) => token.kind === 'identifier').map((token) => token.text)).toEqual(['a', 'b']);
  });

  test('lines count from the original text across splices and block comments', () => {
    const tokens = tokenize('#define X \\\n  1\n/* two\nlines */ y\n"s" z');
    expect(tokens.map((token) => [token.text, token.line, token.bol])).toEqual([
      ['#', 1, true], ['define', 1, false], ['X', 1, false], ['1', 2, false], ['y', 4, true], ['"s"', 5, true], ['z', 5, false],
    ]);
  });

  test('punctuators take the longest match and numbers keep suffixes and separators', () => {
    expect(texts('a<<=b->c...d')).toEqual(['a', '<<=', 'b', '->', 'c', '...', 'd']);
    expect(texts("16000000L 0x1Fu 1'000 1.5e-3")).toEqual(['16000000L', '0x1Fu', "1'000", '1.5e-3']);
    // Every punctuator of C++ (and its digraphs), each read whole between spaces and run together with an identifier.
    const all = ['%:%:', '...', '<<=', '>>=', '->*', '<=>', '##', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '->', '::', '.*', '<:', ':>', '<%', '%>', '%:', '#', '{', '}', '[', ']', '(', ')', ';', ':', '?', '.', '~', '!', '+', '-', '*', '/', '%', '^', '&', '|', '=', '<', '>', ','];
    expect(texts(all.join(' '))).toEqual(all);
    expect(texts(all.map((p) => `a${p}`).join(' '))).toEqual(all.flatMap((p) => ['a', p]));
  });

  test('an identifier runs over letters, digits, _ and $ and any character above U+007F, to the first other one', () => {
    expect(texts('_a1$b\u00e9\u4e2d\ud83d\ude00z+x9 9x Serial1.begin')).toEqual(['_a1$b\u00e9\u4e2d\ud83d\ude00z', '+', 'x9', '9x', 'Serial1', '.', 'begin']);
    expect(tokenize('ab\u007fc').map((token) => [token.text, token.kind])).toEqual([['ab', 'identifier'], ['\u007f', 'punct'], ['c', 'identifier']]);
  });

  test('a skipped #if group is still read as the compiler does: comments and raw strings hide directives in it', () => {
    const dir = join(TMP, 'skipped-group');
    mkdirSync(dir, { recursive: true });
    const header = join(dir, 'skipped.h');
    writeFileSync(header, [
      '#if 0', 'int skipped = 1\'2; /* a comment', '#endif', 'still the comment */', "char c = '#';", 'const char *r = R"x(', '#endif', '#define IN_RAW 1', ')x";',
      '#define SKIPPED 1', '#else', '#define TAKEN 2', '#endif', '#ifndef TAKEN', '#define NOT_TAKEN', '#elif TAKEN == 2', 'int after;', '#endif',
    ].join('\n'));
    const result = preprocess([header], { defines: {}, includeDirs: [], follow: () => false });
    expect([...result.macros.keys()]).toEqual(['TAKEN']);
    expect(result.tokens.map((token) => [token.text, token.line])).toEqual([['int', 17], ['after', 17], [';', 17]]);
    expect(result.warnings).toEqual([]);
  });
});

describe('constant expressions and macros', () => {
  const define = (name: string, body: string, params?: string[]): [string, Macro] => [name, { name, params, body: tokenize(body) }];
  const macros = new Map<string, Macro>([
    define('NOT_AN_INTERRUPT', '-1'),
    define('digitalPinToInterrupt', '((p) == 2 ? 0 : ((p) == 3 ? 1 : NOT_AN_INTERRUPT))', ['p']),
    define('SELF', 'SELF + 1'),
    define('CAT', 'a ## b', ['a', 'b']),
  ]);
  const value = (text: string) => {
    const result = evaluate(expandMacros(tokenize(text), macros), { identifier: () => undefined, unknownIsZero: false });
    return result.ok ? Number(result.value) : result.reason;
  };

  test('function-like macros expand with their arguments and nested macros', () => {
    expect(value('digitalPinToInterrupt(2)')).toBe(0);
    expect(value('digitalPinToInterrupt(3)')).toBe(1);
    expect(value('digitalPinToInterrupt(4)')).toBe(-1);
  });

  test('a macro that names itself stops expanding and the unknown rest makes the value unknown', () => {
    expect(expandMacros(tokenize('SELF'), macros).map((token) => token.text)).toEqual(['SELF', '+', '1']);
    expect(value('SELF')).toContain('"SELF"');
  });

  test('an unknown name only matters on the branch that is taken', () => {
    expect(value('1 ? 5 : UNKNOWN')).toBe(5);
    expect(value('0 && UNKNOWN')).toBe(0);
  });

  test('an expression parsed once gives, in each scope, what evaluating its tokens there gives', () => {
    const tokens = expandMacros(tokenize('digitalPinToInterrupt(P) + (uint8_t)(OTHER << 4) / D'), macros);
    const compiled = compileExpression(tokens);
    const scopes = [
      { P: 2n, OTHER: 1n, D: 2n },
      { P: 3n, OTHER: 255n, D: 1n },
      { P: 9n, OTHER: 16n, D: 3n },
      { P: 2n, OTHER: 1n, D: 0n },
      { P: 2n, D: 1n },
    ].map((values) => ({ identifier: (name: string) => new Map(Object.entries(values)).get(name), unknownIsZero: false }));
    for (const scope of scopes) expect(compiled(scope)).toEqual(evaluate(tokens, scope));
    expect(compiled(scopes[0])).toEqual({ ok: true, value: 8n });
    expect(compiled(scopes[3])).toEqual({ ok: false, reason: 'division by zero' });
    expect(compiled(scopes[4])).toEqual({ ok: false, reason: '"OTHER" has no known value' });
    expect(compiled({ identifier: () => undefined, unknownIsZero: true })).toEqual({ ok: false, reason: 'division by zero' });
    expect(compileExpression(tokenize('1 +'))({ identifier: () => undefined, unknownIsZero: false })).toEqual({ ok: false, reason: 'expression ends early' });
    expect(compileExpression(tokenize('(1 2'))({ identifier: () => undefined, unknownIsZero: false })).toEqual({ ok: false, reason: 'expected ")" but found "2"' });
  });

  test('## pastes and casts truncate to the named width', () => {
    expect(expandMacros(tokenize('CAT(PIN_, A0)'), macros).map((token) => token.text)).toEqual(['PIN_A0']);
    expect(value('(uint8_t)-1')).toBe(255);
    expect(value("'A' + 1")).toBe(66);
    expect(parseIntegerLiteral('0b101')).toBe(5n);
    expect(parseIntegerLiteral('017')).toBe(15n);
  });
});

describe('the preprocessor reads each file as gcc would', () => {
  // readVariantHeader reads Arduino.h, then the variant header, which Arduino.h includes already:
  // with `#pragma once` it is not read twice (its tokens and macros are there once, from the include).
  test('a main file that an earlier one included, and that said #pragma once, is not read again', () => {
    const dir = join(TMP, 'pragma-once-main');
    mkdirSync(dir, { recursive: true });
    const pins = join(dir, 'pins.h');
    const main = join(dir, 'main.h');
    const guarded = join(dir, 'guarded.h');
    writeFileSync(pins, '#pragma once\n#define LED 13\nconst int led_pin = LED;\n');
    writeFileSync(guarded, '#ifndef GUARDED_H\n#define GUARDED_H\nint guarded_value;\n#endif\n');
    writeFileSync(main, '#include "pins.h"\n#include "guarded.h"\nint main_value;\n');
    const result = preprocess([main, pins, guarded], { defines: {}, includeDirs: [], follow: () => true });
    expect(result.tokens.filter((token) => token.text === 'led_pin').map((token) => [token.file, token.line])).toEqual([[pins, 3]]);
    expect(result.tokens.filter((token) => token.text === 'guarded_value')).toHaveLength(1);
    expect(result.files).toEqual([main, pins, guarded, guarded]);
    // Not included before it, a #pragma once file named as a main file is read.
    const alone = preprocess([pins], { defines: {}, includeDirs: [], follow: () => false });
    expect(alone.tokens.filter((token) => token.text === 'led_pin')).toHaveLength(1);
    expect(alone.macros.get('LED')?.body.map((token) => token.text)).toEqual(['13']);
  });

  // A directive's arguments are read where they are used: a skipped group's directives only nest,
  // #else and #endif take none (gcc ignores what follows them, with a warning), and an #elif is
  // evaluated only while its group has taken no branch. What follows such a line is read as it comes.
  test('the words after #else and #endif and in skipped groups are not code, and the lines after them are', () => {
    const dir = join(TMP, 'directive-arguments');
    mkdirSync(dir, { recursive: true });
    const header = join(dir, 'args.h');
    writeFileSync(
      header,
      [
        '#if 0',
        '#if broken ((( "unterminated',
        '#define HIDDEN 1',
        '#endif hidden_after_endif',
        '#elif 1',
        '#define SHOWN 2',
        '#elif never_evaluated(',
        '#define NOT_SHOWN 3',
        '#else else_words',
        '#define NOT_SHOWN_EITHER 4',
        '#endif endif_words',
        'int first;',
        'int second;',
        '#ifdef NOT_DEFINED',
        '#else extra',
        'int third;',
        '#endif /* a comment that goes on',
        'to the next line */ inside_the_directive',
        'int fourth; \\',
        'spliced;',
        '#',
        'int fifth;',
      ].join('\n') + '\n',
    );
    const result = preprocess([header], { defines: {}, includeDirs: [], follow: () => false });
    expect(result.tokens.map((token) => [token.text, token.line])).toEqual([
      ['int', 12], ['first', 12], [';', 12],
      ['int', 13], ['second', 13], [';', 13],
      ['int', 16], ['third', 16], [';', 16],
      ['int', 19], ['fourth', 19], [';', 19], ['spliced', 20], [';', 20],
      ['int', 22], ['fifth', 22], [';', 22],
    ]);
    expect([...result.macros.keys()]).toEqual(['SHOWN']);
    expect(result.warnings).toEqual([]);
  });
});
