// Every token's line is the line of the original file its first character is on: counted while
// the lexer scans (newlines, comments over lines, literals holding a newline, line splices), and
// checked here against a count made apart from the lexer, character by character, on every header
// and source file of the real cores and the Debian AVR core, and on a file made of the hard cases.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { Lexer } from '../../../context-providers/arduino/c-tokens.js';
import { DATA_DIR_32BIT, DEBIAN_AVR } from './paths.js';

/** For each character of the text with its splices removed, the line of the original file it came from. */
function originalLines(source: string): number[] {
  const lines: number[] = [];
  let line = 1;
  for (let index = 0; index < source.length; index++) {
    const c = source[index];
    if (c === '\\' && source[index + 1] === '\n') {
      line++;
      index++;
      continue;
    }
    if (c === '\\' && source[index + 1] === '\r' && source[index + 2] === '\n') {
      line++;
      index += 2;
      continue;
    }
    lines.push(line);
    if (c === '\n') line++;
  }
  return lines;
}

/** Tokens whose line is not the line their first character came from. */
function wrongLines(source: string): string[] {
  const expected = originalLines(source);
  const lexer = new Lexer(source, 'x');
  const wrong: string[] = [];
  for (let token = lexer.next(); token; token = lexer.next()) {
    if (token.line !== expected[lexer.offset]) wrong.push(`${token.text} at ${lexer.offset}: line ${token.line}, not ${expected[lexer.offset]}`);
  }
  // A stretch read again (Lexer.between) counts from its own start.
  const whole = new Lexer(source, 'x');
  const starts: number[] = [];
  for (let token = whole.next(); token; token = whole.next()) if (token.bol) starts.push(whole.offset);
  for (let index = 1; index < starts.length; index += Math.max(1, Math.floor(starts.length / 7))) {
    const stretch = whole.between(starts[index], starts[Math.min(index + 3, starts.length - 1)]);
    const again = new Lexer(source, 'x');
    const reference = [];
    for (let token = again.next(); token; token = again.next()) if (again.offset >= starts[index] && again.offset < starts[Math.min(index + 3, starts.length - 1)]) reference.push(token.line);
    const lines = stretch.tokens().map((token) => token.line);
    if (JSON.stringify(lines) !== JSON.stringify(reference)) wrong.push(`stretch from ${starts[index]}: lines ${lines.join(',')}, not ${reference.join(',')}`);
  }
  return wrong;
}

function sourceFiles(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stats = statSync(path);
    if (stats.isDirectory()) sourceFiles(path, into);
    else if (/\.(h|hpp|c|cpp|inc)$/.test(name)) into.push(path);
  }
  return into;
}

test('a file of the hard cases: comments and raw strings over lines, escaped newlines in literals, splices inside tokens and comments', () => {
  const source = [
    '#define A 1 /* a comment',
    '   over two lines */ int b;',
    'const char *raw = R"x(one',
    'two',
    'three)x"; int after_raw;',
    'const char *escaped = "a\\',
    'b"; int after_escape;',
    'int spl\\',
    'iced = 2; // a comment \\',
    '   continued by a splice',
    'int next_line;',
    '#define LONG(x) \\',
    '  ((x) + \\\r',
    '   1)',
    "char c = '\\n'; u8R\"(",
    ')"; L\'x\'; /**/ /*',
    '*/ end',
    '',
  ].join('\n');
  expect(wrongLines(source)).toEqual([]);
});

test('every header and source file of the real cores: each token on its own line', () => {
  const roots = [DEBIAN_AVR, join(DATA_DIR_32BIT, 'packages')];
  let files = 0;
  const wrong: string[] = [];
  for (const root of roots) {
    for (const file of sourceFiles(root)) {
      files++;
      const problems = wrongLines(readFileSync(file, 'utf8'));
      if (problems.length > 0) wrong.push(`${file}: ${problems.slice(0, 3).join('; ')}`);
    }
  }
  expect(files).toBeGreaterThan(1000);
  expect(wrong).toEqual([]);
}, 600_000);
