// Espressif's own 3.x layout: the SDK headers live in the esp32-arduino-libs tool
// (`packages/esp32/tools/esp32-arduino-libs/<ver>/<mcu>/include/soc/<mcu>/include/soc/*.h`), found
// through platform.txt's compiler.sdk.path. The test writes a small tree in that shape.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { readEsp32Tables } from '../../../../context-providers/arduino/core-tables/esp32.js';
import { buildPinMap } from '../../../../context-providers/arduino/pin-map.js';
import { checkSketch } from '../../../../context-providers/arduino/sketch-check.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { resolveFqbn } from '../../../../platform/arduino/resolve.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import type { SourceRef } from '../../../../context-providers/types.js';
import { TMP } from '../paths.js';
import { citedLine } from './table-lines.js';
import { esp32Findings } from './esp32-findings.js';

const ROOT = join(TMP, 'esp32-arduino-libs');
const PLATFORM = join(ROOT, 'packages/esp32/hardware/esp32/3.0.7');
const LIBS = join(ROOT, 'packages/esp32/tools/esp32-arduino-libs/idf-release_v5.1-632e0c2a');

const write = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
/** A figure of esp32-chips.json: its key line and the value and source lines under it. */
const jsonFigure = (source: SourceRef | undefined): string => readFileSync(source!.file, 'utf8').split('\n').slice(source!.line! - 1, source!.line! + 2).join(' ');

function writeTree(): void {
  rmSync(ROOT, { recursive: true, force: true });
  write(join(PLATFORM, 'platform.txt'), [
    'name=ESP32 Arduino',
    'version=3.0.7',
    'tools.esp32-arduino-libs.path={runtime.tools.esp32-arduino-libs.path}',
    'compiler.sdk.path={tools.esp32-arduino-libs.path}/{build.mcu}',
    'build.extra_flags.esp32s3=-DARDUINO_USB_MODE={build.usb_mode} -DARDUINO_USB_CDC_ON_BOOT={build.cdc_on_boot}',
    'build.extra_flags.esp32c3=-DARDUINO_USB_MODE=1 -DARDUINO_USB_CDC_ON_BOOT={build.cdc_on_boot}',
    'build.extra_flags.esp32=-DARDUINO_USB_CDC_ON_BOOT=0',
    'build.defines=',
    'build.extra_flags=-DESP32=ESP32 {build.defines} {build.extra_flags.{build.mcu}}',
    'recipe.cpp.o.pattern="xtensa-g++" -DARDUINO={runtime.ide.version} -DARDUINO_{build.board} {build.extra_flags} "-I{compiler.sdk.path}/include" {includes} "{source_file}" -o "{object_file}"',
    '',
  ].join('\n'));
  write(join(PLATFORM, 'boards.txt'), [
    'menu.CDCOnBoot=USB CDC On Boot',
    'esp32s3.name=ESP32S3 Dev Module',
    'esp32s3.build.mcu=esp32s3',
    'esp32s3.build.core=esp32',
    'esp32s3.build.variant=esp32s3',
    'esp32s3.build.board=ESP32S3_DEV',
    'esp32s3.build.usb_mode=1',
    'esp32s3.menu.CDCOnBoot.default=Disabled',
    'esp32s3.menu.CDCOnBoot.default.build.cdc_on_boot=0',
    'esp32s3.menu.CDCOnBoot.cdc=Enabled',
    'esp32s3.menu.CDCOnBoot.cdc.build.cdc_on_boot=1',
    'esp32c3.name=ESP32C3 Dev Module',
    'esp32c3.build.mcu=esp32c3',
    'esp32c3.build.core=esp32',
    'esp32c3.build.variant=esp32c3',
    'esp32c3.build.board=ESP32C3_DEV',
    'esp32c3.build.cdc_on_boot=0',
    'nano_nora.name=Arduino Nano ESP32',
    'nano_nora.build.mcu=esp32s3',
    'nano_nora.build.core=esp32',
    'nano_nora.build.variant=esp32s3',
    'nano_nora.build.board=NANO_ESP32',
    'nano_nora.build.usb_mode=0',
    'nano_nora.build.cdc_on_boot=1',
    'nano_nora.build.defines=-DBOARD_HAS_PIN_REMAP',
    'esp32.name=ESP32 Dev Module',
    'esp32.build.mcu=esp32',
    'esp32.build.core=esp32',
    'esp32.build.variant=esp32',
    'esp32.build.board=ESP32_DEV',
    '',
  ].join('\n'));
  // The 3.x API: ledcAttach takes the pin, ledcSetup and ledcAttachPin are gone.
  write(join(PLATFORM, 'cores/esp32/esp32-hal-ledc.h'), [
    '#pragma once',
    '#include "soc/soc_caps.h"',
    '#if SOC_LEDC_SUPPORTED',
    'bool ledcAttach(uint8_t pin, uint32_t freq, uint8_t resolution);',
    'bool ledcAttachChannel(uint8_t pin, uint32_t freq, uint8_t resolution, uint8_t channel);',
    'bool ledcWrite(uint8_t pin, uint32_t duty);',
    'bool ledcDetach(uint8_t pin);',
    '#endif',
    '',
  ].join('\n'));
  write(join(PLATFORM, 'cores/esp32/esp32-hal.h'), 'void analogWrite(uint8_t pin, int value);\nvoid analogWriteResolution(uint8_t bits);\n');
  write(join(PLATFORM, 'cores/esp32/HardwareSerial.h'), [
    '#include "soc/soc_caps.h"',
    '#if SOC_UART_HP_NUM > 1',
    '#ifndef RX1',
    '#if CONFIG_IDF_TARGET_ESP32',
    '#define RX1 (gpio_num_t)26',
    '#elif CONFIG_IDF_TARGET_ESP32S3',
    '#define RX1 (gpio_num_t)15',
    '#endif',
    '#endif',
    '#ifndef TX1',
    '#if CONFIG_IDF_TARGET_ESP32',
    '#define TX1 (gpio_num_t)27',
    '#elif CONFIG_IDF_TARGET_ESP32S3',
    '#define TX1 (gpio_num_t)16',
    '#endif',
    '#endif',
    '#endif',
    'class HardwareSerial;',
    '#ifndef ARDUINO_USB_CDC_ON_BOOT',
    '#define ARDUINO_USB_CDC_ON_BOOT 0',
    '#endif',
    '#if ARDUINO_USB_CDC_ON_BOOT',
    '#if ARDUINO_USB_MODE',
    '#define Serial HWCDCSerial',
    '#else',
    '#define Serial USBSerial',
    '#endif',
    '#else',
    '#define Serial Serial0',
    '#endif',
    'extern HardwareSerial Serial0;',
    '#if SOC_UART_NUM > 1',
    'extern HardwareSerial Serial1;',
    '#endif',
    '#if SOC_UART_NUM > 2',
    'extern HardwareSerial Serial2;',
    '#endif',
    '',
  ].join('\n'));
  write(join(PLATFORM, 'variants/esp32s3/pins_arduino.h'), [
    '#include <stdint.h>',
    '#define NUM_DIGITAL_PINS 49',
    '#define digitalPinToInterrupt(p) (((p) < 49) ? (p) : -1)',
    'static const uint8_t TX = 43;',
    'static const uint8_t RX = 44;',
    'static const uint8_t A0 = 1;',
    'static const uint8_t A10 = 11;',
    'static const uint8_t T1 = 1;',
    '',
  ].join('\n'));
  write(join(PLATFORM, 'variants/esp32c3/pins_arduino.h'), 'static const uint8_t TX = 21;\nstatic const uint8_t RX = 20;\nstatic const uint8_t A0 = 0;\n');
  // esp32 has no variant folder here on purpose: its facts come from the SDK and the chip data.
  const soc = (mcu: string, name: string, text: string): void => write(join(LIBS, mcu, 'include/soc', mcu, 'include/soc', name), text);
  soc('esp32s3', 'soc_caps.h', [
    '#pragma once',
    '#define SOC_LEDC_SUPPORTED 1',
    '#define SOC_GPIO_PIN_COUNT 49',
    '#define SOC_GPIO_VALID_GPIO_MASK (0x1FFFFFFFFFFFFULL & ~(0ULL | BIT22 | BIT23 | BIT24 | BIT25))',
    '#define SOC_GPIO_VALID_OUTPUT_GPIO_MASK (SOC_GPIO_VALID_GPIO_MASK)',
    '#define SOC_TOUCH_SENSOR_SUPPORTED 1',
    '#define SOC_UART_NUM (3)',
    '#define SOC_UART_HP_NUM (3)',
    '',
  ].join('\n'));
  soc('esp32s3', 'adc_channel.h', '#define ADC1_GPIO1_CHANNEL 0\n#define ADC1_CHANNEL_0_GPIO_NUM 1\n#define ADC2_GPIO11_CHANNEL 0\n#define ADC2_CHANNEL_0_GPIO_NUM 11\n');
  soc('esp32s3', 'touch_sensor_channel.h', '#define TOUCH_PAD_GPIO1_CHANNEL 1\n#define TOUCH_PAD_NUM1_GPIO_NUM 1\n');
  soc('esp32c3', 'adc_channel.h', '#define ADC1_GPIO0_CHANNEL 0\n#define ADC2_GPIO5_CHANNEL 0\n');
  soc('esp32c3', 'soc_caps.h', '#define SOC_LEDC_SUPPORTED 1\n#define SOC_GPIO_PIN_COUNT 22\n#define SOC_GPIO_VALID_GPIO_MASK ((1U<<SOC_GPIO_PIN_COUNT) - 1)\n#define SOC_GPIO_VALID_OUTPUT_GPIO_MASK SOC_GPIO_VALID_GPIO_MASK\n#define SOC_UART_NUM (2)\n#define SOC_UART_HP_NUM (2)\n');
  soc('esp32', 'soc_caps.h', '#define SOC_GPIO_PIN_COUNT 40\n#define SOC_UART_NUM (3)\n#define SOC_UART_HP_NUM (3)\n');
  write(join(ROOT, 'sketches/adc2_wifi/adc2_wifi.ino'), '#include <WiFi.h>\nvoid setup() {\n  WiFi.begin("net", "pass");\n  ledcAttach(4, 5000, 8);\n  ledcSetup(0, 5000, 8);\n}\nvoid loop() {\n  int v = analogRead(A10);\n  analogRead(A0);\n}\n');
  write(join(ROOT, 'sketches/serial2/serial2.ino'), 'void setup() {\n  Serial2.begin(9600, SERIAL_8N1, 16, 17);\n  Serial1.begin(9600);\n  pinMode(4, OUTPUT);\n}\nvoid loop() {}\n');
  write(join(ROOT, 'sketches/c3_touch/c3_touch.ino'), 'void setup() {\n  touchRead(2);\n  dacWrite(3, 100);\n  pinMode(9, INPUT);\n  pinMode(13, OUTPUT);\n  digitalWrite(19, HIGH);\n  analogRead(5);\n}\nvoid loop() {}\n');
}

describe('ESP32 3.x layout with the esp32-arduino-libs tool (a tree written by the test)', () => {
  let installed: InstalledPlatforms;

  beforeAll(async () => {
    writeTree();
    installed = await discoverPlatforms({ dataDirs: [ROOT], sketchbookDirs: [], includeDebian: false, home: TMP });
  });

  test('soc headers come from the tool\'s <mcu>/include/soc/<mcu>/include/soc folder and win over the data', () => {
    const board = resolveFqbn('esp32:esp32:esp32s3', installed);
    const facts = readEsp32Tables(board, readVariantHeader(board))!;
    const socDir = join(LIBS, 'esp32s3/include/soc/esp32s3/include/soc');
    expect(facts.pins).toHaveLength(45);
    expect(facts.pins.every((pin) => pin.pwm)).toBe(true);
    const gpio1 = facts.pins.find((pin) => pin.number === 1)!;
    expect(gpio1.analog).toMatchObject({ input: 0, channel: 'ADC1_CH0', source: { file: join(socDir, 'adc_channel.h'), line: 1 } });
    expect(gpio1.traps?.find((trap) => trap.code === 'touch')?.source.file).toBe(join(socDir, 'touch_sensor_channel.h'));
    // Not in the written adc_channel.h: nothing the installed header leaves out is taken from the data instead.
    expect(facts.pins.filter((pin) => pin.analog).map((pin) => pin.number)).toEqual([1, 11]);
    expect(jsonFigure(facts.pins.find((pin) => pin.number === 11)!.traps!.find((trap) => trap.code === 'adc2-wifi')!.source)).toMatch(/"adc2WithWifi": \{\s+"value": "arbitrated",\s+"source": "espressif\/esp-idf v5.5 components\/soc\/esp32s3\/include\/soc\/soc_caps.h:\d+/);
  });

  test('Serial is Serial0 on UART0 with the variant\'s pins, Serial1 and Serial2 exist by SOC_UART_NUM with HardwareSerial.h\'s default pins', () => {
    const board = resolveFqbn('esp32:esp32:esp32s3', installed);
    const facts = readEsp32Tables(board, readVariantHeader(board))!;
    const ports = facts.serialPorts!;
    expect(ports.map((port) => `${port.name} ${port.kind}`)).toEqual(['Serial uart', 'Serial0 uart', 'Serial1 uart', 'Serial2 uart']);
    expect(ports[0].pins).toEqual({ TX: 43, RX: 44 });
    expect(ports[2].pins).toEqual({ RX: 15, TX: 16 });
    expect(facts.pins.find((pin) => pin.number === 15)!.functions).toEqual([{ fn: 'Serial1 RX', capability: 'uart', source: ports[2].source }]);
    expect(citedLine(ports[3].source)).toBe('extern HardwareSerial Serial2;');
  });

  test('with "USB CDC On Boot" enabled Serial is the USB port', () => {
    const board = resolveFqbn('esp32:esp32:esp32s3:CDCOnBoot=cdc', installed);
    const ports = readEsp32Tables(board, readVariantHeader(board))!.serialPorts!;
    expect(ports[0]).toMatchObject({ name: 'Serial', kind: 'usb' });
    expect(citedLine(ports[0].source)).toBe('#define Serial HWCDCSerial');
  });

  test('the C3 has two UARTs, so no Serial2; an ESP32 without its variant folder still has Serial2', () => {
    const c3 = resolveFqbn('esp32:esp32:esp32c3', installed);
    expect(readEsp32Tables(c3, readVariantHeader(c3))!.serialPorts!.map((port) => port.name)).toEqual(['Serial', 'Serial0', 'Serial1']);
    const esp32 = resolveFqbn('esp32:esp32:esp32', installed);
    const variant = readVariantHeader(esp32);
    expect(variant.warnings.map((warning) => warning.code)).toContain('variant-missing');
    const facts = readEsp32Tables(esp32, variant)!;
    expect(facts.known.serial.known).toBe(true);
    expect(facts.serialPorts!.map((port) => port.name)).toContain('Serial2');
    expect(facts.serialPorts!.find((port) => port.name === 'Serial1')!.pins).toEqual({ RX: 26, TX: 27 });
    // The soc_caps.h written here has no masks: GPIOs and input-only pins come from the data file.
    expect(facts.pins.filter((pin) => !pin.pwm).map((pin) => pin.number)).toEqual([34, 35, 36, 37, 38, 39]);
    expect(facts.pins.find((pin) => pin.number === 36)!.analog!.source.file).toMatch(/boards\/data\/esp32-chips\.json$/);
    // The whole sketch check on that board: Serial2 is no ERROR (nor anything else missing knowledge could cause).
    const findings = checkSketch([join(ROOT, 'sketches/serial2/serial2.ino')], join(ROOT, 'sketches/serial2'), esp32, buildPinMap(esp32), []);
    expect(findings.filter((finding) => finding.severity === 'error')).toEqual([]);
  });

  test('checks: ledcSetup is an ERROR on a 3.x core, ADC2 with Wi-Fi a WARNING on the S3', () => {
    const board = resolveFqbn('esp32:esp32:esp32s3', installed);
    const findings = esp32Findings(join(ROOT, 'sketches/adc2_wifi/adc2_wifi.ino'), board);
    expect(findings.map((finding) => `${finding.line} ${finding.severity} ${finding.code}`)).toEqual(['5 error esp32-ledc-api', '8 warning esp32-adc2-wifi']);
    expect(findings[0].message).toContain('removed in arduino-esp32 3.0');
    expect(findings[0].suggestion).toContain('ledcAttach(pin, freq, bits)');
  });

  test('with BOARD_HAS_PIN_REMAP sketch pins are D-numbers: GPIO facts are stated unknown and no pin check runs', () => {
    const board = resolveFqbn('esp32:esp32:nano_nora', installed);
    const facts = readEsp32Tables(board, readVariantHeader(board))!;
    expect(facts.pins).toEqual([]);
    expect(facts.known.pwm).toMatchObject({ known: false, reason: expect.stringContaining('BOARD_HAS_PIN_REMAP') });
    expect(facts.serialPorts![0]).toMatchObject({ name: 'Serial', kind: 'usb' });
    expect(citedLine(facts.serialPorts![0].source)).toBe('#define Serial USBSerial');
    const findings = esp32Findings(join(ROOT, 'sketches/adc2_wifi/adc2_wifi.ino'), board);
    expect(findings.map((finding) => `${finding.line} ${finding.severity} ${finding.code}`)).toEqual(['5 error esp32-ledc-api']);
  });

  test('checks: touchRead and dacWrite do not exist on the C3; flash, strapping and USB pins', () => {
    const board = resolveFqbn('esp32:esp32:esp32c3', installed);
    const findings = esp32Findings(join(ROOT, 'sketches/c3_touch/c3_touch.ino'), board);
    expect(findings.map((finding) => `${finding.line} ${finding.severity} ${finding.code}`)).toEqual([
      '2 error esp32-no-touch',
      '3 error esp32-no-dac',
      '4 warning esp32-strapping-pin',
      '5 error esp32-flash-pin',
      '6 warning esp32-usb-pin',
      '7 warning esp32-adc2-oneshot',
    ]);
    expect(findings[0].message).toBe('ESP32-C3 has no touch sensor, so touchRead does not exist on ESP32C3 Dev Module');
  });
});

// Espressif's 2.0.x layout keeps each chip's SDK in the platform: tools/sdk/<mcu>/include/soc/<mcu>/include/soc.
describe('ESP32 2.0.x layout with tools/sdk/<mcu> in the platform (a tree written by the test)', () => {
  const root = join(TMP, 'esp32-sdk-2x');
  const platform = join(root, 'packages/esp32/hardware/esp32/2.0.17');
  let installed: InstalledPlatforms;

  beforeAll(async () => {
    rmSync(root, { recursive: true, force: true });
    write(join(platform, 'platform.txt'), 'name=ESP32 Arduino\nversion=2.0.17\ncompiler.sdk.path={runtime.platform.path}/tools/sdk/{build.mcu}\nrecipe.cpp.o.pattern="riscv32-esp-elf-g++" -DARDUINO_USB_CDC_ON_BOOT={build.cdc_on_boot} {includes} "{source_file}"\n');
    write(join(platform, 'boards.txt'), 'esp32c3.name=ESP32C3 Dev Module\nesp32c3.build.mcu=esp32c3\nesp32c3.build.core=esp32\nesp32c3.build.variant=esp32c3\nesp32c3.build.cdc_on_boot=0\n');
    write(join(platform, 'cores/esp32/esp32-hal-ledc.h'), 'uint32_t ledcSetup(uint8_t chan, uint32_t freq, uint8_t bit_num);\nvoid ledcWrite(uint8_t chan, uint32_t duty);\nvoid ledcAttachPin(uint8_t pin, uint8_t chan);\nvoid analogWrite(uint8_t pin, int value);\n');
    write(join(platform, 'cores/esp32/HardwareSerial.h'), '#include "soc/soc_caps.h"\n#if ARDUINO_USB_CDC_ON_BOOT\nextern HardwareSerial Serial0;\n#else\nextern HardwareSerial Serial;\n#endif\n#if SOC_UART_NUM > 1\nextern HardwareSerial Serial1;\n#endif\n#if SOC_UART_NUM > 2\nextern HardwareSerial Serial2;\n#endif\n');
    write(join(platform, 'variants/esp32c3/pins_arduino.h'), 'static const uint8_t TX = 21;\nstatic const uint8_t RX = 20;\nstatic const uint8_t A0 = 0;\nstatic const uint8_t A5 = 5;\n');
    const soc = join(platform, 'tools/sdk/esp32c3/include/soc/esp32c3/include/soc');
    write(join(soc, 'soc_caps.h'), '#define SOC_GPIO_PIN_COUNT 22\n#define SOC_GPIO_VALID_GPIO_MASK ((1U<<SOC_GPIO_PIN_COUNT) - 1)\n#define SOC_GPIO_VALID_OUTPUT_GPIO_MASK SOC_GPIO_VALID_GPIO_MASK\n#define SOC_UART_NUM (2)\n');
    write(join(soc, 'adc_channel.h'), '#define ADC1_GPIO0_CHANNEL 0\n#define ADC1_GPIO1_CHANNEL 1\n#define ADC1_GPIO2_CHANNEL 2\n#define ADC1_GPIO3_CHANNEL 3\n#define ADC1_GPIO4_CHANNEL 4\n#define ADC2_GPIO5_CHANNEL 0\n');
    write(join(root, 'sketches/c3_ledc/c3_ledc.ino'), 'void setup() {\n  ledcSetup(0, 5000, 8);\n  ledcAttachPin(2, 0);\n  analogWrite(3, 10);\n  ledcAttach(4, 5000, 8);\n}\nvoid loop() {}\n');
    installed = await discoverPlatforms({ dataDirs: [root], sketchbookDirs: [], includeDebian: false, home: TMP });
  });

  test('facts come from tools/sdk/esp32c3; Serial, Serial1 by SOC_UART_NUM; analogWrite runs through LEDC', () => {
    const board = resolveFqbn('esp32:esp32:esp32c3', installed);
    const facts = readEsp32Tables(board, readVariantHeader(board))!;
    expect(facts.pins).toHaveLength(22);
    expect(facts.pins.find((pin) => pin.number === 5)!.analog).toMatchObject({ input: 5, channel: 'ADC2_CH0', source: { file: join(platform, 'tools/sdk/esp32c3/include/soc/esp32c3/include/soc/adc_channel.h'), line: 6 } });
    expect(facts.serialPorts!.map((port) => port.name)).toEqual(['Serial', 'Serial1']);
    expect(facts.analogWriteWithoutPwm?.text).toMatch(/^analogWrite runs every output-capable GPIO through an LEDC channel/);
  });

  test('ledcAttach is an ERROR on this pre-3.0 core; ledcSetup, ledcAttachPin and analogWrite pass', () => {
    const board = resolveFqbn('esp32:esp32:esp32c3', installed);
    const findings = esp32Findings(join(root, 'sketches/c3_ledc/c3_ledc.ino'), board);
    expect(findings.map((finding) => `${finding.line} ${finding.severity} ${finding.code}`)).toEqual(['5 error esp32-ledc-api']);
  });
});
