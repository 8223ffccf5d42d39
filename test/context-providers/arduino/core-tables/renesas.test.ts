import { basename } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CoreFacts, CorePin, SketchCall } from '../../../../context-providers/arduino/core-tables/index.js';
import type { InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { tokenize } from '../../../../context-providers/arduino/c-tokens.js';
import { readPinmuxTable, type PinmuxTable } from '../../../../context-providers/arduino/core-tables/renesas-pinmux.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import { citedLine, enclosingArray, factsOf, loadPlatforms32, pinOf, requireFacts } from './table-lines.js';

let installed: InstalledPlatforms;
beforeAll(async () => {
  installed = await loadPlatforms32();
});

const facts = (board: string): CoreFacts => requireFacts(`arduino:renesas_uno:${board}`, installed);
const pin = pinOf;

const tableOf = (board: string): PinmuxTable => {
  const resolved = factsOf(`arduino:renesas_uno:${board}`, installed).board;
  return readPinmuxTable(resolved, readVariantHeader(resolved));
};

// Each fact must come from the list the pin's g_pin_cfg row names, and the row must name the pin's port.
function expectFromOwnList(table: PinmuxTable, p: CorePin, source: { file: string; line?: number }): void {
  const row = table.rows[p.number];
  expect(enclosingArray(source), `${basename(source.file)}:${source.line}`).toBe(row.list);
  const line = citedLine(row.source);
  expect(line).toMatch(new RegExp(`^\\{ *BSP_IO_PORT_\\d+_PIN_${p.names![0].slice(2)} *, *${row.list!.replace(/_b$/, '')} *\\}`));
}

describe.each(['minima', 'unor4wifi', 'nanor4', 'portenta_c33'])('Renesas %s: every fact is the line it cites', (board) => {
  test('PWM, analog, DAC and interrupt facts match their pinmux lines', () => {
    const all = facts(board);
    const table = tableOf(board);
    let checked = 0;
    for (const p of all.pins) {
      if (p.pwm) {
        const [, kind, n] = /^(GPT|AGT)(\d+)$/.exec(p.pwm.timer)!;
        expect(citedLine(p.pwm.source)).toMatch(new RegExp(`^PIN_PWM${kind === 'AGT' ? '_AGT' : '(_GPT)?'}\\|CHANNEL_${n}\\|PWM_CHANNEL_${p.pwm.channel}\\b`));
        expectFromOwnList(table, p, p.pwm.source);
        checked++;
      }
      if (p.analog) {
        const n = Number(/AN(\d+)$/.exec(p.analog.channel)![1]);
        expect(citedLine(p.analog.source)).toMatch(new RegExp(`^PIN_ANALOG\\|CHANNEL_${n}\\b`));
        expectFromOwnList(table, p, p.analog.source);
        checked++;
      }
      if (p.dac) {
        expect(citedLine(p.dac.source)).toMatch(/^PIN_DAC\|CHANNEL_\d+/);
        checked++;
      }
      if (p.interrupt) {
        expect(p.interrupt.number).toBe(p.number);
        expect(citedLine(p.interrupt.source)).toMatch(new RegExp(`^PIN_INTERRUPT\\|CHANNEL_${p.interrupt.line!.slice(3)}\\b`));
        expectFromOwnList(table, p, p.interrupt.source);
        checked++;
      }
    }
    expect(citedLine(all.known.pwm.known ? all.known.pwm.source : undefined)).toMatch(/g_pin_cfg\[\] = \{/);
    console.log(`${board}: ${all.pins.length} pins, ${all.pins.filter((p) => p.pwm).length} PWM, ${all.pins.filter((p) => p.analog).length} analog, ${all.pins.filter((p) => p.interrupt).length} interrupt, ${checked} facts checked against their lines`);
    expect(checked).toBeGreaterThan(20);
  });
});

describe('Renesas core facts', () => {
  test('UNO R4 Minima: D3 is GPT1 output B, A0 is the 12-bit DAC and ADC AN09, D13 has no IRQ-less surprise', () => {
    const minima = facts('minima');
    expect(pin(minima, 3).pwm).toMatchObject({ timer: 'GPT1', channel: 'B' });
    expect(pin(minima, 3).names).toEqual(['P104']);
    expect(pin(minima, 14).analog).toMatchObject({ input: 0, channel: 'ADC0 AN09' });
    expect(pin(minima, 14).dac?.channel).toBe('DAC12 ch0');
    // A0's list is the variant's own P014_b override in variant.cpp, not pinmux.inc's P014.
    expect(basename(pin(minima, 14).analog!.source.file)).toBe('variant.cpp');
    expect(pin(minima, 14).pwm).toBeUndefined();
    // Pins past NUM_DIGITAL_PINS (20) are in the table too: the TX/RX LEDs and SWD pins.
    expect(minima.pins).toHaveLength(27);
    expect(minima.sharedTimers?.find((group) => group.timer === 'GPT1')?.pins).toEqual(expect.arrayContaining([2, 3]));
  });

  test('UNO R4 WiFi: Serial is the UART to the ESP32-S3 (NO_USB), Serial1 is on D1/D0', () => {
    const wifi = facts('unor4wifi');
    expect(wifi.serialPorts).toEqual([
      expect.objectContaining({ name: 'Serial', kind: 'uart', pins: { TX: 22, RX: 23 } }),
      expect.objectContaining({ name: 'Serial1', kind: 'uart', pins: { TX: 1, RX: 0 } }),
      expect.objectContaining({ name: 'Serial2', kind: 'uart', pins: { TX: 24, RX: 25 } }),
      expect.objectContaining({ name: 'SerialUSB', kind: 'usb' }),
    ]);
    for (const port of wifi.serialPorts!) expect(citedLine(port.source)).toMatch(/^(#define (UART\d_TX_PIN|Serial)|extern _SerialUSB SerialUSB;)/);
    const minima = facts('minima');
    // SERIAL_HOWMANY is 1: Serial2 … Serial5 are macros for _UART2_ … _UART5_, which SerialObj*.cpp never define.
    expect(minima.serialPorts?.map((port) => `${port.name}:${port.kind}`)).toEqual(['Serial:usb', 'Serial1:uart', 'SerialUSB:usb']);
    expect(citedLine(minima.serialPorts![0].source)).toBe('#define Serial  SerialUSB');
  });

  test('Wire<n> and SPI<n> exist below WIRE_HOWMANY / SPI_HOWMANY, on their pin macros', () => {
    const names = (board: string): string[] => facts(board).buses!.map((bus) => `${bus.name} ${Object.values(bus.pins).join('/')}`);
    expect(names('minima')).toEqual(['Wire 18/19', 'SPI 12/11/13/10']);
    // UNO R4 WiFi: WIRE_HOWMANY 2, the Qwiic connector is Wire1 on 27/26.
    expect(names('unor4wifi')).toEqual(['Wire 18/19', 'SPI 12/11/13/10', 'Wire1 27/26']);
    expect(names('portenta_c33')).toEqual(['Wire 11/12', 'SPI 10/8/9/7', 'Wire1 37/38', 'SPI1 45/46/47/48', 'Wire2 39/40', 'Wire3 96/97']);
    for (const bus of facts('portenta_c33').buses!) expect(citedLine(bus.source)).toMatch(/^#define (WIRE\d?_SDA_PIN|PIN_SPI\d?_MISO)\s/);
    expect(pin(facts('unor4wifi'), 27).functions?.map((f) => f.fn)).toContain('Wire1 SDA');
  });

  test('analogWrite without PWM does nothing on this core, and analogRead(0) reads A0', () => {
    const minima = facts('minima');
    expect(minima.analogWriteWithoutPwm?.text).toMatch(/^on this core analogWrite\(\) does nothing/);
    // D4 (P103) has ADC channel AN19, but analogRead(4) reads A4: only pins from A0 on report analog input.
    expect(pin(minima, 4).analog).toBeUndefined();
    expect(minima.pins.filter((p) => p.analog).every((p) => p.number >= 14)).toBe(true);
    expect(minima.analogWriteWithoutPwm?.text).toMatch(/no digital on\/off fallback/);
    expect(citedLine(minima.analogWriteWithoutPwm?.source)).toMatch(/^#define IS_PIN_PWM/);
    // Arduino.h: #define digitalPinToAnalogPin(P) (P < A0 ? A0 + P : P), used by analogRead.
    expect(minima.analogReadAcceptsChannelNumbers).toBe(true);
    expect(citedLine(minima.notes.find((note) => note.topic === 'analogRead')?.source)).toMatch(/^#define digitalPinToAnalogPin\(P\)\s+\(P < A0 \? A0 \+ P : P\)/);
    expect(minima.notes.length).toBeLessThanOrEqual(5);
    const tone = minima.notes.find((note) => note.topic === 'tone');
    expect(tone?.text).toMatch(/GPT0, the timer of pins 6, 7, 25, 26/);
    expect(citedLine(tone?.source)).toBe('static TimerAvail_t gpt_used_channel[GPT_HOWMANY];');
  });

  test('attachInterrupt on two pins of one IRQ channel, and with HIGH, is flagged', () => {
    const minima = facts('minima');
    // D0 (P301) and A1 (P000) are both IRQ6 in pinmux.inc.
    expect(pin(minima, 0).interrupt?.line).toBe('IRQ6');
    expect(pin(minima, 15).interrupt?.line).toBe('IRQ6');
    const call = (text: string, values: number[], line: number): SketchCall => {
      const tokens = tokenize(text).map((token) => ({ ...token, line, file: 'sketch.ino' }));
      const args = [[tokens[2]], [tokens[4]], [tokens[6]]];
      return { name: 'attachInterrupt', args, values: [values, undefined, undefined], token: tokens[0], at: 0 };
    };
    const board = factsOf('arduino:renesas_uno:minima', installed).board;
    const findings = minima.check!({
      calls: [call('attachInterrupt ( 0 , onA , RISING )', [0], 10), call('attachInterrupt ( 15 , onB , HIGH )', [15], 11), call('attachInterrupt ( 2 , onC , FALLING )', [2], 12)],
      identifiers: new Set(),
      includes: [],
      libraryDirs: [],
      declares: () => false,
      boardName: 'Arduino UNO R4 Minima',
      board,
    });
    expect(findings.map((finding) => `${finding.code}@${finding.line}`)).toEqual(['interrupt-high@11', 'interrupt-shared-line@11']);
    expect(findings.every((finding) => finding.severity === 'warning')).toBe(true);
  });

  test("Portenta C33's D60 row names P500's list for port pin P505, and the reader says so", () => {
    const resolved = factsOf('arduino:renesas_uno:portenta_c33', installed).board;
    const table = readPinmuxTable(resolved, readVariantHeader(resolved));
    expect(table.rows[60]).toMatchObject({ port: 'P505', list: 'P500' });
    expect(table.warnings.map((warning) => warning.code)).toContain('pinmux-list-other-pin');
  });

  test('every board of the platform is read without a crash', () => {
    const platform = installed.platforms.get('arduino:renesas_uno')!;
    const counts: string[] = [];
    for (const board of platform.load().boards.values()) {
      const all = facts(board.id);
      expect(all.known.pwm.known).toBe(true);
      counts.push(`${board.id}: ${all.pins.length} pins/${all.pins.filter((p) => p.pwm).length} PWM/${all.serialPorts?.length ?? 0} serial`);
    }
    console.log(counts.join('; '));
    expect(counts.length).toBe(7);
  });
});
