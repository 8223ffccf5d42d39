// boards/data/esp32-chips.json: every figure cites an ESP-IDF file:line, each fact's SourceRef
// points at the JSON line that states it, and the ESP32 figures agree with the IDF 3.x headers
// the CircuitMess platform installs (a second, independent copy of the same chip facts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { chipFileProblem, chipSource, esp32Chip, esp32ChipsFile, knownEsp32Chips } from '../../../../context-providers/arduino/core-tables/esp32-chips.js';
import { FIXTURES } from '../paths.js';

const SDK = join(FIXTURES, 'data_dir_32bit/packages/cm/hardware/esp32/1.7.5/tools/sdk/include');
const CITATION = /^espressif\/esp-idf v5\.5 (components|docs)\/[\w/.-]+(:\d+| \(defines (no|neither) [^)]*\))( x2 speed modes \(espressif\/esp-idf v5\.5 [\w/.-]+:\d+\))?$/;

function sources(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(sources);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => (key === 'source' ? String(inner).split('; ') : sources(inner)));
  return [];
}

describe('esp32-chips.json', () => {
  test('holds the six chips, each figure citing an ESP-IDF v5.5 file and line', () => {
    expect(knownEsp32Chips()).toEqual(['esp32', 'esp32s2', 'esp32s3', 'esp32c3', 'esp32c6', 'esp32h2']);
    for (const id of knownEsp32Chips()) {
      const cited = sources(esp32Chip(id));
      expect(cited.length).toBeGreaterThan(10);
      for (const source of cited) expect(source, `${id}: ${source}`).toMatch(CITATION);
    }
    expect(esp32Chip('ESP32S3')?.name).toBe('ESP32-S3');
    expect(esp32Chip('esp8266')).toBeUndefined();
  });

  test('a fact\'s SourceRef is the JSON line of its figure (the row of its GPIO for channel lists)', () => {
    const lines = readFileSync(esp32ChipsFile(), 'utf8').split('\n');
    const chip = esp32Chip('esp32c6')!;
    expect(lines[chipSource(chip, 'strapping').line! - 1].trim()).toBe('"strapping": {');
    expect(lines[chipSource(chip, 'strapping').line!]).toContain('[4, 5, 8, 9, 15]');
    expect(lines[chipSource(chip, 'adc', 6).line! - 1]).toContain('{ "gpio": 6, "unit": 1, "channel": 6, "source": "espressif/esp-idf v5.5 components/soc/esp32c6/include/soc/adc_channel.h:');
    const s3 = esp32Chip('esp32s3')!;
    expect(lines[chipSource(s3, 'touch', 14).line! - 1]).toContain('"gpio": 14, "channel": 14');
  });

  test('the ESP32 figures agree with the IDF 3.x headers of the cm platform', () => {
    const chip = esp32Chip('esp32')!;
    const header = (path: string): string => readFileSync(join(SDK, path), 'utf8');
    const adc = [...header('soc/soc/adc_channel.h').matchAll(/#define ADC(\d)_GPIO(\d+)_CHANNEL\s+ADC\d_CHANNEL_(\d+)/g)].map((m) => `${m[2]}:${m[1]}/${m[3]}`);
    expect(chip.adc.map((entry) => `${entry.gpio}:${entry.unit}/${entry.channel}`)).toEqual(adc);
    const touch = [...header('soc/soc/touch_channel.h').matchAll(/#define TOUCH_PAD_GPIO(\d+)_CHANNEL\s+TOUCH_PAD_NUM(\d+)/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(chip.touch.map((entry) => `${entry.gpio}:${entry.channel}`)).toEqual(touch);
    const dac = [...header('soc/soc/dac_channel.h').matchAll(/#define DAC_GPIO(\d+)_CHANNEL\s+DAC_CHANNEL_(\d+)/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(chip.dac.map((entry) => `${entry.gpio}:${entry.channel}`)).toEqual(dac);
    const gpios = [...header('driver/driver/gpio.h').matchAll(/GPIO_NUM_(\d+) = \1,/g)].map((m) => Number(m[1]));
    // IDF 5's valid mask also has GPIO20 (bonded out on the ESP32-PICO-V3 only); IDF 3.x leaves it out.
    expect(chip.gpios.value.filter((gpio) => gpio !== 20)).toEqual(gpios);
    expect(header('driver/driver/gpio.h')).toMatch(/GPIO_IS_VALID_OUTPUT_GPIO\(gpio_num\).*gpio_num < 34/);
    expect(chip.inputOnly.value).toEqual([34, 35, 36, 37, 38, 39]);
    expect(header('driver/driver/uart.h')).toMatch(/UART_NUM_2 = 0x2,[^\n]*\n\s*UART_NUM_MAX,/);
    expect(chip.uarts.value).toBe(3);
    expect(header('soc/soc/gpio_pins.h')).toMatch(new RegExp(`#define GPIO_PIN_COUNT\\s+${chip.gpioCount.value}\\b`));
  });

  test('a changed data file is refused at its first wrong figure, by path', () => {
    const data = () => JSON.parse(readFileSync(esp32ChipsFile(), 'utf8'));
    expect(chipFileProblem(data())).toBeUndefined();
    const zeroUarts = data();
    zeroUarts.chips.esp32c3.uarts.value = 0;
    expect(chipFileProblem(zeroUarts)).toBe('chips.esp32c3.uarts.value: expected an integer from 1');
    const extraKey = data();
    extraKey.chips.esp32.adc[0].note = 'x';
    expect(chipFileProblem(extraKey)).toBe('chips.esp32.adc.0.note: not a known key');
    const noSource = data();
    delete noSource.chips.esp32s3.strapping.source;
    expect(chipFileProblem(noSource)).toBe('chips.esp32s3.strapping.source: missing');
    // Chips are ESP-IDF target names, which is how a board that is no ESP32 is told apart unread.
    const otherName = data();
    otherName.chips.rp2040 = otherName.chips.esp32;
    expect(chipFileProblem(otherName)).toBe('chips.rp2040: not a name matching /^esp32[a-z0-9]*$/');
    const optionalLeftOut = data();
    delete optionalLeftOut.chips.esp32.psram;
    expect(chipFileProblem(optionalLeftOut)).toBeUndefined();
  });
});
