import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import { ResolveError, resolveFqbn } from '../../../platform/arduino/resolve.js';
import { DATA_DIR, FIXTURES, TMP, USER_HARDWARE } from '../../context-providers/arduino/paths.js';

function resolveError(run: () => unknown): ResolveError {
  try {
    run();
  } catch (error) {
    if (error instanceof ResolveError) return error;
    throw error;
  }
  throw new Error('expected a ResolveError');
}

describe('platform discovery and resolution on the shared fixtures', () => {
  const sketchbook = join(TMP, 'sketchbook');
  beforeAll(() => {
    rmSync(sketchbook, { recursive: true, force: true });
    mkdirSync(sketchbook, { recursive: true });
    cpSync(USER_HARDWARE, join(sketchbook, 'hardware'), { recursive: true });
  });

  const discover = () => discoverPlatforms({ dataDirs: [DATA_DIR], sketchbookDirs: [sketchbook], includeDebian: false, home: TMP });

  test('the data dir and the sketchbook hardware folder are both found', async () => {
    const installed = await discover();
    expect([...installed.platforms.keys()].sort()).toEqual(['arduino:avr', 'esp8266:esp8266', 'my_avr_platform:avr', 'watterott:avr']);
    expect(installed.platforms.get('arduino:avr')!.version).toBe('1.8.3');
  });

  test("a board's serial.disableDTR/RTS becomes the serial monitor's dtr/rts setting, as arduino-cli converts it, citing the line", async () => {
    const installed = await discover();
    const board = resolveFqbn('esp8266:esp8266:generic', installed);
    const boardsTxt = join(DATA_DIR, 'packages/esp8266/hardware/esp8266/3.0.2/boards.txt');
    expect(board.properties.get('serial.disableDTR')).toBe('true');
    expect(board.properties.get('monitor_port.serial.dtr')).toBe('off');
    expect(board.properties.get('monitor_port.serial.rts')).toBe('off');
    expect(board.sources.get('monitor_port.serial.dtr')).toEqual(board.sources.get('serial.disableDTR'));
    expect(board.sources.get('monitor_port.serial.dtr')).toMatchObject({ file: boardsTxt, line: 37 });
  });

  test("a pre-pluggable core's upload.tool, also a menu option's, gains the upload.tool.default arduino-cli gives it, citing the line", async () => {
    const installed = await discover();
    const boardsTxt = join(DATA_DIR, 'packages/esp8266/hardware/esp8266/3.0.2/boards.txt');
    const ota = resolveFqbn('esp8266:esp8266:espduino:UploadTool=espota', installed);
    expect(ota.properties.get('upload.tool.default')).toBe('espota');
    expect(ota.sources.get('upload.tool.default')).toMatchObject({ file: boardsTxt, line: 2428 });
    const serial = resolveFqbn('esp8266:esp8266:espduino:UploadTool=esptool', installed);
    expect(serial.properties.get('upload.tool.default')).toBe('esptool');
    expect(serial.sources.get('upload.tool.default')).toMatchObject({ file: boardsTxt, line: 2430 });
  });

  test('a sketchbook board referring to arduino:arduino and arduino:yun takes core and variant from the arduino platform', async () => {
    const installed = await discover();
    const board = resolveFqbn('my_avr_platform:avr:custom_yun', installed);
    const arduinoAvr = join(DATA_DIR, 'packages/arduino/hardware/avr/1.8.3');
    expect(board.corePath).toBe(join(arduinoAvr, 'cores/arduino'));
    expect(board.variantPath).toBe(join(arduinoAvr, 'variants/yun'));
    expect(board.platformPath).toBe(join(sketchbook, 'hardware/my_avr_platform/avr'));
    // The board platform's own platform.txt wins over the referenced core platform's.
    expect(board.properties.get('version')).toBe('9.9.9');
    // The core platform supplies the recipes my_avr_platform lacks.
    expect(board.properties.get('recipe.c.o.pattern')).toContain('{compiler.path}');
    expect(board.expanded('build.extra_flags')).toContain('-DUSB_VID=0x2341');
  });

  test('a board without build.board gets ARCH_BOARDID', async () => {
    const installed = await discover();
    expect(resolveFqbn('my_avr_platform:avr:mymega', installed).properties.get('build.board')).toBe('AVR_MYMEGA');
  });

  test('legacy vid/pid and upload.tool become pluggable-discovery keys', async () => {
    const installed = await discover();
    const uno = resolveFqbn('arduino:avr:uno', installed);
    expect(uno.properties.get('upload_port.0.vid')).toBe('0x2341');
    expect(uno.properties.get('upload.tool.default')).toBe('avrdude');
    expect(uno.properties.get('runtime.ide.version')).toBe('10607');
  });

  test('an unknown board names the nearest match and the valid boards', async () => {
    const installed = await discover();
    const error = resolveError(() => resolveFqbn('arduino:avr:unoo', installed));
    expect(error.kind).toBe('board');
    expect(error.message).toContain('Did you mean "uno"');
    expect(error.choices).toContain('mega');
  });

  test('an unknown option value lists the valid values with the nearest one', async () => {
    const installed = await discover();
    const error = resolveError(() => resolveFqbn('arduino:avr:nano:cpu=atmega328bad', installed));
    expect(error.kind).toBe('value');
    expect(error.choices).toEqual(['atmega328', 'atmega328old', 'atmega168']);
    expect(error.message).toMatch(/Did you mean "atmega328/);
    expect(resolveError(() => resolveFqbn('arduino:avr:uno:cpu=atmega328', installed)).kind).toBe('option');
    expect(resolveError(() => resolveFqbn('arduino avr uno', installed)).kind).toBe('fqbn');
    expect(resolveError(() => resolveFqbn('arduino:samd:zero', installed)).message).toContain('arduino-cli core install arduino:samd');
  });

  test('options equal to the default are dropped when normalising', async () => {
    const installed = await discover();
    expect(resolveFqbn('arduino:avr:nano:cpu=atmega328', installed).fqbn).toBe('arduino:avr:nano');
    const old = resolveFqbn('arduino:avr:nano:cpu=atmega328old', installed);
    expect(old.fqbn).toBe('arduino:avr:nano:cpu=atmega328old');
    expect(old.properties.get('upload.speed')).toBe('57600');
  });

  test("Arduino IDE 2.x's ~/.arduinoIDE/arduino-cli.yaml names the data and sketchbook folders", async () => {
    const home = join(TMP, 'ide-home');
    rmSync(home, { recursive: true, force: true });
    mkdirSync(join(home, '.arduinoIDE'), { recursive: true });
    writeFileSync(join(home, '.arduinoIDE/arduino-cli.yaml'), `board_manager:\n  additional_urls: []\ndirectories:\n  data: "${DATA_DIR}"\n  user: ${sketchbook}  # the sketchbook\n`);
    const installed = await discoverPlatforms({ includeDebian: false, home });
    expect(installed.inputs).toContain(join(home, '.arduinoIDE/arduino-cli.yaml'));
    expect(installed.sketchbookDirs).toEqual([sketchbook]);
    expect([...installed.platforms.keys()].sort()).toEqual(['arduino:avr', 'esp8266:esp8266', 'my_avr_platform:avr', 'watterott:avr']);
  });

  test('a menu whose first option is hidden on this OS defaults to its first visible option', async () => {
    const installed = await discover();
    const board = resolveFqbn('esp8266:esp8266:eduinowifi', installed);
    expect(board.options.find((option) => option.option === 'baud')?.value).toBe('57600');
    expect(board.properties.get('upload.speed')).toBe('57600');
    expect(resolveError(() => resolveFqbn('esp8266:esp8266:eduinowifi:baud=512000', installed)).kind).toBe('value');
  });

  test('the esp8266 platform resolves with its many menus, first option by default', async () => {
    const installed = await discover();
    const board = resolveFqbn('esp8266:esp8266:nodemcuv2', installed);
    expect(board.options.length).toBeGreaterThan(10);
    expect(board.options.every((option) => option.isDefault)).toBe(true);
    expect(board.properties.get('build.mcu')).toBe('esp8266');
    expect(board.expanded('recipe.c.o.pattern')).not.toMatch(/\{build\.mcu\}/);
  });
});

describe('boards.local.txt and platform.local.txt', () => {
  test('local files merge over the platform and can add a menu option', async () => {
    const root = join(TMP, 'local-txts');
    const platform = join(root, 'packages/arduino/hardware/avr/1.8.3');
    rmSync(root, { recursive: true, force: true });
    cpSync(join(DATA_DIR, 'packages/arduino/hardware/avr/1.8.3'), platform, { recursive: true });
    cpSync(join(FIXTURES, 'local_txts/boards.local.txt'), join(platform, 'boards.local.txt'));
    cpSync(join(FIXTURES, 'local_txts/platform.local.txt'), join(platform, 'platform.local.txt'));
    const installed = await discoverPlatforms({ dataDirs: [root], sketchbookDirs: [], includeDebian: false, home: TMP });
    const board = resolveFqbn('arduino:avr:diecimila:cpu=atmega123', installed);
    expect(board.properties.get('upload.maximum_size')).toBe('14336');
    expect(board.sources.get('upload.maximum_size')?.file).toBe(join(platform, 'boards.local.txt'));
    expect(board.properties.get('tools.avrdude.cmd.path')).toBe('/my/personal/avrdude');
  });
});

describe('the pre-1.5 layout of arduino-mighty-1284p', () => {
  test('is recognised and refused with the reason', async () => {
    const root = join(TMP, 'legacy-hw');
    rmSync(root, { recursive: true, force: true });
    mkdirSync(join(root, 'mighty-1284p'), { recursive: true });
    writeFileSync(join(root, 'mighty-1284p/boards.txt'), 'mighty.name=Mighty 1284p\nmighty.build.mcu=atmega1284p\n');
    const installed = await discoverPlatforms({ dataDirs: [], sketchbookDirs: [], includeDebian: false, hardwareDirs: [root], home: TMP });
    expect(installed.legacy).toHaveLength(1);
    expect(installed.legacy[0].reason).toContain('pre-1.5 hardware layout');
    const error = resolveError(() => resolveFqbn('mighty-1284p:avr:mighty', installed));
    expect(error.message).toContain('no architecture folder');
  });

  test("Debian's installed package is found in /usr/share/arduino/hardware", async () => {
    const installed = await discoverPlatforms({ dataDirs: [], sketchbookDirs: [], home: TMP });
    const legacy = installed.legacy.find((entry) => entry.vendor === 'mighty-1284p');
    expect(legacy?.boardIds).toContain('mighty_opt');
  });
});
