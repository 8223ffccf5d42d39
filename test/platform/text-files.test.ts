// Platform files read as text: decodeText copies plain ASCII as latin1 and decodes anything else
// as UTF-8, and readRegularFileSync(file, 'utf8') reads large files as bytes then decodes them.
// Either way the text must be what Node's own UTF-8 reading gives, byte for byte: ASCII, UTF-8
// (a board named "Arduino UNO R4 — Minima"), bytes that are not UTF-8, a BOM, and NUL, on both
// sides of the size where the way of reading changes, and in pieces that end at line ends (a large
// boards.txt). Checked on the installed boards.txt files too.
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeText, readRegularFileSync, readRegularTextPiecesSync, readTextSync } from '../../platform/regular-file.js';
import { installedBoardsFiles } from '../support/boards-files.js';

const dir = join(process.cwd(), '.tmp', 'text-files');

describe('platform files read as text', () => {
  const samples: Array<[string, Buffer]> = [
    ['empty', Buffer.alloc(0)],
    ['ASCII', Buffer.from('uno.name=Arduino Uno\nuno.build.mcu=atmega328p\n')],
    ['UTF-8', Buffer.from('minima.name=Arduino UNO R4 — Minima ✓ Ω\n')],
    ['bytes that are not UTF-8', Buffer.from([0x61, 0x3d, 0xff, 0xfe, 0x80, 0x0a, 0xc3, 0x28, 0xe2, 0x82])],
    ['a BOM', Buffer.from('\ufeffuno.name=Uno\n')],
    ['NUL and control bytes', Buffer.from([0x61, 0x00, 0x01, 0x7f, 0x0a])],
    ['one byte above ASCII alone', Buffer.from([0x80])],
  ];

  test.each(samples)('%s: decodeText gives what toString("utf8") gives', (_name, bytes) => {
    expect(decodeText(bytes)).toBe(bytes.toString('utf8'));
  });

  test.each(samples)('%s, small and repeated past the size where files are read as bytes: the same text as readFileSync(file, "utf8")', (name, bytes) => {
    mkdirSync(dir, { recursive: true });
    for (const [size, content] of [['small', bytes], ['large', Buffer.concat(Array.from({ length: Math.ceil(40_000 / Math.max(1, bytes.length)) }, () => bytes))]] as const) {
      const file = join(dir, `${name.replace(/\W+/g, '-')}-${size}.txt`);
      writeFileSync(file, content);
      const expected = readFileSync(file, 'utf8');
      expect(readRegularFileSync(file, 'utf8')).toBe(expected);
      const fd = openSync(file, 'r');
      try {
        expect(readTextSync(fd, fstatSync(fd))).toBe(expected);
      } finally {
        closeSync(fd);
      }
    }
  });

  test("every installed boards.txt (pico's 3 MB, stm32duino's 1 MB) reads as Node reads it", () => {
    const files = installedBoardsFiles();
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const file of files) {
      expect(readRegularFileSync(file, 'utf8'), file).toBe(readFileSync(file, 'utf8'));
      expect(decodeText(readFileSync(file)), file).toBe(readFileSync(file, 'utf8'));
      expectPieces(file, 256 * 1024);
    }
  });

  test.each(samples)('%s, repeated, read in pieces of a few bytes (a line longer than a piece makes the buffer grow) and of a few KB', (name, bytes) => {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${name.replace(/\W+/g, '-')}-pieces.txt`);
    // Lines of the sample's bytes, and lines of up to 40 of them: some far longer than a piece.
    writeFileSync(file, Buffer.concat(Array.from({ length: 60 }, (_, index) => Buffer.concat([...Array.from({ length: index % 41 }, () => bytes), Buffer.from(index % 7 ? '\n' : '\r\n')]))));
    for (const pieceBytes of [1, 3, 64, 4096]) expectPieces(file, pieceBytes);
  });
});

/** The pieces are the text readFileSync(file, 'utf8') gives, and each but the last ends a line. */
function expectPieces(file: string, pieceBytes: number): void {
  const pieces = readRegularTextPiecesSync(file, pieceBytes);
  expect(pieces.join(''), `${file} in pieces of ${pieceBytes}`).toBe(readFileSync(file, 'utf8'));
  for (const piece of pieces.slice(0, -1)) expect(piece.endsWith('\n')).toBe(true);
  if (readFileSync(file).length > pieceBytes) expect(pieces.length).toBeGreaterThan(1);
}
