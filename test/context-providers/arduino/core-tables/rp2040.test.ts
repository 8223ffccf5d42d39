// arduino-pico's pin facts read from the real 6.0.0 platform in the fixtures: each PWM, analog,
// interrupt and serial fact is checked against the line of the file it cites.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { readRp2040Tables } from '../../../../context-providers/arduino/core-tables/rp2040.js';
import type { CoreFacts } from '../../../../context-providers/arduino/core-tables/index.js';
import { buildPinMap } from '../../../../context-providers/arduino/pin-map.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { resolveFqbn } from '../../../../platform/arduino/resolve.js';
import { checkSketch } from '../../../../context-providers/arduino/sketch-check.js';
import { compileDefines, readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import { compileFlags } from '../../../../context-providers/arduino/compile-flags.js';
import type { SourceRef } from '../../../../context-providers/types.js';
import { FIXTURES, TMP } from '../paths.js';
import { sketchView } from './stm32-rp2040-sketch-view.js';

const DATA_DIR_32 = join(FIXTURES, 'data_dir_32bit');

function lineAt(source: SourceRef | undefined): string {
  expect(source?.line).toBeGreaterThan(0);
  return readFileSync(source!.file, 'utf8').split('\n')[source!.line! - 1];
}

describe('arduino-pico core tables', () => {
  let installed: InstalledPlatforms;
  const facts = (fqbn: string): CoreFacts => {
    const board = resolveFqbn(fqbn, installed);
    const result = readRp2040Tables(board, readVariantHeader(board));
    expect(result).toBeDefined();
    return result!;
  };

  beforeAll(async () => {
    installed = await discoverPlatforms({ dataDirs: [DATA_DIR_32], sketchbookDirs: [], includeDebian: false, home: TMP });
  });

  test('the Pico has 30 GPIOs, each with PWM on slice (gpio >> 1) & 7, as the cited data line says', () => {
    const pico = facts('rp2040:rp2040:rpipico');
    expect(pico.pins.map((pin) => pin.number)).toEqual([...Array(30).keys()]);
    for (const pin of pico.pins) {
      expect(pin.pwm?.timer).toBe(`PWM slice ${(pin.number >> 1) & 7}`);
      expect(pin.pwm?.channel).toBe(pin.number % 2 === 0 ? 'A' : 'B');
      expect(lineAt(pin.pwm?.source)).toContain('(gpio >> 1) & 7');
    }
    expect(pico.sharedTimers?.find((group) => group.timer === 'PWM slice 0')?.pins).toEqual([0, 1, 16, 17]);
    expect(pico.known.pwm.known).toBe(true);
  });

  test('the Pico reads analog on GPIO26-29 = A0-A3, each cited at the common.h line that names it', () => {
    const pico = facts('rp2040:rp2040:rpipico');
    const analog = pico.pins.filter((pin) => pin.analog);
    expect(analog.map((pin) => [pin.number, pin.analog!.input, pin.analog!.channel])).toEqual([
      [26, 0, 'ADC0'], [27, 1, 'ADC1'], [28, 2, 'ADC2'], [29, 3, 'ADC3'],
    ]);
    for (const pin of analog) expect(lineAt(pin.analog!.source)).toMatch(new RegExp(`A${pin.analog!.input} = \\(${pin.number}u\\)`));
    expect(pico.analogReadAcceptsChannelNumbers).toBe(false);
    expect(pico.warnings.map((warning) => warning.code)).toContain('rp2-platform-def-missing');
  });

  test('every Pico GPIO is its own interrupt number, from digitalPinToInterrupt(pin) (pin) in Arduino.h', () => {
    const pico = facts('rp2040:rp2040:rpipico');
    for (const pin of pico.pins) {
      expect(pin.interrupt?.number).toBe(pin.number);
      expect(lineAt(pin.interrupt?.source)).toMatch(/#define digitalPinToInterrupt\(pin\)\s+\(pin\)/);
    }
  });

  test('the Pico has Serial (USB), Serial1 on 0/1 and Serial2 on 8/9 from SerialUART.h and the variant', () => {
    const pico = facts('rp2040:rp2040:rpipico');
    expect(pico.serialPorts?.map((port) => [port.name, port.kind, port.pins])).toEqual([
      ['Serial', 'usb', undefined], ['Serial1', 'uart', { TX: 0, RX: 1 }], ['Serial2', 'uart', { TX: 8, RX: 9 }],
    ]);
    expect(lineAt(pico.serialPorts![1].source)).toContain('extern SerialUART Serial1');
    expect(lineAt(pico.serialPorts![0].source)).toContain('extern SerialUSB Serial');
    const tx = pico.pins[0].functions?.find((entry) => entry.fn === 'Serial1 TX');
    expect(lineAt(tx?.source)).toContain('PIN_SERIAL1_TX (0u)');
    expect(pico.buses?.map((bus) => [bus.name, bus.pins])).toEqual([
      ['Wire', { SDA: 4, SCL: 5 }], ['Wire1', { SDA: 26, SCL: 27 }],
      ['SPI', { MISO: 16, MOSI: 19, SCK: 18, SS: 17 }], ['SPI1', { MISO: 12, MOSI: 15, SCK: 14, SS: 13 }],
    ]);
  });

  test('the Pico 2 (RP2350A) keeps 30 GPIOs on slices 0-7 and the ADC on 26-29', () => {
    const pico2 = facts('rp2040:rp2040:rpipico2');
    expect(pico2.pins).toHaveLength(30);
    expect(new Set(pico2.pins.map((pin) => pin.pwm?.timer)).size).toBe(8);
    expect(pico2.pins.filter((pin) => pin.analog).map((pin) => pin.number)).toEqual([26, 27, 28, 29]);
    expect(lineAt(pico2.analogWriteWithoutPwm?.source)).toContain('#define __GPIOCNT 30');
  });

  test('an RP2350B board (PICO_RP2350A 0) has 48 GPIOs, slices 8-11 on GPIO32-47 and the ADC on 40-47', () => {
    const board = facts('rp2040:rp2040:MyRP_2350B');
    expect(board.pins).toHaveLength(48);
    expect(board.pins[32].pwm?.timer).toBe('PWM slice 8');
    expect(board.pins[47].pwm).toMatchObject({ timer: 'PWM slice 11', channel: 'B' });
    expect(lineAt(board.pins[47].pwm?.source)).toContain('8 + ((gpio >> 1) & 3)');
    expect(board.pins.filter((pin) => pin.analog).map((pin) => [pin.number, pin.analog!.input])).toEqual([...Array(8).keys()].map((i) => [40 + i, i]));
    expect(lineAt(board.analogWriteWithoutPwm?.source)).toContain('#define __GPIOCNT 48');
  });

  test('the Pico W also has the CYW43 WiFi chip GPIOs 64-66 (LED_BUILTIN is 64): digital only', () => {
    const picoW = facts('rp2040:rp2040:rpipicow');
    const wifi = picoW.pins.filter((pin) => pin.number >= 64);
    expect(wifi.map((pin) => [pin.number, pin.names])).toEqual([[64, ['WL_GPIO0']], [65, ['WL_GPIO1']], [66, ['WL_GPIO2']]]);
    for (const pin of wifi) {
      expect(pin.pwm ?? pin.analog ?? pin.interrupt).toBeUndefined();
      expect(lineAt(pin.traps![0].source)).toContain('CYW43_WL_GPIO_COUNT 3');
    }
    expect(facts('rp2040:rp2040:rpipico').pins.some((pin) => pin.number >= 64)).toBe(false);
  });

  test('an RP2350 board with PSRAM marks its RP2350_PSRAM_CS pin as a trap, cited at the variant line', () => {
    const plus2 = facts('rp2040:rp2040:pimoroni_pico_plus_2');
    const trap = plus2.pins[47].traps?.find((entry) => entry.code === 'rp2-psram-cs');
    expect(lineAt(trap?.source)).toMatch(/#define RP2350_PSRAM_CS\s+\(47u\)/);
    expect(facts('rp2040:rp2040:rpipico2').pins.some((pin) => pin.traps?.some((entry) => entry.code === 'rp2-psram-cs'))).toBe(false);
  });

  test('the Nano RP2040 Connect gets its SerialPIO Serial3 on SERIAL3_TX/RX', () => {
    const connect = facts('rp2040:rp2040:arduino_nano_connect');
    const serial3 = connect.serialPorts?.find((port) => port.name === 'Serial3');
    expect(serial3).toMatchObject({ kind: 'uart', pins: { TX: 8, RX: 9 } });
    expect(lineAt(serial3?.source)).toContain('extern SerialPIO Serial3');
  });

  test('with lib/rp2040/platform_def.txt installed, the chip macro comes from the recipe and nothing is taken from the data file', async () => {
    const source = join(DATA_DIR_32, 'packages/rp2040/hardware/rp2040/6.0.0');
    const platform = join(TMP, 'rp2040-with-lib/hardware/rp2040/rp2040');
    rmSync(join(TMP, 'rp2040-with-lib'), { recursive: true, force: true });
    mkdirSync(join(platform, 'lib/rp2040'), { recursive: true });
    for (const dir of ['cores', 'variants/rpipico', 'variants/generic']) cpSync(join(source, dir), join(platform, dir), { recursive: true });
    cpSync(join(source, 'platform.txt'), join(platform, 'platform.txt'));
    const boards = readFileSync(join(source, 'boards.txt'), 'utf8').split('\n').filter((line) => /^(menu\.|rpipico\.)/.test(line));
    writeFileSync(join(platform, 'boards.txt'), `${boards.join('\n')}\n`);
    writeFileSync(join(platform, 'lib/platform_def.txt'), '-DCFG_TUSB_MCU=OPT_MCU_RP2040\n');
    writeFileSync(join(platform, 'lib/rp2040/platform_def.txt'), '-DPICO_PLATFORM=rp2040\n-DPICO_RP2040=1\n');
    const own = await discoverPlatforms({ dataDirs: [], sketchbookDirs: [], includeDebian: false, hardwareDirs: [join(TMP, 'rp2040-with-lib/hardware')], home: TMP });
    const board = resolveFqbn('rp2040:rp2040:rpipico', own);
    const variant = readVariantHeader(board);
    expect(variant.defines.PICO_RP2040).toBe('1');
    const result = readRp2040Tables(board, variant)!;
    expect(result.warnings.map((warning) => warning.code)).not.toContain('rp2-platform-def-missing');
    expect(result.pins.filter((pin) => pin.analog).map((pin) => pin.analog!.input)).toEqual([0, 1, 2, 3]);
  });

  test('without lib/rp2040/platform_def.txt, the board\'s -D flags take the chip macro from the data file, so the variant header is read under it once', () => {
    const board = resolveFqbn('rp2040:rp2040:rpipico', installed);
    expect(compileFlags(board).defines.PICO_RP2040).toBeUndefined();
    expect(compileDefines(board).PICO_RP2040).toBe('1');
    const variant = readVariantHeader(board);
    expect(variant.defines.PICO_RP2040).toBe('1');
    // common.h's A0-A3 are constants of the variant header itself, as gcc reads it with the macro.
    expect(['A0', 'A1', 'A2', 'A3'].map((name) => variant.constants.get(name)?.value)).toEqual([26, 27, 28, 29]);
    const result = readRp2040Tables(board, variant)!;
    expect(result.warnings.map((warning) => warning.code)).toContain('rp2-platform-def-missing');
    // The core's tables use the header already read: no file of theirs is read a second time.
    expect(result.files.filter((file) => file.endsWith('/Arduino.h'))).toHaveLength(1);
    // Another core's flags get no such macro.
    expect(compileDefines(resolveFqbn('arduino:samd:mkrwifi1010', installed)).PICO_RP2040).toBeUndefined();
  });

  test('a board of another core is not read', () => {
    const uno = resolveFqbn('arduino:samd:mkrwifi1010', installed);
    expect(readRp2040Tables(uno, readVariantHeader(uno))).toBeUndefined();
  });

  test('through the sketch check, analogRead(0) is one error (the Pico has no ADC on GPIO0) and analogRead(A0) none', () => {
    const board = resolveFqbn('rp2040:rp2040:rpipico', installed);
    const dir = join(TMP, 'rp2040-analog');
    mkdirSync(dir, { recursive: true });
    const sketch = join(dir, 'rp2040-analog.ino');
    writeFileSync(sketch, 'void setup() {}\nvoid loop() {\n  analogRead(0);\n  analogRead(A0);\n  analogRead(28);\n}\n');
    const findings = checkSketch([sketch], dir, board, buildPinMap(board), []).filter((finding) => finding.severity === 'error');
    expect(findings.map((finding) => [finding.code, finding.line])).toEqual([['analog-pin', 3]]);
  });

  test('PWM pins of one slice warn when the sketch sets two frequencies, and n / n+16 warn as one output', () => {
    const pico = facts('rp2040:rp2040:rpipico');
    const board = resolveFqbn('rp2040:rp2040:rpipico', installed);
    const twoFrequencies = pico.check!(sketchView('void setup() {\n analogWriteFreq(1000);\n analogWrite(2, 10);\n analogWriteFreq(20000);\n analogWrite(3, 20);\n analogWrite(4, 30);\n}', board));
    expect(twoFrequencies.map((finding) => [finding.code, finding.line])).toEqual([['rp2-pwm-slice-frequency', 5]]);
    expect(twoFrequencies[0].message).toContain('GPIO2 and GPIO3 share PWM slice 1');
    const oneFrequency = pico.check!(sketchView('void setup() { analogWrite(2, 10); analogWrite(3, 20); }', board));
    expect(oneFrequency).toEqual([]);
    const sameOutput = pico.check!(sketchView('void setup() { analogWrite(0, 10); analogWrite(16, 200); }', board));
    expect(sameOutput.map((finding) => finding.code)).toEqual(['rp2-pwm-same-output']);
  });

  test('every arduino-pico board gets a pin table or a stated reason, without throwing', () => {
    const platform = installed.platforms.get('rp2040:rp2040')!;
    let withPins = 0;
    const reasons: string[] = [];
    for (const definition of platform.load().boards.values()) {
      const board = resolveFqbn(`rp2040:rp2040:${definition.id}`, installed);
      const result = readRp2040Tables(board, readVariantHeader(board))!;
      expect(result.core).toBe('rp2040');
      if (result.pins.length > 0) withPins++;
      else reasons.push(`${definition.id}: ${result.known.pwm.known ? '' : result.known.pwm.reason}`);
    }
    console.log(`arduino-pico: ${platform.load().boards.size} boards, ${withPins} with a pin table; without: ${reasons.join('; ') || 'none'}`);
    expect(withPins + reasons.length).toBe(platform.load().boards.size);
  });
});
