// The ESP32 reader on the real CircuitMess platform (a 1.0.x-based core with its SDK headers):
// each fact is checked against the installed line it cites, and every board runs through it.
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CoreFacts } from '../../../../context-providers/arduino/core-tables/index.js';
import { readEsp32Tables } from '../../../../context-providers/arduino/core-tables/esp32.js';
import type { InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { resolveFqbn, type ResolvedBoard } from '../../../../platform/arduino/resolve.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import { FIXTURES } from '../paths.js';
import { citedLine, loadPlatforms32 } from './table-lines.js';

const DATA_32 = join(FIXTURES, 'data_dir_32bit');
const CM = join(DATA_32, 'packages/cm/hardware/esp32/1.7.5');
const SDK = join(CM, 'tools/sdk/include');


describe('ESP32 core tables on cm:esp32 (CircuitMess ESP32 1.7.5)', () => {
  let installed: InstalledPlatforms;
  let board: ResolvedBoard;
  let facts: CoreFacts;

  beforeAll(async () => {
    installed = await loadPlatforms32();
    board = resolveFqbn('cm:esp32:ringo', installed);
    facts = readEsp32Tables(board, readVariantHeader(board))!;
  });

  test('the board is recognised by build.mcu=esp32 and gets one pin per GPIO the SDK enumerates', () => {
    expect(facts.core).toBe('esp32');
    expect(facts.pins.map((pin) => pin.number)).toEqual([...Array(20).keys(), 21, 22, 23, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39]);
    const gpio21 = facts.pins.find((pin) => pin.number === 21)!;
    expect(gpio21.names).toContain('GPIO21');
  });

  test('PWM (LEDC) on every output-capable GPIO, none on the input-only GPIO34-39, as gpio.h says', () => {
    const noPwm = facts.pins.filter((pin) => !pin.pwm).map((pin) => pin.number);
    expect(noPwm).toEqual([34, 35, 36, 37, 38, 39]);
    const trap = facts.pins.find((pin) => pin.number === 34)!.traps!.find((t) => t.code === 'input-only')!;
    expect(trap.source.file).toBe(join(SDK, 'driver/driver/gpio.h'));
    expect(citedLine(trap.source)).toMatch(/GPIO_IS_VALID_OUTPUT_GPIO.*gpio_num < 34/);
    expect(facts.known.pwm.known).toBe(true);
  });

  test('every analog channel cites its ADCn_GPIOm_CHANNEL line of the installed adc_channel.h', () => {
    const analog = facts.pins.filter((pin) => pin.analog);
    expect(analog).toHaveLength(18);
    for (const pin of analog) {
      expect(pin.analog!.source.file).toBe(join(SDK, 'soc/soc/adc_channel.h'));
      const [, unit, channel] = /^ADC(\d)_CH(\d+)$/.exec(pin.analog!.channel)!;
      expect(citedLine(pin.analog!.source)).toMatch(new RegExp(`#define ADC${unit}_GPIO${pin.number}_CHANNEL\\s+ADC${unit}_CHANNEL_${channel}\\b`));
    }
    // A0 = 36 and A10 = 4 in d32_core.h: the A-number is the input, the channel is the ADC's own.
    expect(facts.pins.find((pin) => pin.number === 36)!.analog).toMatchObject({ input: 0, channel: 'ADC1_CH0' });
    expect(facts.pins.find((pin) => pin.number === 4)!.analog).toMatchObject({ input: 10, channel: 'ADC2_CH0' });
    expect(facts.analogReadAcceptsChannelNumbers).toBe(false);
  });

  test('DAC on GPIO25/26 and touch pads from dac_channel.h and touch_channel.h', () => {
    const dac = facts.pins.filter((pin) => pin.dac);
    expect(dac.map((pin) => [pin.number, pin.dac!.channel])).toEqual([[25, 'DAC1'], [26, 'DAC2']]);
    for (const pin of dac) expect(citedLine(pin.dac!.source)).toMatch(new RegExp(`DAC_GPIO${pin.number}_CHANNEL\\s+DAC_CHANNEL_${pin.dac!.channel.slice(3)}`));
    const touch = facts.pins.flatMap((pin) => (pin.traps ?? []).filter((t) => t.code === 'touch').map((t) => ({ pin: pin.number, t })));
    expect(touch).toHaveLength(10);
    // The pad number is on the cited line; d32_core.h's T0…T9 names agree with it.
    for (const { pin, t } of touch) {
      const pad = /TOUCH_PAD_GPIO(\d+)_CHANNEL\s+TOUCH_PAD_NUM(\d+)\b/.exec(citedLine(t.source))!;
      expect(Number(pad[1])).toBe(pin);
      expect(facts.pins.find((entry) => entry.number === pin)!.names).toContain(`T${pad[2]}`);
    }
  });

  test('interrupt numbers are what the variant\'s digitalPinToInterrupt gives, citing its line', () => {
    for (const pin of facts.pins) {
      expect(pin.interrupt?.number).toBe(pin.number);
      expect(citedLine(pin.interrupt!.source)).toMatch(/#define digitalPinToInterrupt\(p\)/);
    }
  });

  test('Serial, Serial1 and Serial2 from HardwareSerial.h, Serial on the variant\'s TX/RX', () => {
    expect(facts.serialPorts?.map((port) => port.name)).toEqual(['Serial', 'Serial1', 'Serial2']);
    for (const port of facts.serialPorts!) expect(citedLine(port.source)).toBe(`extern HardwareSerial ${port.name};`);
    expect(facts.serialPorts![0].pins).toEqual({ TX: 1, RX: 3 });
  });

  test('notes are at most five, each cited; ADC2 and Wi-Fi cites the installed driver/adc.h', () => {
    expect(facts.notes.length).toBeLessThanOrEqual(5);
    for (const note of facts.notes) expect(note.source?.file).toBeTruthy();
    const adc2 = facts.notes.find((note) => note.topic === 'ADC2 and Wi-Fi')!;
    expect(adc2.source!.file).toBe(join(SDK, 'driver/driver/adc.h'));
    expect(citedLine(adc2.source)).toMatch(/ESP_ERR_TIMEOUT.*WIFI/);
    const ledc = facts.notes.find((note) => note.topic === 'PWM (LEDC)')!;
    expect(ledc.text).toContain('before 3.0');
    expect(citedLine(ledc.source)).toMatch(/ledcSetup\(/);
    expect(citedLine(facts.notes.find((note) => note.topic === 'No analogWrite')!.source)).toMatch(/ledcSetup\(/);
    expect(citedLine(facts.notes.find((note) => note.topic === 'Serial1 pins')!.source)).toMatch(/void begin\(unsigned long baud, .*int8_t rxPin=-1, int8_t txPin=-1/);
    console.log(facts.notes.map((note) => `${note.topic}: ${note.text}`).join('\n'));
  });

  test('analogWrite is stated as missing: the 1.0.x core declares none', () => {
    expect(facts.analogWriteWithoutPwm?.text).toMatch(/no analogWrite/);
    expect(citedLine(facts.analogWriteWithoutPwm!.source)).toMatch(/ledcSetup/);
  });

  test('every cm board runs through the reader', () => {
    const counts: string[] = [];
    for (const platform of installed.platforms.values()) {
      for (const definition of platform.load().boards.values()) {
        const resolved = resolveFqbn(`${platform.id}:${definition.id}`, installed);
        const result = readEsp32Tables(resolved, readVariantHeader(resolved));
        if (platform.id !== 'cm:esp32') {
          expect(result, `${resolved.fqbn} is not an ESP32`).toBeUndefined();
          continue;
        }
        expect(result!.pins.length).toBe(34);
        counts.push(`${resolved.fqbn}: ${result!.pins.length} pins, ${result!.pins.filter((p) => p.pwm).length} PWM, ${result!.pins.filter((p) => p.analog).length} analog, ${result!.serialPorts!.length} serial`);
      }
    }
    expect(counts).toHaveLength(13);
    console.log(counts.join('\n'));
  });
});
