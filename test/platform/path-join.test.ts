// platform/path-join.ts is node:path's join with a shortcut: every argument list gives what
// path.join gives. Lists are built from the pieces its normalisation turns on (empty parts, `.`,
// `..`, `...`, doubled, leading and trailing slashes, the root alone) and from real folder names.
import { join as nodeJoin } from 'node:path';
import { describe, expect, test } from 'vitest';
import { join } from '../../platform/path-join.js';
import { seeded } from '../support/seeded-random.js';

const PIECES = ['', '.', '..', '...', '/', '//', 'a', 'b.c', '.hidden', '..x', 'x..', 'a/b', '/a', 'a/', '/a/', 'a//b', 'a/./b', 'a/../b', 'a/.', 'a/..', './a', '../a', '\\', 'C:\\x', ' ', 'F401R(B-C-D-E)T', 'é'];

/** A part: one to three pieces glued together, so slashes meet in every way. */
function part(random: () => number): string {
  const count = 1 + Math.floor(random() * 3);
  let text = '';
  for (let index = 0; index < count; index++) text += PIECES[Math.floor(random() * PIECES.length)];
  return text;
}

describe('join', () => {
  test('gives what path.join gives for the paths a platform is read with', () => {
    const platform = '/home/u/.arduino15/packages/STMicroelectronics/hardware/stm32/2.9.0';
    const cases: string[][] = [
      [platform, 'variants', 'STM32F4xx/F401R(B-C-D-E)T', 'PeripheralPins.c'],
      [platform, 'cores/arduino', '../../system/Drivers'],
      [platform, './boards.txt'],
      [`${platform}/`, 'boards.txt'],
      ['/', 'usr', 'share'],
      ['/'],
      ['relative/dir', 'file.h'],
      ['', 'x'],
      [],
      ['a', ''],
      ['/a', '/b'],
    ];
    for (const parts of cases) expect(join(...parts), JSON.stringify(parts)).toBe(nodeJoin(...parts));
  });

  test('gives what path.join gives for 20,000 lists of awkward parts', () => {
    const random = seeded(27);
    for (let run = 0; run < 20_000; run++) {
      const parts = Array.from({ length: Math.floor(random() * 5) }, () => part(random));
      if (random() < 0.5 && parts.length > 0) parts[0] = `/${parts[0]}`;
      expect(join(...parts), JSON.stringify(parts)).toBe(nodeJoin(...parts));
    }
  });
});
