// Ground truth for the pin map: for every (variant, MCU) of Debian's AVR platform, a probe compiled
// by the board's own compile recipe (avr-g++ -mmcu=<mcu>) stores what the header's macros
// compute, per pin, in a section we read back; our evaluation of the same header must match.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { readAvrTimers } from '../../../context-providers/arduino/avr-timers.js';
import { buildPinMap, type PinMap } from '../../../context-providers/arduino/pin-map.js';
import { readVariantHeader } from '../../../context-providers/arduino/variant-header.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../platform/arduino/platforms.js';
import { resolveFqbn, type ResolvedBoard } from '../../../platform/arduino/resolve.js';
import { splitCommandLine } from '../../../context-providers/arduino/compile-flags.js';
import { TMP } from './paths.js';

const run = promisify(execFile);
const NOT_DEFINED = -999;

/** What we expect the compiler to store: counts, then per pin PWM and interrupt, analog map, names. */
function ourValues(map: PinMap): number[] {
  const values = [map.digitalPinCount ?? NOT_DEFINED, map.analogInputCount ?? NOT_DEFINED];
  const hasPwmMacro = map.variant.macros.has('digitalPinHasPWM');
  const hasInterruptMacro = map.variant.macros.has('digitalPinToInterrupt');
  for (const pin of map.pins) {
    values.push(hasPwmMacro ? (pin.capabilities.includes('pwm') ? 1 : 0) : NOT_DEFINED);
    values.push(hasInterruptMacro ? (pin.interrupt ?? (map.variant.evaluate('NOT_AN_INTERRUPT') as number)) : NOT_DEFINED);
  }
  const hasAnalogMacro = map.variant.macros.has('analogInputToDigitalPin');
  for (let input = 0; input < (map.analogInputCount ?? 0); input++) {
    values.push(hasAnalogMacro ? (map.variant.evaluate(`analogInputToDigitalPin(${input})`) as number) : NOT_DEFINED);
  }
  for (const number of map.pinNames.values()) values.push(number);
  return values;
}

function probeSource(map: PinMap): string {
  const lines = ['#include <Arduino.h>', '__attribute__((used, section(".probe"))) const long probe[] = {'];
  const ifDefined = (macro: string, expression: string) => `#ifdef ${macro}\n  (long)(${expression}),\n#else\n  ${NOT_DEFINED},\n#endif`;
  lines.push(ifDefined('NUM_DIGITAL_PINS', 'NUM_DIGITAL_PINS'), ifDefined('NUM_ANALOG_INPUTS', 'NUM_ANALOG_INPUTS'));
  for (let pin = 0; pin < (map.digitalPinCount ?? 0); pin++) {
    lines.push(ifDefined('digitalPinHasPWM', `digitalPinHasPWM(${pin}) ? 1 : 0`));
    lines.push(ifDefined('digitalPinToInterrupt', `digitalPinToInterrupt(${pin})`));
  }
  for (let input = 0; input < (map.analogInputCount ?? 0); input++) {
    lines.push(ifDefined('analogInputToDigitalPin', `analogInputToDigitalPin(${input})`));
  }
  for (const name of map.pinNames.keys()) lines.push(`  (long)(${name}),`);
  lines.push('};');
  return `${lines.join('\n')}\n`;
}

/** Compiles `source` with the board's own C++ recipe and copies one section of the object out. */
async function compiledSection(board: ResolvedBoard, source: string, section: string, dir: string): Promise<Buffer> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'probe.cpp');
  const object = join(dir, 'probe.o');
  writeFileSync(file, source);
  const command = board.expand(board.properties.get('recipe.cpp.o.pattern')!, {
    includes: `"-I${board.corePath}" "-I${board.variantPath}"`,
    source_file: file,
    object_file: object,
    // docs/hardware-rig.md: Debian's core needs this with Debian's gcc-avr.
    'compiler.cpp.extra_flags': '-DDECIMAL_DIG=__DECIMAL_DIG__',
  });
  // -flto would leave only compiler IR in the object; the data must be in a real section.
  const [compiler, ...args] = splitCommandLine(command);
  await run(compiler, [...args, '-fno-lto']);
  await run('avr-objcopy', ['-O', 'binary', '-j', section, object, join(dir, 'section.bin')]);
  return readFileSync(join(dir, 'section.bin'));
}

async function compilerValues(board: ResolvedBoard, source: string, dir: string): Promise<number[]> {
  const bytes = await compiledSection(board, source, '.probe', dir);
  const values: number[] = [];
  for (let offset = 0; offset + 4 <= bytes.length; offset += 4) values.push(bytes.readInt32LE(offset));
  return values;
}

// The variant's timer table as avr-g++ lays it out: compiled with ARDUINO_MAIN (as wiring.c is);
// -fdata-sections gives it a section of its own.
async function compiledTimerTable(board: ResolvedBoard, dir: string): Promise<number[]> {
  const source = '#define ARDUINO_MAIN\n#include <Arduino.h>\n__attribute__((used)) const uint8_t *keep = digital_pin_to_timer_PGM;\n';
  return [...(await compiledSection(board, source, '.progmem.data.digital_pin_to_timer_PGM', dir))];
}

/** One FQBN per distinct (variant, MCU): every configuration of every board, deduplicated. */
function variantConfigurations(installed: InstalledPlatforms): ResolvedBoard[] {
  const data = installed.platforms.get('arduino:avr')!.load();
  const seen = new Map<string, ResolvedBoard>();
  for (const board of data.boards.values()) {
    const fqbns = [`arduino:avr:${board.id}`];
    for (const [menu, values] of board.menus) for (const value of values.keys()) fqbns.push(`arduino:avr:${board.id}:${menu}=${value}`);
    for (const fqbn of fqbns) {
      const resolved = resolveFqbn(fqbn, installed);
      const key = `${resolved.variantPath}|${resolved.expanded('build.mcu')}|${resolved.expanded('build.board')}`;
      if (!seen.has(key)) seen.set(key, resolved);
    }
  }
  return [...seen.values()];
}

// Compiling a probe per (variant, MCU) takes a few seconds on a busy two-core machine.
describe("pin capabilities equal what avr-gcc computes from Debian's variant headers", () => {
  let installed: InstalledPlatforms;
  beforeAll(async () => {
    installed = await discoverPlatforms({ dataDirs: [], sketchbookDirs: [], home: TMP });
  });

  test('every variant and MCU of the platform agrees with the compiler, pin by pin', async () => {
    const configurations = variantConfigurations(installed);
    const variants = new Set(configurations.map((board) => board.variantPath));
    expect(variants.size).toBe(11);
    const disagreements: string[] = [];
    let compared = 0;
    for (const [index, board] of configurations.entries()) {
      const map = buildPinMap(board);
      // robot_control's header defines no NUM_DIGITAL_PINS: a warning, and the compiler agrees.
      const unexpected = map.warnings.filter((warning) => warning.severity === 'warning' && warning.code !== 'pins-no-count');
      expect(unexpected, board.fqbn).toEqual([]);
      const theirs = await compilerValues(board, probeSource(map), join(TMP, 'probe', String(index)));
      const ours = ourValues(map);
      compared += theirs.length;
      if (JSON.stringify(theirs) !== JSON.stringify(ours)) {
        disagreements.push(`${board.fqbn} (${board.expanded('build.mcu')}): compiler ${JSON.stringify(theirs)} vs ours ${JSON.stringify(ours)}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
  }, 300_000);

  test("each pin's timer (digital_pin_to_timer_PGM under ARDUINO_MAIN) equals the table avr-gcc builds, for every variant and MCU", async () => {
    const disagreements: string[] = [];
    let compared = 0;
    for (const [index, board] of variantConfigurations(installed).entries()) {
      const variant = readVariantHeader(board);
      const timers = readAvrTimers(board, variant);
      if (!timers) continue;
      const theirs = await compiledTimerTable(board, join(TMP, 'timer-probe', String(index)));
      const ours = theirs.map((_, pin) => {
        const entry = timers.pinTimers.get(pin);
        return entry ? variant.evaluate(`TIMER${entry.text.slice('Timer '.length)}`) : variant.evaluate('NOT_ON_TIMER');
      });
      compared += theirs.length;
      if (JSON.stringify(theirs) !== JSON.stringify(ours)) disagreements.push(`${board.fqbn}: compiler ${JSON.stringify(theirs)} vs ours ${JSON.stringify(ours)}`);
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBeGreaterThan(200);
  }, 300_000);

  test("the timer tone() takes (Tone.cpp's tone_pin_to_timer_PGM, read only up to that table) is the one avr-gcc compiles into it, for every variant and MCU", async () => {
    const disagreements: string[] = [];
    let compared = 0;
    for (const [index, board] of variantConfigurations(installed).entries()) {
      const timers = readAvrTimers(board, readVariantHeader(board));
      if (!timers) continue;
      // The core's own Tone.cpp, compiled by the board's recipe: -fdata-sections gives the table (internal linkage, so named _ZL…) a section of its own.
      const tone = join(board.corePath, 'Tone.cpp');
      const table = await compiledSection(board, `#include "${tone}"\n`, '.progmem.data._ZL21tone_pin_to_timer_PGM', join(TMP, 'tone-probe', String(index)));
      compared++;
      if (timers.tone?.timer !== `Timer ${table[0]}`) disagreements.push(`${board.fqbn}: compiler Timer ${table[0]} vs ours ${timers.tone?.timer}`);
      expect(timers.tone?.source.file).toBe(tone);
    }
    expect(disagreements).toEqual([]);
    expect(compared).toBeGreaterThan(10);
  }, 300_000);

  test('the Uno has PWM on 3, 5, 6, 9, 10, 11 and interrupts on 2 and 3', async () => {
    const map = buildPinMap(resolveFqbn('arduino:avr:uno', installed));
    expect(map.pins.filter((pin) => pin.capabilities.includes('pwm')).map((pin) => pin.number)).toEqual([3, 5, 6, 9, 10, 11]);
    expect(map.pins.filter((pin) => pin.capabilities.includes('interrupt')).map((pin) => [pin.number, pin.interrupt])).toEqual([[2, 0], [3, 1]]);
    expect(map.pins[14].names).toEqual(['D14', 'A0', 'PIN_A0']);
    expect(map.serialPorts).toEqual(['Serial']);
  });

  test('an ATmega8 board takes the header\'s __AVR_ATmega8__ branch: PWM only on 9, 10, 11', async () => {
    const map = buildPinMap(resolveFqbn('arduino:avr:atmegang:cpu=atmega8', installed));
    expect(map.pins.filter((pin) => pin.capabilities.includes('pwm')).map((pin) => pin.number)).toEqual([9, 10, 11]);
  });
});
