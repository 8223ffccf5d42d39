// The lexer's WebAssembly scanner (c-tokens.wat) decides what its JavaScript scan decides, which
// is what runs where WebAssembly is not available (node --jitless) and for short texts: the same
// tokens (kind, text, line, start of a line, space before, offset), the same lines passed over by
// restOfLine and nextDirective, and the same stretches (Lexer.between). Checked on every header and
// source file of the real cores, their libraries and examples, and of Debian's Arduino, and on
// seeded texts made of the hard cases: literals with encoding prefixes and escapes, raw strings,
// digit separators, comments, line splices, digraphs, code units above ASCII and surrogate pairs,
// NUL, and literals and comments left open at the end.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { Lexer, scanWithWebAssemblyFrom } from '../../../context-providers/arduino/c-tokens.js';
import { seeded } from '../../support/seeded-random.js';
import { DATA_DIR_32BIT } from './paths.js';

type Step = 'next' | 'restOfLine' | 'nextDirective';
const STEPS: Step[] = ['next', 'next', 'restOfLine', 'nextDirective'];

/**
 * What a lexer over `text` gives, one line per token, scanning with WebAssembly or not: `next` for
 * every token when `seed` is undefined, else a seeded mix of next, restOfLine and nextDirective (the
 * same mix on both sides); then the tokens of a few stretches between line starts.
 */
function trace(text: string, wasm: boolean, seed?: number): string[] {
  const before = scanWithWebAssemblyFrom(wasm ? 0 : Infinity);
  try {
    const lexer = new Lexer(text, 'f');
    expect(Reflect.get(lexer, 'scanner') !== undefined).toBe(wasm);
    const random = seed === undefined ? undefined : seeded(seed);
    const out: string[] = [];
    const show = (step: string, token: { kind: string; text: string; line: number; bol: boolean; spaceBefore?: boolean }, offset: number): string =>
      `${step} ${token.kind} ${JSON.stringify(token.text)} line ${token.line} bol ${token.bol} space ${token.spaceBefore} at ${offset}`;
    let step: Step = 'next';
    for (let token = lexer.next(); token; ) {
      out.push(show(step, token, lexer.offset));
      step = random ? STEPS[Math.floor(random() * STEPS.length)] : 'next';
      token = lexer[step]();
    }
    out.push(`end of ${lexer.length}`);
    // Stretches between line starts, as the preprocessor makes them of lines it reads untokenized.
    const whole = new Lexer(text, 'f');
    const starts: number[] = [];
    for (let token = whole.next(); token; token = whole.next()) if (token.bol) starts.push(whole.offset);
    starts.push(whole.length);
    for (let index = 0; index + 1 < starts.length; index += Math.max(1, Math.floor(starts.length / 5))) {
      const end = starts[Math.min(index + 3, starts.length - 1)];
      const stretch = whole.between(starts[index], end);
      out.push(`stretch ${starts[index]}-${end}`, ...stretch.tokens().map((token) => show('stretch', token, -1)));
    }
    return out;
  } finally {
    scanWithWebAssemblyFrom(before);
  }
}

/** The source files under `dir`; symbolic links are not followed (Debian's tools/avr/bin/X11 is one to /usr/bin, which holds it). */
function sourceFiles(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stats = lstatSync(path);
    if (stats.isDirectory()) sourceFiles(path, into);
    else if (/\.(h|hh|hpp|c|cc|cpp|inc|ino|pde|S)$/.test(name)) into.push(path);
  }
  return into;
}

test('every header and source file of the real cores, their libraries and examples, and of Debian Arduino: the same tokens', () => {
  let files = 0;
  const differing: string[] = [];
  for (const root of ['/usr/share/arduino', join(DATA_DIR_32BIT, 'packages')]) {
    for (const file of sourceFiles(root)) {
      files++;
      const text = readFileSync(file, 'utf8');
      for (const seed of [undefined, files]) {
        const js = trace(text, false, seed);
        const wasm = trace(text, true, seed);
        const at = js.findIndex((line, index) => line !== wasm[index]);
        if (at >= 0 || js.length !== wasm.length) differing.push(`${file} (${seed === undefined ? 'next' : `mix ${seed}`}): ${js[at] ?? '(end)'} | ${wasm[at] ?? '(end)'}`);
      }
    }
  }
  expect(files).toBeGreaterThan(2500);
  expect(differing).toEqual([]);
}, 600_000);

/** Pieces of C and C++ that a scanner can get wrong, and what surrounds them. */
const PIECES = [
  'int', 'x_1', '$a', 'R', 'u8', 'u', 'U', 'L', 'LR', 'uR', 'u8R', 'UR', 'e', 'p', '_', 'é', 'Ω', '—', '\u{1F600}', '\ud800',
  ' ', '  ', '\t', '\n', '\n', '\n', '\r\n', '\r', '\f', '\v', '\0', '\\\n', '\\\r\n', '\\',
  '0', '7', '1\'000', '0x1F', '0b101', '1e+5', '1E-3', '0x1p-3', '1.5', '.5', '.', '..', '...', "1'", "1'_", '12u8', '1.e+', '0xe+1',
  '"', "'", '"str\\"ing"', '"a\\\nb"', '"\\\\"', "'c'", "'\\''", "'\\n'", 'u8"a"', 'u"b"', 'U\'x\'', 'L"w"', "u8'c'", 'Lx"',
  'R"(raw\nline)"', 'R"d(x)"y)d"', 'u8R"(', 'LR"x(', ')x"', ')"', 'R"', 'R"abc', 'uR"()"',
  '//', '// c "q\' /*\n', '/*', '*/', '/* c\n */', '/', '/=', '*', '**/',
  '#', '##', '#define X(a) a##b', '#if 0', '#if 1', '#else', '#elif X', '#endif', '# include "x.h"', '  #  else', '#x', '%:', '%:%:', '%:%',
  '<::', '<:', ':>', '<%', '%>', '<=>', '<<=', '>>=', '->*', '->', '--', '-=', '++', '+=', '&&', '&=', '||', '|=', '::', '==', '!=', '^=', '%=', '~', '?', ';', ',', '{', '}', '(', ')', '[', ']', '@', '`',
];

/** A text of up to `pieces` pieces chosen by `random`. */
function madeText(random: () => number, pieces: number): string {
  let text = '';
  const count = Math.floor(random() * pieces);
  for (let index = 0; index < count; index++) text += PIECES[Math.floor(random() * PIECES.length)];
  return text;
}

test('2,000 seeded texts of the hard cases: the same tokens, lines passed over and stretches', () => {
  const random = seeded(0xc70c);
  const differing: string[] = [];
  for (let round = 0; round < 2000; round++) {
    const text = madeText(random, 300);
    for (const seed of [undefined, round]) {
      const js = trace(text, false, seed);
      const wasm = trace(text, true, seed);
      const at = js.findIndex((line, index) => line !== wasm[index]);
      if (at >= 0 || js.length !== wasm.length) differing.push(`${JSON.stringify(text)} (${seed === undefined ? 'next' : `mix ${seed}`}): ${js[at] ?? '(end)'} | ${wasm[at] ?? '(end)'}`);
    }
    if (differing.length >= 5) break;
  }
  expect(differing).toEqual([]);
}, 600_000);

test('texts scanned one after another and in turn share the scanner: each lexer reads its own text', () => {
  const before = scanWithWebAssemblyFrom(0);
  try {
    const a = new Lexer('#define A 1\nint a = A;\n', 'a');
    const b = new Lexer('#define B 2\nlong bb = B + 1;\n', 'b');
    const both: string[] = [];
    for (let ta = a.next(), tb = b.next(); ta || tb; ta = a.next(), tb = b.next()) both.push(`${ta?.text ?? ''}|${tb?.text ?? ''}`);
    expect(both).toEqual(['#|#', 'define|define', 'A|B', '1|2', 'int|long', 'a|bb', '=|=', 'A|B', ';|+', '|1', '|;']);
    // A text longer than the scanner's memory holds grows it; the shorter texts after it read as before.
    const long = `${'x'.repeat(200_000)} y\n`;
    expect(new Lexer(long, 'l').next()?.text).toHaveLength(200_000);
    expect(a.between(0, 12).tokens().map((token) => token.text)).toEqual(['#', 'define', 'A', '1']);
  } finally {
    scanWithWebAssemblyFrom(before);
  }
});
