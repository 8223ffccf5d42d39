// Ground truth from the real compiler: arm-none-eabi-gcc -E runs each variant source of the five
// installed STM32 variant folders with the board's own -D flags, and the rows it keeps (comments,
// #if branches and CUSTOM_PERIPHERAL_PINS already applied by gcc) must be the rows the reader
// evaluated. Arduino.h / pins_arduino.h stand-ins only include the variant header and the core's
// stm32yyxx_hal_conf.h: the rest of the core is not installed in the fixture.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { compileFlags } from '../../../../context-providers/arduino/compile-flags.js';
import { readStm32Variant } from '../../../../context-providers/arduino/core-tables/stm32-variant.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { resolveFqbn, type ResolvedBoard } from '../../../../platform/arduino/resolve.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import { FIXTURES, TMP } from '../paths.js';

const BOARDS = [
  'Nucleo_64:pnum=NUCLEO_F401RE', 'GenF1:pnum=BLUEPILL_F103C8', 'GenF4:pnum=BLACKPILL_F411CE',
  'Nucleo_64:pnum=NUCLEO_L476RG', 'Nucleo_64:pnum=NUCLEO_G474RE',
];

/** gcc -E of one variant source with the board's -D flags; stand-in headers pull in only the variant header and HAL config. */
function gccRows(board: ResolvedBoard, file: string, language: 'c' | 'c++'): string {
  const stubs = join(TMP, 'stm32-gcc', board.expanded('build.board')!);
  mkdirSync(stubs, { recursive: true });
  const glue = `#include "${join(board.variantPath!, board.expanded('build.variant_h')!)}"\n#include "${join(board.corePath, 'stm32/stm32yyxx_hal_conf.h')}"\n`;
  for (const name of ['Arduino.h', 'pins_arduino.h']) writeFileSync(join(stubs, name), glue);
  writeFileSync(join(stubs, 'PeripheralPins.h'), '');
  const defines = compileFlags(board, language === 'c' ? 'recipe.c.o.pattern' : 'recipe.cpp.o.pattern').defines;
  const args = ['-E', '-P', '-x', language, `-I${stubs}`, ...Object.entries(defines).filter(([name]) => name !== '__cplusplus').map(([name, value]) => `-D${name}=${value}`), file];
  return execFileSync('arm-none-eabi-gcc', args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
}

/** `PinMap_TIM` → ["PA_0 TIM2", …] from gcc's output text. */
function pinMapsOf(text: string): Map<string, string[]> {
  const maps = new Map<string, string[]>();
  for (const match of text.matchAll(/(PinMap_\w+)\s*\[\s*\]\s*=\s*\{([\s\S]*?)\};/g)) {
    const rows = [...match[2].matchAll(/\{\s*(\w+)\s*,\s*(\w+)\s*,/g)].map((row) => `${row[1]} ${row[2]}`).filter((row) => !row.startsWith('NC '));
    maps.set(match[1], rows);
  }
  return maps;
}

describe('stm32duino tables against arm-none-eabi-gcc -E', () => {
  let installed: InstalledPlatforms;
  beforeAll(async () => {
    installed = await discoverPlatforms({ dataDirs: [join(FIXTURES, 'data_dir_32bit')], sketchbookDirs: [], includeDebian: false, home: TMP });
  });

  test.each(BOARDS)('%s: the PinMap rows and digitalPin[] are the ones gcc keeps', (id) => {
    const board = resolveFqbn(`STMicroelectronics:stm32:${id}`, installed);
    const tables = readStm32Variant(board, readVariantHeader(board));
    const files = readdirSync(board.variantPath!);
    const expected = new Map<string, string[]>();
    for (const name of files.filter((file) => /^PeripheralPins.*\.c$/.test(file))) {
      for (const [map, rows] of pinMapsOf(gccRows(board, join(board.variantPath!, name), 'c'))) expected.set(map, [...(expected.get(map) ?? []), ...rows]);
    }
    const ours = new Map([...tables.pinMaps].map(([map, rows]) => [map, rows.map((row) => `${row.pin} ${row.peripheral}`)]));
    expect(ours).toEqual(expected);
    expect(ours.get('PinMap_TIM')?.length).toBeGreaterThan(10);

    const cpp = files.find((file) => file === board.expanded('build.variant_h')!.replace(/\.h$/, '.cpp'))!;
    const digital = /digitalPin\s*\[\s*\]\s*=\s*\{([\s\S]*?)\};/.exec(gccRows(board, join(board.variantPath!, cpp), 'c++'))![1];
    const names = digital.split(',').map((entry) => entry.trim()).filter(Boolean);
    expect(tables.digitalPins?.map((pin) => pin.name ?? 'NC')).toEqual(names);
  });
});
