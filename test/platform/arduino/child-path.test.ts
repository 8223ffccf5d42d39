// childPath is path.join for every folder and name, joined with one slash without join's
// normalisation when the folder is normalised and the name a plain relative path.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { childPath } from '../../../platform/arduino/folders.js';

test('childPath gives what path.join gives, for plain names and for every kind of name join normalises', () => {
  const dirs = ['/usr/share/arduino/hardware/arduino/avr/cores/arduino', '/a', '/', '', '.', 'relative/dir', '/a/b/', '/a//b', '/a/./b', '/a/../b', '/a/b/..', '/with space/é'];
  const names = ['Arduino.h', 'avr/io.h', 'src', 'library.properties', '../variant.h', './x.h', 'a/../b.h', 'a//b.h', '/abs.h', '.hidden.h', '..x.h', 'a/.', 'a/', '', '.', '..', 'a/..b/c.h', 'utility\\twi.h', 'é/ü.h'];
  for (const dir of dirs) for (const name of names) expect(childPath(dir, name), `${dir} + ${name}`).toBe(join(dir, name));
});
