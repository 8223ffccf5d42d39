// loadGroupedWithLocal reads boards.txt (and boards.local.txt) group by group without making the
// whole map. It must give what the whole map's firstLevelGroups gives: the same groups in the same
// order, the same keys in each, in order, with their values and file:line, and the same warnings.
// Checked on every boards.txt installed here and in the fixtures, on the format's corners and on
// random files, with both of its readers: the byte scanner (properties-scan.wat, for a boards.txt
// larger than a piece) and the text reader (smaller files, and runtimes without WebAssembly).
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { loadGroupedWithLocal, loadWithLocal, type FirstLevelGroups, type OsSuffix } from '../../../platform/arduino/properties.js';
import { installedBoardsFiles } from '../../support/boards-files.js';
import { fixture } from '../../support/fixtures.js';

function described(groups: FirstLevelGroups): Array<[string, Array<[string, string, unknown]>]> {
  return [...groups.keys()].map((head) => {
    const group = groups.get(head)!;
    return [head, [...group.entries()].map(([key, value]) => [key, value, group.source(key)] as [string, string, unknown])];
  });
}

/** Both readers (the byte scanner, properties-scan.wat, and the text reader it falls back to) against the whole map. */
function expectSame(dir: string, os: OsSuffix = 'linux', pieceBytes?: number): number {
  const whole = loadWithLocal(dir, 'boards', os);
  const expected = whole.properties.firstLevelGroups();
  for (const scanner of ['bytes', 'text'] as const) {
    const grouped = loadGroupedWithLocal(dir, 'boards', os, pieceBytes, scanner);
    // Asked for one group first, as a context does, then for the order and every group.
    const first = [...expected.keys()][0];
    if (first !== undefined) expect([...grouped.groups.get(first)!.entries()]).toEqual([...expected.get(first)!.entries()]);
    expect(grouped.groups.size).toBe(expected.size);
    expect(described(grouped.groups)).toEqual(described(expected));
    expect(grouped.warnings).toEqual(whole.warnings);
  }
  return expected.size;
}

const scratch = mkdtempSync(join(tmpdir(), 'bb-grouped-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('boards.txt read group by group', () => {
  const installed = installedBoardsFiles();

  test('gives every installed boards.txt as the whole map does (Debian, the fixtures\' 32-bit platforms, stm32duino, esp8266)', () => {
    expect(installed.length).toBeGreaterThanOrEqual(10);
    let groups = 0;
    for (const file of installed) groups += expectSame(dirname(file));
    // 391 groups here: pico's boards.txt alone has 152 boards.
    expect(groups).toBeGreaterThan(350);
  });

  test('with a boards.local.txt merged over it', () => {
    const dir = join(scratch, 'local');
    cpSync(dirname(installed.find((file) => file.includes('/arduino/hardware/avr/'))!), dir, { recursive: true });
    cpSync(fixture('arduino', 'local_txts', 'boards.local.txt'), join(dir, 'boards.local.txt'));
    expectSame(dir);
  });

  test.each<[string, string, string?]>([
    ['a key set again moves its group after the others', 'a.x=1\nb.y=2\na.x=3\nc.z=4\n'],
    ['a group keeps its place while one of its keys is set once', 'a.x=1\na.w=0\nb.y=2\na.x=3\n'],
    ["the running OS's suffix, an undotted key left by it, and another OS's key", 'uno.name.linux=L\nuno.name=plain\nmenu.linux=x\nuno.cmd.windows=w\nuno.upload.tool.linux=avrdude\n'],
    ['CRLF and lone CR line ends, blank lines, comments, odd spaces', '# c\r\n\r\n  uno.name = Uno \r\n\u00a0mega.name=Mega\u3000\rnano.x = y\n\t#x.y=z\n'],
    ['malformed lines, keys with no head, values holding = and dots', 'uno.name=A=B\nthis is broken\n.x=1\n=v\nplain=1\nfoo .bar = 2\nuno.cmd=a.b.c\n'],
    ['the same key in boards.txt and boards.local.txt, and a group only the local file has', 'uno.name=Uno\nmega.name=Mega\n', 'uno.name=Local Uno\nextra.name=Extra\nmega.x=1\n'],
    ['runs of one group broken by a malformed line, the undotted key, an indented line, a look-alike head and the end without a newline', 'uno.a=1\nuno.b=2\nuno.broken\nuno.c=3\nuno.linux = L\nuno.d=4\n  uno.e=5\nunox.f=6\nuno.g=7\nuno.linux.h=8\nuno.i=9'],
    ['heads that are patterns, and one that holds a space', 'a+b.x=1\na+b.y=2\naab.z=3\n(x.q=1\n(x.r=2\nmy board.name=M\nmy board.id=3\nmy boardx.k=4\n'],
    ['no file at all', ''],
  ])('%s', (_name, text, local) => {
    const dir = mkdtempSync(join(scratch, 'case-'));
    if (text !== '') writeFileSync(join(dir, 'boards.txt'), text);
    if (local !== undefined) writeFileSync(join(dir, 'boards.local.txt'), local);
    expectSame(dir);
    expectSame(dir, 'windows');
    // Read in pieces of a few bytes: most lines end a piece, and a longer line makes the buffer grow.
    expectSame(dir, 'linux', 8);
    expectSame(dir, 'windows', 5);
  });

  test("pico's 3 MB boards.txt, read in pieces, with malformed lines, CRLF line ends and UTF-8 names deep in it", () => {
    const pico = installed.find((file) => file.includes('/rp2040/'))!;
    const lines = readFileSync(pico, 'latin1').split('\n');
    expect(lines.length).toBeGreaterThan(40_000);
    // Past several pieces of 256 KB: a malformed line, a board name in UTF-8, and a stretch of CRLF lines.
    lines.splice(30_000, 0, 'this line is broken');
    lines.splice(35_000, 0, 'rpipico.name=Raspberry Pi Pico — ✓');
    for (let index = 38_000; index < 38_100; index++) lines[index] += '\r';
    const dir = mkdtempSync(join(scratch, 'pico-'));
    writeFileSync(join(dir, 'boards.txt'), lines.join('\n'));
    expect(expectSame(dir)).toBe(152);
    expect(loadGroupedWithLocal(dir, 'boards', 'linux').warnings).toEqual([expect.objectContaining({ code: 'properties-malformed-line', line: 30_001 })]);
    // Pieces of 4 KB: some hundreds of them.
    expectSame(dir, 'linux', 4096);
  });

  test('random files of the characters the format turns on: spaces of every kind, dots, =, #, line ends, the OS suffix, UTF-8', () => {
    // A fixed sequence (xorshift), so a failure names a file that can be made again.
    let seed = 0x2545f491;
    const next = (below: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % below;
    };
    const parts = ['uno', 'uno', 'mega', 'a b', '.', '.', '=', '=', '#', ' ', '\t', '\v', '\f', '\u00a0', '\u3000', '\ufeff', '\u2028', 'linux', '.linux', 'windows', 'x', 'é', '✓', '\u0000'];
    const ends = ['\n', '\n', '\n', '\r\n', '\r'];
    const dir = mkdtempSync(join(scratch, 'random-'));
    for (let file = 0; file < 150; file++) {
      let text = '';
      const lines = 1 + next(30);
      for (let line = 0; line < lines; line++) {
        const length = next(8);
        for (let part = 0; part < length; part++) text += parts[next(parts.length)];
        if (line < lines - 1 || next(2) === 0) text += ends[next(ends.length)];
      }
      writeFileSync(join(dir, 'boards.txt'), text);
      rmSync(join(dir, 'boards.local.txt'), { force: true });
      if (next(4) === 0) writeFileSync(join(dir, 'boards.local.txt'), 'uno.x=local\r\nmega .y = 2\n');
      try {
        expectSame(dir, next(2) === 0 ? 'linux' : 'windows', 1 + next(40));
      } catch (error) {
        throw new Error(`random boards.txt ${file}: ${JSON.stringify(text)}: ${String(error)}`);
      }
    }
  });
});

describe('the byte scanner reads a group when it is asked for', () => {
  const installed = installedBoardsFiles();
  const pico = installed.find((file) => file.includes('/rp2040/'))!;

  /** A copy of pico's boards.txt (3 MB: the byte scanner reads it) with rpipico's name made `name`. */
  function picoWithName(dir: string, name: string): string {
    const file = join(dir, 'boards.txt');
    writeFileSync(file, readFileSync(pico, 'latin1').replace('rpipico.name=Raspberry Pi Pico\n', `rpipico.name=${name}\n`), 'latin1');
    return file;
  }

  test('from the file as it is then: a boards.txt changed after the scan gives its new lines, not a mix', () => {
    const dir = mkdtempSync(join(scratch, 'changed-'));
    const file = picoWithName(dir, 'Raspberry Pi Pico');
    expect(statSync(file).size).toBeGreaterThan(256 * 1024);
    const grouped = loadGroupedWithLocal(dir, 'boards', 'linux');
    const text = loadGroupedWithLocal(dir, 'boards', 'linux', undefined, 'text');
    // The same length, and the modification time put back: the change is still seen (ctime, which no one sets back).
    const { atime, mtime } = statSync(file);
    picoWithName(dir, 'Raspberry Pi Pica');
    utimesSync(file, atime, mtime);
    expect(grouped.groups.get('rpipico')!.get('name')).toBe('Raspberry Pi Pica');
    expect(grouped.groups.get('rpipico')!.source('name')).toEqual({ file, line: expect.any(Number) });
    expect(described(grouped.groups)).toEqual(described(loadWithLocal(dir, 'boards', 'linux').properties.firstLevelGroups()));
    // The text reader keeps the text it read.
    expect(text.groups.get('rpipico')!.get('name')).toBe('Raspberry Pi Pico');
  });

  test('a line far longer than a piece is read whole, and the scans after it read as before', () => {
    // 300 KB of value in pieces of 1 KB: the scanner's memory grows some hundreds of times over, and is dropped after.
    const dir = mkdtempSync(join(scratch, 'long-line-'));
    writeFileSync(join(dir, 'boards.txt'), `uno.name=Uno\nuno.long=${'x='.repeat(150_000)}\nbroken line\nmega.name=Mega\n`);
    expectSame(dir, 'linux', 1024);
    const picoDir = mkdtempSync(join(scratch, 'after-long-'));
    picoWithName(picoDir, 'Raspberry Pi Pico');
    expectSame(picoDir);
  });

  test('a group asked for again is the one made the first time', () => {
    const dir = mkdtempSync(join(scratch, 'again-'));
    picoWithName(dir, 'Raspberry Pi Pico');
    const grouped = loadGroupedWithLocal(dir, 'boards', 'linux');
    const first = grouped.groups.get('rpipico');
    picoWithName(dir, 'Another name');
    expect(grouped.groups.get('rpipico')).toBe(first);
    expect(first!.get('name')).toBe('Raspberry Pi Pico');
  });

  test('a boards.txt removed after the scan has no groups left, and a deleted group stays deleted', () => {
    const dir = mkdtempSync(join(scratch, 'removed-'));
    const file = picoWithName(dir, 'Raspberry Pi Pico');
    const grouped = loadGroupedWithLocal(dir, 'boards', 'linux');
    expect(grouped.groups.delete('menu')).toBe(true);
    rmSync(file);
    expect(grouped.groups.get('rpipico')).toBeUndefined();
    expect(grouped.groups.size).toBe(0);
    writeFileSync(file, 'menu.x=1\nuno.name=Uno\n');
    expect([...grouped.groups.keys()]).toEqual([]);
  });
});

describe('properties-scan.wat', () => {
  test('each WebAssembly module (properties-scan-wasm.ts, c-tokens-wasm.ts) is its assembly (node scripts/assemble-wasm.mjs writes it)', async () => {
    const script = (await import(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'scripts', 'assemble-wasm.mjs'))) as {
      WASM_SOURCES: Array<{ wat: string; module: string }>;
      assembledModule(source: { wat: string; module: string }): Promise<string>;
    };
    const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
    for (const source of script.WASM_SOURCES) expect(readFileSync(join(repo, source.module), 'utf8')).toBe(await script.assembledModule(source));
  });
});
