// The ESP32 checks on real sketches: every example of the cm platform's libraries for a cm board
// (each ERROR classified below), plus small sketches for each rule, on the 1.0.x-based core.
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { readEsp32Tables } from '../../../../context-providers/arduino/core-tables/esp32.js';
import { buildPinMap } from '../../../../context-providers/arduino/pin-map.js';
import { checkSketch } from '../../../../context-providers/arduino/sketch-check.js';
import { discoverPlatforms } from '../../../../platform/arduino/platforms.js';
import { resolveFqbn, type ResolvedBoard } from '../../../../platform/arduino/resolve.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import { FIXTURES, TMP } from '../paths.js';
import { loadPlatforms32 } from './table-lines.js';
import { esp32Findings } from './esp32-findings.js';

const DATA_32 = join(FIXTURES, 'data_dir_32bit');
const CM = join(DATA_32, 'packages/cm/hardware/esp32/1.7.5');
const SKETCHES = join(TMP, 'esp32-checks');

function inoFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? inoFiles(path) : name.endsWith('.ino') ? [path] : [];
  });
}

// Each ERROR the examples give, by example and line, with why it is true on this core.
const TRUE_ERRORS: Record<string, string> = {
  // FastLED's AnalogOutput is written for AVR; the 1.0.x core declares no analogWrite, so it does not compile.
  'Ringo/src/FastLED/examples/AnalogOutput/AnalogOutput.ino:29 esp32-missing-api': 'no cores/esp32/*.h of this 1.0.x core declares analogWrite, nor does any header of the Ringo library that FastLED.h is in',
  // GREENPIN is 6, the SPI flash clock of ESP32 modules: driving it stops the chip reading flash.
  'Ringo/src/FastLED/examples/AnalogOutput/AnalogOutput.ino:30 esp32-flash-pin': 'analogWrite(GREENPIN = 6)',
  'Ringo/src/FastLED/examples/AnalogOutput/AnalogOutput.ino:59 esp32-flash-pin': 'pinMode(GREENPIN = 6, OUTPUT)',
};

describe('ESP32 checks on cm:esp32:ringo', () => {
  let board: ResolvedBoard;
  const sketch = (name: string, body: string): string => {
    const file = join(SKETCHES, name, `${name}.ino`);
    mkdirSync(join(SKETCHES, name), { recursive: true });
    writeFileSync(file, body);
    return file;
  };
  const run = (file: string) => esp32Findings(file, board).map((finding) => `${finding.line} ${finding.severity} ${finding.code}`);

  beforeAll(async () => {
    rmSync(SKETCHES, { recursive: true, force: true });
    const installed = await loadPlatforms32();
    board = resolveFqbn('cm:esp32:ringo', installed);
  });

  test('every library example: each ERROR is a true one, listed with its reason', () => {
    const examples = inoFiles(join(CM, 'libraries'));
    const errors: string[] = [];
    const counts = { examples: examples.length, error: 0, warning: 0, info: 0 };
    for (const file of examples) {
      for (const finding of esp32Findings(file, board)) {
        counts[finding.severity]++;
        if (finding.severity === 'error') errors.push(`${relative(join(CM, 'libraries'), file)}:${finding.line} ${finding.code}`);
      }
    }
    console.log(counts, errors);
    expect(errors.sort()).toEqual(Object.keys(TRUE_ERRORS).sort());
  });

  test('the ESP32 examples for LEDC and touch pass on this pre-3.0 core', () => {
    for (const example of ['AnalogOut/ledcWrite_RGB/ledcWrite_RGB.ino', 'AnalogOut/LEDCSoftwareFade/LEDCSoftwareFade.ino', 'Touch/TouchRead/TouchRead.ino', 'AnalogOut/SigmaDelta/SigmaDelta.ino']) {
      expect(run(join(CM, 'libraries/ESP32/examples', example)), example).toEqual([]);
    }
  });

  test('pinMode(…, OUTPUT) and digitalWrite on the input-only GPIO34-39 are ERRORs; INPUT_PULLUP there a WARNING', () => {
    const file = sketch('input_only', 'void setup() {\n  pinMode(34, OUTPUT);\n  digitalWrite(A7, HIGH);\n  pinMode(39, INPUT_PULLUP);\n  pinMode(36, INPUT);\n}\nvoid loop() {}\n');
    expect(run(file)).toEqual(['2 error esp32-input-only', '3 error esp32-input-only', '4 warning esp32-no-pull']);
  });

  test('a number in the GPIO range that is no GPIO is an ERROR; GPIO20, bonded out on some packages only, a WARNING', () => {
    const file = sketch('no_gpio', 'void setup() {\n  pinMode(24, OUTPUT);\n  digitalWrite(30, HIGH);\n  pinMode(20, INPUT);\n}\nvoid loop() {}\n');
    expect(run(file)).toEqual(['2 error esp32-no-gpio', '3 error esp32-no-gpio', '4 warning esp32-no-gpio']);
  });

  test('configuring or driving the flash pins GPIO6-11 is an ERROR, reading one and the PSRAM pins 16/17 WARNINGs, strapping pins a WARNING once', () => {
    const file = sketch('flash_pins', 'void setup() {\n  pinMode(6, OUTPUT);\n  digitalRead(11);\n  pinMode(16, OUTPUT);\n  pinMode(12, INPUT);\n  pinMode(12, OUTPUT);\n}\nvoid loop() {}\n');
    expect(run(file)).toEqual(['2 error esp32-flash-pin', '3 warning esp32-flash-pin', '4 warning esp32-psram-pin', '5 warning esp32-strapping-pin']);
  });

  test('a literal loop over pins gives one finding per rule and call, counting the loop values it hits', () => {
    const file = sketch('loop_pins', 'void setup() {\n  for (int p = 32; p < 40; p++) {\n    pinMode(p, OUTPUT);\n  }\n  for (int p = 4; p <= 12; p++) {\n    digitalWrite(p, LOW);\n  }\n}\nvoid loop() {}\n');
    const findings = esp32Findings(file, board).filter((finding) => finding.severity === 'error');
    expect(findings.map((finding) => `${finding.line} ${finding.code}`)).toEqual(['3 esp32-input-only', '6 esp32-flash-pin']);
    expect(findings[0].message).toMatch(/^pinMode\(34, OUTPUT\): GPIO34 .* \(and 5 more of the loop's \d+ values\)$/);
    expect(findings[1].message).toMatch(/^digitalWrite\(6, …\): .* \(and 5 more of the loop's \d+ values\)$/);
  });

  test('analogRead on an ADC2 pin is an ERROR only when the sketch uses WiFi', () => {
    const body = 'void setup() {\n  analogRead(A10);\n  analogRead(A0);\n  analogRead(26);\n}\nvoid loop() {}\n';
    expect(run(sketch('adc2_no_wifi', body))).toEqual([]);
    const withWifi = run(sketch('adc2_wifi', `#include <WiFi.h>\n${body}`));
    expect(withWifi).toEqual(['3 error esp32-adc2-wifi', '5 error esp32-adc2-wifi']);
  });

  test('touchRead and dacWrite on pins without them are ERRORs naming the pins that have them', () => {
    const file = sketch('touch_dac', 'void setup() {\n  touchRead(T3);\n  touchRead(5);\n  dacWrite(DAC2, 10);\n  dacWrite(27, 10);\n}\nvoid loop() {}\n');
    const findings = esp32Findings(file, board);
    expect(findings.map((finding) => `${finding.line} ${finding.severity} ${finding.code}`)).toEqual(['3 error esp32-touch-pin', '5 error esp32-dac-pin']);
    expect(findings[0].suggestion).toBe('Use a touch pin: T0=GPIO4, T1=GPIO0, T2=GPIO2, T3=GPIO15, T4=GPIO13, T5=GPIO12, T6=GPIO14, T7=GPIO27, T8=GPIO33, T9=GPIO32.');
    expect(findings[1].suggestion).toBe('Use a DAC pin: DAC1=GPIO25, DAC2=GPIO26.');
  });

  test('the 3.x LEDC API is an ERROR on this core, whose esp32-hal-ledc.h has ledcSetup (not the 1.7.5 version number decides)', () => {
    const file = sketch('ledc_3x', 'void setup() {\n  ledcAttach(5, 5000, 8);\n  ledcWrite(5, 128);\n  ledcSetup(0, 5000, 8);\n  ledcAttachPin(5, 0);\n}\nvoid loop() {}\n');
    const findings = esp32Findings(file, board);
    expect(findings.map((finding) => `${finding.line} ${finding.severity} ${finding.code}`)).toEqual(['2 error esp32-ledc-api']);
    expect(findings[0].message).toMatch(/ledcAttach exists only from arduino-esp32 3.0; Ringo by CircuitMess's core has the older LEDC API \(.*esp32-hal-ledc.h:30\)/);
  });

  test('before 3.0, two channels of one LEDC timer set to different frequencies, and channels past the last, are WARNINGs', () => {
    const file = sketch('ledc_timers', 'void setup() {\n  ledcSetup(0, 5000, 8);\n  ledcSetup(1, 1000, 8);\n  ledcSetup(2, 1000, 8);\n  ledcSetup(3, 1000, 8);\n  ledcSetup(16, 1000, 8);\n}\nvoid loop() {}\n');
    const findings = esp32Findings(file, board);
    expect(findings.map((finding) => `${finding.line} ${finding.severity} ${finding.code}`)).toEqual(['3 warning esp32-ledc-shared-timer', '6 warning esp32-ledc-channel']);
    expect(findings[0].message).toBe('ledcSetup(1, …) at 1000 Hz, 8 bits and ledcSetup(0, …) at 5000 Hz, 8 bits (line 2): channels 0 and 1 share one LEDC timer on this core, so the later setup changes both');
  });

  test('analogWrite and tone, which this core lacks, are ERRORs unless the sketch or an unknown library may provide them', () => {
    expect(run(sketch('tone_missing', '#include <WiFi.h>\nvoid setup() {\n  tone(5, 440);\n  analogWrite(5, 10);\n  noTone(5);\n}\nvoid loop() {}\n'))).toEqual(['3 error esp32-missing-api', '4 error esp32-missing-api', '5 error esp32-missing-api']);
    expect(run(sketch('tone_own', 'void tone(int pin, int hz) { ledcWriteTone(0, hz); }\nvoid setup() {\n  tone(5, 440);\n}\nvoid loop() {}\n'))).toEqual([]);
    expect(run(sketch('tone_library', '#include <Tone32.h>\nvoid setup() {\n  tone(5, 440);\n}\nvoid loop() {}\n'))).toEqual(['3 warning esp32-missing-api']);
  });

  test('digitalPinToInterrupt is an ERROR on the cm boards whose variant does not define it (Jay-D), fine on the d32 boards', async () => {
    const body = 'void onPress() {}\nvoid setup() {\n  attachInterrupt(digitalPinToInterrupt(4), onPress, FALLING);\n  attachInterrupt(5, onPress, RISING);\n}\nvoid loop() {}\n';
    expect(run(sketch('interrupt_macro', body))).toEqual([]);
    const jayd = resolveFqbn('cm:esp32:jayd', await loadPlatforms32());
    const findings = esp32Findings(sketch('interrupt_macro_jayd', body), jayd);
    expect(findings.map((finding) => `${finding.line} ${finding.severity} ${finding.code}`)).toEqual(['3 error esp32-no-digitalpintointerrupt']);
    expect(findings[0].message).toContain('variants/jayd/pins_arduino.h');
  });

  test('Serial1.begin without pins is a WARNING on this core: it defaults to the flash pins GPIO9/10', () => {
    const file = sketch('serial1_pins', 'void setup() {\n  Serial1.begin(9600);\n  Serial2.begin(9600);\n  Serial1.begin(9600, SERIAL_8N1, 16, 17);\n}\nvoid loop() {}\n');
    expect(run(file)).toEqual(['2 warning esp32-serial1-default-pins']);
  });

  test('without the variant folder the chip facts stay and Serial2 is no ERROR in the whole sketch check', async () => {
    const root = join(TMP, 'esp32-no-variant');
    const copy = join(root, 'packages/cm/hardware/esp32/1.7.5');
    rmSync(root, { recursive: true, force: true });
    mkdirSync(copy, { recursive: true });
    for (const entry of ['boards.txt', 'platform.txt', 'cores', 'tools']) cpSync(join(CM, entry), join(copy, entry), { recursive: true });
    const installed = await discoverPlatforms({ dataDirs: [root], sketchbookDirs: [], includeDebian: false, home: TMP });
    const bare = resolveFqbn('cm:esp32:ringo', installed);
    const map = buildPinMap(bare);
    expect(map.warnings.map((warning) => warning.code)).toContain('variant-missing');
    expect(map.core?.pins).toHaveLength(34);
    expect(map.serialPorts).toEqual(['Serial', 'Serial1', 'Serial2']);
    const file = sketch('serial2_no_variant', 'void setup() {\n  Serial2.begin(9600);\n  pinMode(4, OUTPUT);\n  analogRead(36);\n}\nvoid loop() {}\n');
    expect(checkSketch([file], join(SKETCHES, 'serial2_no_variant'), bare, map, []).filter((finding) => finding.severity === 'error')).toEqual([]);
  });

  test('without the core\'s headers the LEDC generation is unknown: an INFO, never an ERROR', async () => {
    const copy = join(TMP, 'esp32-no-core/packages/cm/hardware/esp32/1.7.5');
    rmSync(join(TMP, 'esp32-no-core'), { recursive: true, force: true });
    mkdirSync(copy, { recursive: true });
    for (const file of ['boards.txt', 'platform.txt']) cpSync(join(CM, file), join(copy, file));
    const installed = await discoverPlatforms({ dataDirs: [join(TMP, 'esp32-no-core')], sketchbookDirs: [], includeDebian: false, home: TMP });
    const bare = resolveFqbn('cm:esp32:ringo', installed);
    const variant = readVariantHeader(bare);
    const bareFacts = readEsp32Tables(bare, variant)!;
    expect(bareFacts.serialPorts!.map((port) => port.name)).toEqual(['Serial', 'Serial1', 'Serial2']);
    expect(bareFacts.warnings.map((warning) => warning.code)).toEqual(['esp32-core-missing']);
    expect(bareFacts.pins).toHaveLength(35);
    const file = sketch('ledc_unknown', 'void setup() {\n  ledcAttach(5, 5000, 8);\n  analogWrite(5, 3);\n}\nvoid loop() {}\n');
    expect(esp32Findings(file, bare).map((finding) => `${finding.line} ${finding.severity} ${finding.code}`)).toEqual(['2 info esp32-ledc-unknown']);
  });
});
