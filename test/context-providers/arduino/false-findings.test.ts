// The sketch check is held to AVR's standard on every core: it runs over every example of each
// fixture platform's own libraries for that platform's boards, and over Debian's AVR examples for
// the Uno, Mega and Leonardo. Every ERROR must be one of the true ones listed here, by sketch and
// line, with why it is a real compile or run-time problem; anything else is a false error and
// fails the test. On the Uno, every Debian example is compiled with Debian's arduino-builder: the
// ERRORs of a kind the compiler catches and its failures match one for one, at the line.
import { cpSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, test } from 'vitest';
import { compile } from '../../../boards/compile.js';
import { ArduinoBuilder, debianLayout } from '../../../boards/toolchains/arduino-builder.js';
import { createArduinoProvider } from '../../../context-providers/arduino/index.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../platform/arduino/platforms.js';
import type { Finding } from '../../../context-providers/types.js';
import { DATA_DIR_32BIT, FIXTURES, TMP } from './paths.js';
import { TRUE_ERRORS, type TrueError } from './false-findings/true-errors.js';
import { TRUE_WARNINGS, type TrueWarning } from './false-findings/true-warnings.js';

const DEBIAN_EXAMPLES = '/usr/share/arduino/examples';
const PACKAGES = join(DATA_DIR_32BIT, 'packages');
/** The AVR core's own libraries as Debian's arduino-core-avr installs them (EEPROM, SPI, SoftwareSerial, Wire). */
const DEBIAN_AVR_LIBRARIES = '/usr/share/arduino/hardware/arduino/avr/libraries';
/** arduino-libraries/Servo 1.3.0 in the fixture sketchbook (SOURCES.md). */
const SKETCHBOOK = join(FIXTURES, 'sketchbook');

/**
 * Boards each platform's examples run on: every board of the Renesas, SAMD, mbed and CircuitMess
 * ESP32 platforms (7, 18, 13 and 13 boards); for arduino-pico (151 boards) and STM32 (1,356 part
 * numbers, 42 with their variant here) the boards the issue names and, on arduino-pico, two more.
 */
const PLATFORM_BOARDS: Array<{ platform: string; boards: string[] | { every: string } }> = [
  { platform: 'arduino/hardware/renesas_uno/1.5.3', boards: { every: 'arduino:renesas_uno' } },
  { platform: 'arduino/hardware/samd/1.8.14', boards: { every: 'arduino:samd' } },
  // The Pico and Pico 2, the Pico W (its LED is CYW43 GPIO 64) and an RP2350B board (48 GPIOs).
  { platform: 'rp2040/hardware/rp2040/6.0.0', boards: ['rp2040:rp2040:rpipico', 'rp2040:rp2040:rpipico2', 'rp2040:rp2040:rpipicow', 'rp2040:rp2040:pimoroni_pga2350'] },
  { platform: 'arduino/hardware/mbed/9.9.9', boards: { every: 'arduino:mbed' } },
  { platform: 'STMicroelectronics/hardware/stm32/3.0.0-dev', boards: ['STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE', 'STMicroelectronics:stm32:GenF1:pnum=BLUEPILL_F103C8'] },
  { platform: 'cm/hardware/esp32/1.7.5', boards: { every: 'cm:esp32' } },
];
const AVR_BOARDS = ['arduino:avr:uno', 'arduino:avr:mega:cpu=atmega2560', 'arduino:avr:leonardo'];

// Kinds of ERROR the compiler itself reports; the others (a pin without PWM, an analog read of a
// digital pin) compile and misbehave at run time.
const COMPILE_KINDS = new Set(['unknown-serial', 'include-unresolved', 'missing-include']);

/** Sketch folders whose main .ino has the folder's name, as the IDE opens them. */
function sketchFolders(dir: string, out: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const entry of entries.sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sketchFolders(path, out);
    else if (entry.endsWith('.ino') && basename(dir) === entry.slice(0, -4)) out.push(dir);
  }
  return out;
}

interface RaisedError {
  board: string;
  /** The finding's file relative to the platform folder or Debian's examples. */
  file: string;
  line: number;
  code: string;
  message: string;
  sketch: string;
}

function shortFile(file: string): string {
  if (file.startsWith(PACKAGES)) return relative(PACKAGES, file);
  if (file.startsWith(DEBIAN_AVR_LIBRARIES)) return `debian-avr-libraries/${relative(DEBIAN_AVR_LIBRARIES, file)}`;
  if (file.startsWith(SKETCHBOOK)) return `sketchbook/${relative(SKETCHBOOK, file)}`;
  if (file.startsWith(DEBIAN_EXAMPLES)) return `debian-examples/${relative(DEBIAN_EXAMPLES, file)}`;
  return file;
}

const byCode = (warnings: Map<string, number>): string => [...warnings].map(([code, count]) => `${code} ${count}`).join(', ') || 'none';

function matches(entry: TrueError, error: RaisedError): boolean {
  return entry.boards.test(error.board) && error.file === entry.file && error.line === entry.line && error.code === entry.code;
}

/** Every WARNING of the corpus, true (true-warnings.ts says why) or false. */
const warned: Array<RaisedError & { true: boolean }> = [];

const listed = (list: TrueWarning[], warning: RaisedError): boolean => list.some((entry) => entry.code === warning.code && (!entry.boards || entry.boards.test(warning.board)) && (entry.file === undefined || entry.file === warning.file) && (entry.line === undefined || entry.line === warning.line));
const trueWarning = (warning: RaisedError): boolean => listed(TRUE_WARNINGS, warning);

async function runExamples(provider: ReturnType<typeof createArduinoProvider>, sketches: string[], boards: string[]): Promise<{ runs: number; errors: RaisedError[]; findings: number; warnings: Map<string, number> }> {
  const errors: RaisedError[] = [];
  const warnings = new Map<string, number>();
  let runs = 0;
  let findings = 0;
  for (const board of boards) {
    for (const sketch of sketches) {
      const project = await provider.detect(sketch);
      if (!project) continue;
      const context = await provider.load(project, { board });
      runs++;
      findings += context.findings.length;
      for (const finding of context.findings.filter((entry: Finding) => entry.severity === 'warning')) {
        warnings.set(finding.code, (warnings.get(finding.code) ?? 0) + 1);
        const warning = { board, file: shortFile(finding.file ?? ''), line: finding.line ?? 0, code: finding.code, message: finding.message, sketch };
        warned.push({ ...warning, true: trueWarning(warning) });
      }
      for (const finding of context.findings.filter((entry: Finding) => entry.severity === 'error')) {
        errors.push({ board, file: shortFile(finding.file ?? ''), line: finding.line ?? 0, code: finding.code, message: finding.message, sketch });
      }
    }
  }
  return { runs, errors, findings, warnings };
}

describe('no false ERROR on real example sketches', () => {
  const raised: RaisedError[] = [];
  let provider32: ReturnType<typeof createArduinoProvider>;
  let providerAvr: ReturnType<typeof createArduinoProvider>;
  let installed32: InstalledPlatforms;
  beforeAll(async () => {
    provider32 = createArduinoProvider({ dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [], includeDebian: false, home: TMP });
    providerAvr = createArduinoProvider({ dataDirs: [], sketchbookDirs: [], home: TMP });
    installed32 = await discoverPlatforms({ dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [], includeDebian: false, home: TMP });
  });

  test.each(PLATFORM_BOARDS)('every ERROR on the examples of $platform is a true one', async ({ platform, boards }) => {
    const sketches = sketchFolders(join(PACKAGES, platform, 'libraries'));
    expect(sketches.length).toBeGreaterThan(20);
    const fqbns = Array.isArray(boards) ? boards : [...installed32.platforms.get(boards.every)!.load().boards.keys()].map((id) => `${boards.every}:${id}`);
    const result = await runExamples(provider32, sketches, fqbns);
    raised.push(...result.errors);
    const unexplained = result.errors.filter((error) => !TRUE_ERRORS.some((entry) => matches(entry, error)));
    console.log(`${platform}: ${fqbns.length} boards, ${result.runs} sketch × board runs, ${result.findings} findings, ${result.errors.length} ERRORs (${result.errors.length - unexplained.length} true), WARNINGs by code: ${byCode(result.warnings)}`);
    expect(unexplained.map((error) => `${error.board} ${error.file}:${error.line} [${error.code}] ${error.message}`)).toEqual([]);
  }, 600_000);

  test("every ERROR on Debian's AVR examples for the Uno, Mega and Leonardo is a true one", async () => {
    const sketches = sketchFolders(DEBIAN_EXAMPLES);
    expect(sketches.length).toBeGreaterThan(60);
    const result = await runExamples(providerAvr, sketches, AVR_BOARDS);
    raised.push(...result.errors);
    const unexplained = result.errors.filter((error) => !TRUE_ERRORS.some((entry) => matches(entry, error)));
    console.log(`Debian AVR examples: ${result.runs} sketch × board runs, ${result.findings} findings, ${result.errors.length} ERRORs (${result.errors.length - unexplained.length} true), WARNINGs by code: ${byCode(result.warnings)}`);
    expect(unexplained.map((error) => `${error.board} ${error.file}:${error.line} [${error.code}] ${error.message}`)).toEqual([]);
  }, 600_000);

  // The wider corpus: Servo's examples on one board of every fixture platform that Servo supports
  // and on the AVR boards, and the examples of the AVR core's own libraries on the AVR boards.
  // WARNINGs are counted by code (each needs a person to call it true or false; issue 22 found
  // 61 of 174 false on real sketches).
  test('every ERROR on the Servo and Debian AVR library examples is a true one; WARNINGs are counted', async () => {
    const withSketchbook32 = createArduinoProvider({ dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [SKETCHBOOK], includeDebian: false, home: TMP });
    const withSketchbookAvr = createArduinoProvider({ dataDirs: [], sketchbookDirs: [SKETCHBOOK], home: TMP });
    const servo = sketchFolders(join(SKETCHBOOK, 'libraries/Servo/examples'));
    const avrLibraries = sketchFolders(DEBIAN_AVR_LIBRARIES);
    expect(servo.length).toBe(2);
    expect(avrLibraries.length).toBeGreaterThan(15);
    const boards32 = ['arduino:renesas_uno:minima', 'arduino:samd:mkrwifi1010', 'rp2040:rp2040:rpipico', 'arduino:mbed:nano33ble', 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE', 'cm:esp32:ringo'];
    const results = [await runExamples(withSketchbook32, servo, boards32), await runExamples(withSketchbookAvr, [...servo, ...avrLibraries], AVR_BOARDS)];
    const errors = results.flatMap((result) => result.errors);
    raised.push(...errors);
    const warnings = new Map<string, number>();
    for (const result of results) for (const [code, count] of result.warnings) warnings.set(code, (warnings.get(code) ?? 0) + count);
    const unexplained = errors.filter((error) => !TRUE_ERRORS.some((entry) => matches(entry, error)));
    console.log(`Servo + Debian AVR library examples: ${results.reduce((sum, result) => sum + result.runs, 0)} sketch × board runs, ${errors.length} ERRORs (${errors.length - unexplained.length} true), WARNINGs by code: ${[...warnings].map(([code, count]) => `${code} ${count}`).join(', ') || 'none'}`);
    expect(unexplained.map((error) => `${error.board} ${error.file}:${error.line} [${error.code}] ${error.message}`)).toEqual([]);
  }, 600_000);

  // No WARNING is listed as a known false one: a false WARNING that comes back fails here.
  test('every WARNING of the corpus is a true one (the false ones are fixed at their cause); the counts are printed', () => {
    const falseOnes = warned.filter((warning) => !warning.true);
    const byCodeOf = (list: typeof warned): string => byCode(list.reduce((counts, warning) => counts.set(warning.code, (counts.get(warning.code) ?? 0) + 1), new Map<string, number>()));
    console.log(`WARNINGs on the corpus: ${warned.length}, ${warned.length - falseOnes.length} true (${byCodeOf(warned.filter((warning) => warning.true))}), ${falseOnes.length} false`);
    expect(warned.length).toBeGreaterThan(0);
    expect(falseOnes.map((warning) => `${warning.board} ${warning.file}:${warning.line} [${warning.code}] ${warning.message}`)).toEqual([]);
  });

  test('every listed true ERROR is still raised (the list does not outlive the check)', () => {
    const stale = TRUE_ERRORS.filter((entry) => !raised.some((error) => matches(entry, error)));
    expect(stale.map((entry) => `${entry.file}:${entry.line} [${entry.code}]`)).toEqual([]);
  });

  // The Uno and the Mega are held to one-for-one agreement with the real compiler over Debian's
  // examples (no sketchbook, as the check ran them) and the Servo and AVR library examples (with
  // the fixture sketchbook): every sketch arduino-builder fails has an ERROR at the compiler's first
  // error line, every ERROR of a kind the compiler sees is in a sketch that fails, and the other
  // ERRORs are run-time faults in sketches that compile, each named here.
  test.each([
    // analogWrite over pins 2-13 in the Mega's example: on the Uno six of them have no PWM, which
    // compiles and only switches those pins on or off (true-errors.ts says why each is true).
    { board: 'arduino:avr:uno', runtime: ['debian-examples/03.Analog/AnalogWriteMega/AnalogWriteMega.ino:35 [pwm-pin]', 'debian-examples/03.Analog/AnalogWriteMega/AnalogWriteMega.ino:40 [pwm-pin]'] },
    { board: 'arduino:avr:mega:cpu=atmega2560', runtime: [] },
  ])("on $board the ERRORs match the real compiler's failures one for one; the rest are the listed run-time faults", async ({ board, runtime: expected }) => {
    const onBoard = raised.filter((error) => error.board === board);
    expect(onBoard.length).toBeGreaterThan(0);
    const groups = [
      { sketches: sketchFolders(DEBIAN_EXAMPLES), builder: new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout('/nonexistent-sketchbook')) },
      { sketches: [...sketchFolders(join(SKETCHBOOK, 'libraries/Servo/examples')), ...sketchFolders(DEBIAN_AVR_LIBRARIES)], builder: new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout(SKETCHBOOK)) },
    ];
    const mismatches: string[] = [];
    const runtime: string[] = [];
    let failed = 0;
    let compiled = 0;
    for (const { sketches, builder } of groups) {
      for (const sketch of sketches) {
        compiled++;
        const errors = onBoard.filter((error) => error.sketch === sketch);
        const compileErrors = errors.filter((error) => COMPILE_KINDS.has(error.code));
        const copy = join(mkdtempSync(join(tmpdir(), 'bb-false-findings-')), basename(sketch));
        cpSync(sketch, copy, { recursive: true });
        const report = await compile({ sketch: copy, fqbn: board, tool: builder });
        const lines = report.diagnostics.filter((diagnostic) => diagnostic.severity === 'ERROR' || diagnostic.severity === 'FATAL').map((diagnostic) => diagnostic.line);
        const name = shortFile(sketch);
        if (report.success) {
          if (compileErrors.length > 0) mismatches.push(`${name} compiles although boardbridge raised ${compileErrors.map((error) => `${error.code} at ${error.line}`).join(', ')}`);
          runtime.push(...errors.map((error) => `${error.file}:${error.line} [${error.code}]`));
          continue;
        }
        failed++;
        // The compiler stops at the first fatal error: the first ERROR boardbridge raised is the one it reports.
        if (compileErrors.length === 0) mismatches.push(`${name} fails the compiler at ${lines.join(', ')} and boardbridge raised no ERROR of a compile kind`);
        else if (!lines.includes(Math.min(...compileErrors.map((error) => error.line)))) mismatches.push(`${name}: compiler errors at ${lines.join(', ')}, boardbridge at ${compileErrors.map((error) => error.line).join(', ')}`);
      }
    }
    console.log(`${board}: ${compiled} examples compiled with arduino-builder, ${failed} fail; ${onBoard.length} ERRORs, ${onBoard.length - runtime.length} at those failures, ${runtime.length} run-time faults in sketches that compile: ${runtime.join(', ') || 'none'}`);
    expect(failed).toBeGreaterThan(0);
    expect(mismatches).toEqual([]);
    expect(runtime.sort()).toEqual(expected);
  }, 1_800_000);
});
