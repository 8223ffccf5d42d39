// Ground truth from the real compiler: gcc evaluates every pinmux.inc list with the core's own
// variant.h macros, and the static reading must give the same words.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { readPinmuxTable } from '../../../../context-providers/arduino/core-tables/renesas-pinmux.js';
import type { InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import { TMP } from '../paths.js';
import { factsOf, loadPlatforms32 } from './table-lines.js';

let installed: InstalledPlatforms;
beforeAll(async () => {
  installed = await loadPlatforms32();
});

/** Each pinmux.inc list's words as gcc computes them. */
function gccLists(coreDir: string, variantDir: string, work: string): Map<string, bigint[]> {
  const names = [...readFileSync(join(variantDir, 'pinmux.inc'), 'utf8').matchAll(/const\s+uint16_t\s+(\w+)\s*\[\]/g)].map((match) => match[1]);
  const program = [
    '#include <stdint.h>',
    '#include <stdio.h>',
    'typedef int bsp_io_port_pin_t;',
    '#include "variant.h"',
    '#include "pinmux.inc"',
    '#define SHOW(a) do { printf("%s", #a); for (unsigned i = 0; i < sizeof(a) / sizeof(a[0]); i++) printf(" %u", (unsigned)a[i]); printf("\\n"); } while (0)',
    'int main(void) {',
    ...names.map((name) => `  SHOW(${name});`),
    '  return 0;',
    '}',
  ].join('\n');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'lists.c'), program);
  execFileSync('gcc', ['-std=gnu11', '-w', `-I${coreDir}`, `-I${variantDir}`, join(work, 'lists.c'), '-o', join(work, 'lists')], { timeout: 120_000 });
  const lists = new Map<string, bigint[]>();
  for (const line of execFileSync(join(work, 'lists'), { encoding: 'utf8', timeout: 30_000 }).trim().split('\n')) {
    const [name, ...values] = line.split(' ');
    lists.set(name, values.map((value) => BigInt(value)));
  }
  return lists;
}

test.each(['minima', 'unor4wifi', 'nanor4', 'portenta_c33'])('Renesas %s: every pinmux.inc list read statically equals what gcc computes', (board) => {
  const resolved = factsOf(`arduino:renesas_uno:${board}`, installed).board;
  const table = readPinmuxTable(resolved, readVariantHeader(resolved));
  const lists = gccLists(resolved.corePath, resolved.variantPath!, join(TMP, 'renesas-gcc', board));
  let compared = 0;
  for (const row of table.rows) {
    const words = row.list ? lists.get(row.list) : undefined;
    if (!words) continue; // a variant.cpp override (P014_b), not in pinmux.inc
    expect(row.entries, `pin ${row.number} (${row.list})`).toEqual(words.slice(0, row.entries!.length).map((value, index) => ({ value, source: row.entries![index].source })));
    compared++;
  }
  console.log(`${board}: ${compared} of ${table.rows.length} g_pin_cfg lists equal gcc's values`);
  expect(compared).toBeGreaterThan(table.rows.length / 2);
}, 180_000);
