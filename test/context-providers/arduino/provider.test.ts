import { cpSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { expectGolden as expectGoldenFile } from '../../support/golden.js';
import { arduinoContextSchema } from '../../../context-providers/arduino/context-schema.js';
import { ArduinoBoardError, createArduinoProvider } from '../../../context-providers/arduino/provider.js';
import type { HardwareContext } from '../../../context-providers/types.js';
import { DATA_DIR, FIXTURES, OWN_FIXTURES, TMP } from './paths.js';

const SKETCHBOOK = join(OWN_FIXTURES, 'sketchbook');
const SKETCHES = join(OWN_FIXTURES, 'sketches');
const GOLDEN = join(OWN_FIXTURES, 'golden');

/** Paths that depend on the checkout become placeholders, so goldens pass on any machine. */
function portable(context: HardwareContext): unknown {
  const text = JSON.stringify(context, null, 2).replaceAll(OWN_FIXTURES, '<fixtures>').replaceAll(FIXTURES, '<shared-fixtures>').replaceAll(TMP, '<tmp>');
  return JSON.parse(text);
}

function expectGolden(name: string, context: HardwareContext): void {
  const file = join(GOLDEN, `${name}.json`);
  arduinoContextSchema.parse(context);
  const actual = portable(context);
  expectGoldenFile(file, actual);
}

const debianProvider = () => createArduinoProvider({ dataDirs: [], sketchbookDirs: [SKETCHBOOK], home: TMP });

async function load(provider: ReturnType<typeof createArduinoProvider>, sketch: string, board?: string): Promise<HardwareContext> {
  const project = await provider.detect(sketch);
  if (!project) throw new Error(`${sketch} not detected`);
  return provider.load(project, { board });
}

describe('golden contexts', () => {
  test.each([
    ['uno', 'arduino:avr:uno'],
    ['mega2560', 'arduino:avr:mega:cpu=atmega2560'],
    ['leonardo', 'arduino:avr:leonardo'],
    ['nano-old-bootloader', 'arduino:avr:nano:cpu=atmega328old'],
  ])('%s on Debian matches its golden JSON', async (name, fqbn) => {
    expectGolden(name, await load(debianProvider(), join(SKETCHES, 'Blink'), fqbn));
  });

  test('an esp8266 board from the fixtures (no variant folder installed) matches its golden JSON', async () => {
    const provider = createArduinoProvider({ dataDirs: [DATA_DIR], sketchbookDirs: [], includeDebian: false, home: TMP });
    const context = await load(provider, join(SKETCHES, 'Blink'), 'esp8266:esp8266:nodemcuv2');
    expect(context.warnings.map((warning) => warning.code)).toContain('variant-missing');
    expectGolden('esp8266-nodemcuv2', context);
  });
});

describe('the Arduino provider', () => {
  test('detects a sketch folder, its main .ino given as a file, and nothing else', async () => {
    const provider = debianProvider();
    expect(await provider.detect(join(SKETCHES, 'Blink'))).toEqual({ kind: 'arduino', root: join(SKETCHES, 'Blink'), main: join(SKETCHES, 'Blink/Blink.ino') });
    expect((await provider.detect(join(SKETCHES, 'Blink/Blink.ino')))?.root).toBe(join(SKETCHES, 'Blink'));
    expect(await provider.detect(SKETCHES)).toBeUndefined();
    expect(await provider.detect(join(TMP, 'does-not-exist'))).toBeUndefined();
  });

  test("without a selection the board comes from sketch.yaml's default profile, cited with its line", async () => {
    const context = await load(debianProvider(), join(SKETCHES, 'WithYaml'));
    expect(context.board.id).toBe('arduino:avr:uno');
    expect(context.board.sources?.id).toEqual({ file: join(SKETCHES, 'WithYaml/sketch.yaml'), line: 7 });
  });

  test('the face’s selection wins over sketch.yaml', async () => {
    const context = await load(debianProvider(), join(SKETCHES, 'WithYaml'), 'arduino:avr:nano:cpu=atmega328old');
    expect(context.board.id).toBe('arduino:avr:nano:cpu=atmega328old');
    expect(context.toolchain?.options).toEqual([expect.objectContaining({ name: 'Processor', value: 'ATmega328P (Old Bootloader)' })]);
  });

  test("a profile-only sketch.yaml from arduino-cli's tests selects its default... or says how to pick a board", async () => {
    const sketch = join(TMP, 'ProfileSketch');
    rmSync(sketch, { recursive: true, force: true });
    mkdirSync(sketch, { recursive: true });
    writeFileSync(join(sketch, 'ProfileSketch.ino'), 'void setup() {}\nvoid loop() {}\n');
    cpSync(join(FIXTURES, 'sketch_with_profile/sketch.yaml'), join(sketch, 'sketch.yaml'));
    const error = await load(debianProvider(), sketch).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ArduinoBoardError);
    expect((error as Error).message).toContain('--fqbn');
    expect((error as Error).message).toContain('default_fqbn');
    // It has profiles but no default_profile: the message names them and how to pick one.
    expect((error as Error).message).toContain(`${join(sketch, 'sketch.yaml')} has the profiles avr1 (arduino:avr:uno), avr2 (arduino:avr:uno), samd (arduino:samd:mkr1000)`);
    expect((error as Error).message).toContain('but no default_profile: add "default_profile: avr1" to it');
    expect((error as ArduinoBoardError).choices).toContain('arduino:samd:mkr1000');
  });

  test('an unknown board is an error naming the nearest installed board', async () => {
    const error = await load(debianProvider(), join(SKETCHES, 'Blink'), 'arduino:avr:leonard').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ArduinoBoardError);
    expect((error as Error).message).toContain('Did you mean "leonardo"');
  });

  test('the Uno markdown fits in about 1,200 tokens and the Mega in about 3,000, with sources', async () => {
    const provider = debianProvider();
    const uno = provider.render(await load(provider, join(SKETCHES, 'PinChecks'), 'arduino:avr:uno'));
    const mega = provider.render(await load(provider, join(SKETCHES, 'Libraries'), 'arduino:avr:mega'));
    expect(uno.length / 4).toBeLessThan(1200);
    expect(mega.length / 4).toBeLessThan(3000);
    expect(uno).toContain('PWM (analogWrite): D3, D5, D6, D9–D11 (:35)');
    expect(uno).toContain('P/boards.txt:');
    expect(uno).toContain('PinChecks.ino:27 [pwm-pin]');
    expect(mega).toContain('Serial ports: Serial, Serial1, Serial2, Serial3');
    expect(mega).toContain('Servo.h → Servo 1.1.8, user library');
  });

  test('the Uno’s and the Mega’s contexts tell the agent the sketch can be tried in the simulate tool; the Leonardo’s does not', async () => {
    const provider = debianProvider();
    const uno = provider.render(await load(provider, join(SKETCHES, 'PinChecks'), 'arduino:avr:uno'));
    const mega = provider.render(await load(provider, join(SKETCHES, 'Libraries'), 'arduino:avr:mega'));
    const leonardo = provider.render(await load(provider, join(SKETCHES, 'Libraries'), 'arduino:avr:leonardo'));
    expect(uno).toMatch(/^- Simulator: the `simulate` tool \(or `boardbridge simulate` in a terminal\)/m);
    expect(mega).toMatch(/^- Simulator: the `simulate` tool/m);
    expect(leonardo).not.toContain('Simulator:');
  });

  test('a context with findings and libraries follows the documented JSON schema', async () => {
    const context = await load(debianProvider(), join(SKETCHES, 'Libraries'), 'arduino:avr:leonardo');
    expect(() => arduinoContextSchema.parse(JSON.parse(JSON.stringify(context)))).not.toThrow();
    expect(context.libraries.length).toBeGreaterThan(5);
    expect(context.findings.length).toBeGreaterThan(0);
  });

  test('readOnlyRoots are the platform, core and variant folders and inputs list every file read', async () => {
    const context = await load(debianProvider(), join(SKETCHES, 'Libraries'), 'arduino:avr:uno');
    const avr = '/usr/share/arduino/hardware/arduino/avr';
    expect(context.readOnlyRoots.slice(0, 3)).toEqual([avr, `${avr}/cores/arduino`, `${avr}/variants/standard`]);
    for (const file of [`${avr}/boards.txt`, `${avr}/platform.txt`, `${avr}/variants/standard/pins_arduino.h`, `${avr}/cores/arduino/Arduino.h`, join(SKETCHES, 'Libraries/Libraries.ino'), join(SKETCHBOOK, 'libraries/Servo/library.properties')]) {
      expect(context.inputs).toContain(file);
    }
  });

  test('libraries are read when an include needs them, and what a library.properties says wrong is stated for the libraries the sketch uses', async () => {
    // The sketchbook's Broken library has a line without '=' and no version.
    const brokenWarnings = (context: HardwareContext) => context.warnings.filter((warning) => warning.file === join(SKETCHBOOK, 'libraries/Broken/library.properties')).map((warning) => warning.code);
    const libraryInputs = (context: HardwareContext) => context.inputs.filter((file) => file.endsWith('/library.properties'));

    // Blink includes no header: no library.properties is read, and none is an input of its context.
    const blink = await load(debianProvider(), join(SKETCHES, 'Blink'), 'arduino:avr:uno');
    expect(libraryInputs(blink)).toEqual([]);
    expect(brokenWarnings(blink)).toEqual([]);

    // A sketch that includes only the core's Arduino.h and Servo.h: every library folder is read
    // (arduino-cli ranks every library that has the header), Broken is not used.
    const servoOnly = join(TMP, 'ServoOnly');
    rmSync(servoOnly, { recursive: true, force: true });
    mkdirSync(servoOnly, { recursive: true });
    writeFileSync(join(servoOnly, 'ServoOnly.ino'), '#include <Arduino.h>\n#include <Servo.h>\nServo arm;\nvoid setup() { arm.attach(9); }\nvoid loop() {}\n');
    const servo = await load(debianProvider(), servoOnly, 'arduino:avr:uno');
    expect(servo.libraries.map((ref) => [ref.include, ref.name, ref.location])).toEqual([
      ['Arduino.h', undefined, 'core'],
      ['Servo.h', 'Servo', 'user'],
    ]);
    expect(libraryInputs(servo)).toContain(join(SKETCHBOOK, 'libraries/Broken/library.properties'));
    expect(brokenWarnings(servo)).toEqual([]);

    // The Libraries sketch includes Broken.h: Broken's warnings are its context's.
    const libraries = await load(debianProvider(), join(SKETCHES, 'Libraries'), 'arduino:avr:uno');
    expect(brokenWarnings(libraries)).toEqual(['properties-malformed-line', 'library-properties']);
  });
});

describe('caching and bad input', () => {
  const platformCopy = join(TMP, 'bad-hw');
  const dataDir = join(platformCopy, 'data');
  const avr = join(dataDir, 'packages/arduino/hardware/avr/1.8.7');
  const sketch = join(TMP, 'CacheSketch');

  beforeAll(() => {
    rmSync(platformCopy, { recursive: true, force: true });
    cpSync('/usr/share/arduino/hardware/arduino/avr', avr, { recursive: true, dereference: true });
    rmSync(sketch, { recursive: true, force: true });
    cpSync(join(SKETCHES, 'Blink'), sketch, { recursive: true });
    rmSync(join(sketch, 'Blink.ino'));
    cpSync(join(SKETCHES, 'Blink/Blink.ino'), join(sketch, 'CacheSketch.ino'));
  });

  const provider = () => createArduinoProvider({ dataDirs: [dataDir], sketchbookDirs: [], includeDebian: false, home: TMP });

  test('an unchanged context is not rebuilt; a changed input rebuilds it', async () => {
    const arduino = provider();
    const first = await load(arduino, sketch, 'arduino:avr:uno');
    expect(await load(arduino, sketch, 'arduino:avr:uno')).toBe(first);
    const later = new Date(Date.now() + 5000);
    utimesSync(join(avr, 'boards.txt'), later, later);
    const rebuilt = await load(arduino, sketch, 'arduino:avr:uno');
    expect(rebuilt).not.toBe(first);
    expect(rebuilt).toEqual(first);
  });

  test('malformed lines, unknown {} references, a missing variant and an unreadable header are warnings; the rest loads', async () => {
    const boards = readFileSync(join(avr, 'boards.txt'), 'utf8');
    writeFileSync(join(avr, 'boards.txt'), `${boards}\nthis line is broken\nuno.build.f_cpu={build.clock_that_does_not_exist}\nmini.build.variant=gone\n`);
    const brokenLine = boards.split('\n').length + 1;
    rmSync(join(avr, 'variants/eightanaloginputs'), { recursive: true });
    rmSync(join(avr, 'variants/leonardo/pins_arduino.h'));
    mkdirSync(join(avr, 'variants/leonardo/pins_arduino.h'));

    const uno = await load(provider(), sketch, 'arduino:avr:uno');
    expect(uno.warnings.find((warning) => warning.code === 'properties-malformed-line')).toMatchObject({ file: join(avr, 'boards.txt'), line: brokenLine });
    expect(uno.warnings.find((warning) => warning.code === 'properties-unknown-reference')).toMatchObject({ file: join(avr, 'boards.txt'), line: brokenLine + 1 });
    expect(uno.pins).toHaveLength(20);

    const mini = await load(provider(), sketch, 'arduino:avr:mini');
    expect(mini.warnings.find((warning) => warning.code === 'variant-missing')?.line).toBe(brokenLine + 2);
    expect(mini.board.flashBytes).toBeGreaterThan(0);

    const leonardo = await load(provider(), sketch, 'arduino:avr:leonardo');
    expect(leonardo.warnings.some((warning) => warning.code === 'header-unreadable' || warning.code === 'variant-header-missing')).toBe(true);
    expect(leonardo.board.mcu).toBe('atmega32u4');
  });
});
