// Ground truth from the real compiler: gcc evaluates each g_APinDescription row (its text taken
// from variant.cpp) with the core's WVariant.h enums and macros, and the static reading must agree.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { readSamdTable } from '../../../../context-providers/arduino/core-tables/samd-pins.js';
import type { InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import { TMP } from '../paths.js';
import { factsOf, loadPlatforms32, samdRowLines } from './table-lines.js';

let installed: InstalledPlatforms;
beforeAll(async () => {
  installed = await loadPlatforms32();
});

test.each(['nano_33_iot', 'mkrwifi1010', 'arduino_zero_edbg', 'mkrzero', 'adafruit_circuitplayground_m0'])('SAMD %s: every g_APinDescription row read statically equals what gcc computes', (board) => {
  const resolved = factsOf(`arduino:samd:${board}`, installed).board;
  const variant = readVariantHeader(resolved);
  const table = readSamdTable(resolved, variant);
  const variantCpp = join(resolved.variantPath!, 'variant.cpp');
  const lines = readFileSync(variantCpp, 'utf8').split('\n');
  const rows = samdRowLines(variantCpp).map((line) => lines[line - 1].replace(/\/\/.*$/, '').trim());
  const work = join(TMP, 'samd-gcc', board);
  mkdirSync(work, { recursive: true });
  // WVariant.h includes the CMSIS <samd.h>, which only sizes g_apTCInstances here.
  writeFileSync(join(work, 'samd.h'), '#define TCC_INST_NUM 3\n#define TC_INST_NUM 5\n');
  writeFileSync(join(work, 'rows.c'), [
    '#include <stdio.h>',
    '#include "WVariant.h"',
    `const PinDescription rows[] = {\n${rows.join('\n')}\n};`,
    'int main(void) {',
    '  for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)',
    '    printf("%ld %ld %ld %ld\\n", (long)rows[i].ulPinAttribute, (long)rows[i].ulADCChannelNumber, (long)rows[i].ulPWMChannel, (long)rows[i].ulExtInt);',
    '  return 0;',
    '}',
  ].join('\n'));
  const mcu = Object.keys(variant.defines).filter((name) => /^__SAMD\w+__$/.test(name)).map((name) => `-D${name}`);
  execFileSync('gcc', ['-std=gnu11', '-w', ...mcu, `-I${work}`, `-I${resolved.corePath}`, join(work, 'rows.c'), '-o', join(work, 'rows')], { timeout: 120_000 });
  const values = execFileSync(join(work, 'rows'), { encoding: 'utf8', timeout: 30_000 }).trim().split('\n').map((line) => line.split(' ').map((value) => BigInt(value)));
  expect(mcu.length).toBe(1);
  expect(table.rows.map((row) => [row.attribute, row.adcChannel, row.pwmChannel, row.extInt])).toEqual(values);
  console.log(`${board}: ${values.length} rows equal gcc's values (${mcu.join(' ')})`);
}, 180_000);
