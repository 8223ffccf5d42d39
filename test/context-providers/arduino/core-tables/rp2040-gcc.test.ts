// Ground truth from the real compiler: for every arduino-pico board, arm-none-eabi-g++ compiles
// static_asserts of the reader's facts against the variant's own pins_arduino.h (with the chip
// macro the reader used): A<n> is the GPIO the reader gives analog input n, and each Serial,
// Wire and SPI pin is the one the variant's PIN_* macro names. A wrong fact fails to compile.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CoreFacts } from '../../../../context-providers/arduino/core-tables/index.js';
import { rp2Chip } from '../../../../context-providers/arduino/core-tables/rp2040-chips.js';
import { readRp2040Tables } from '../../../../context-providers/arduino/core-tables/rp2040.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { resolveFqbn } from '../../../../platform/arduino/resolve.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import { FIXTURES, TMP } from '../paths.js';

const run = promisify(execFile);

// The ArduinoCore-API types the WiFi variants' headers name (the API is not in the fixture).
const PRELUDE = '#include <stdint.h>\ntypedef uint8_t pin_size_t;\ntypedef int PinMode;\ntypedef int PinStatus;\n';

const BUS_MACROS: Record<string, string> = { Wire: 'PIN_WIRE0_', Wire1: 'PIN_WIRE1_', SPI: 'PIN_SPI0_', SPI1: 'PIN_SPI1_' };

function assertions(facts: CoreFacts): string[] {
  const lines: string[] = [];
  for (const pin of facts.pins) if (pin.analog?.input !== undefined) lines.push(`static_assert(A${pin.analog.input} == ${pin.number}, "A${pin.analog.input}");`);
  for (const port of facts.serialPorts ?? []) {
    const number = /^Serial(\d+)$/.exec(port.name)?.[1];
    for (const [role, pin] of Object.entries(port.pins ?? {})) {
      lines.push(`#if defined(PIN_SERIAL${number}_${role})\nstatic_assert(PIN_SERIAL${number}_${role} == ${pin}, "${port.name} ${role}");\n#else\nstatic_assert(SERIAL${number}_${role} == ${pin}, "${port.name} ${role}");\n#endif`);
    }
  }
  for (const bus of facts.buses ?? []) for (const [role, pin] of Object.entries(bus.pins)) lines.push(`static_assert(${BUS_MACROS[bus.name]}${role} == ${pin}, "${bus.name} ${role}");`);
  return lines;
}

describe('arduino-pico facts against arm-none-eabi-g++', () => {
  let installed: InstalledPlatforms;
  beforeAll(async () => {
    installed = await discoverPlatforms({ dataDirs: [join(FIXTURES, 'data_dir_32bit')], sketchbookDirs: [], includeDebian: false, home: TMP });
  });

  test('every board (stand-in Arduino.h): the analog, serial and bus pins compile as static_asserts against its pins_arduino.h', async () => {
    const platform = installed.platforms.get('rp2040:rp2040')!;
    const dir = join(TMP, 'rp2040-gcc');
    mkdirSync(dir, { recursive: true });
    // The variant headers of WiFi boards include core headers; a stand-in Arduino.h keeps the
    // rest of the (uninstalled) core API out, and an empty pico/cyw43_driver.h stands in for the SDK's.
    const stubs = join(dir, 'stand-in');
    mkdirSync(stubs, { recursive: true });
    mkdirSync(join(stubs, 'pico'), { recursive: true });
    writeFileSync(join(stubs, 'Arduino.h'), '');
    writeFileSync(join(stubs, 'pico/cyw43_driver.h'), '');
    let asserted = 0;
    let compiled = 0;
    const mismatches: string[] = [];
    const unbuildable: string[] = [];
    for (const definition of platform.load().boards.values()) {
      const board = resolveFqbn(`rp2040:rp2040:${definition.id}`, installed);
      const variant = readVariantHeader(board);
      const facts = readRp2040Tables(board, variant)!;
      const chip = rp2Chip(board.expanded('build.chip'))!;
      const lines = assertions(facts);
      const file = join(dir, `${definition.id}.cpp`);
      writeFileSync(file, `${PRELUDE}#include "pins_arduino.h"\n${lines.join('\n')}\n`);
      const defines = Object.entries({ ...variant.defines, ...chip.defines }).filter(([name]) => name !== '__cplusplus').map(([name, value]) => `-D${name}=${value}`);
      try {
        await run('arm-none-eabi-g++', ['-fsyntax-only', '-std=gnu++17', ...defines, `-I${stubs}`, `-I${board.variantPath}`, `-I${board.corePath}`, file]);
        compiled++;
        asserted += lines.length;
      } catch (error) {
        const stderr = (error as { stderr?: string }).stderr ?? String(error);
        if (/static assertion failed|static_assert/.test(stderr)) mismatches.push(`${definition.id}: ${stderr}`);
        else unbuildable.push(`${definition.id}: ${stderr.split('\n').find((line) => /error/.test(line)) ?? stderr}`);
      }
    }
    console.log(`arduino-pico: ${platform.load().boards.size} boards, ${compiled} compiled with ${asserted} static_asserts; not compilable here (headers outside the fixture): ${unbuildable.join('; ') || 'none'}`);
    expect(mismatches).toEqual([]);
    expect(compiled).toBeGreaterThan(140);
  }, 600_000);
});
