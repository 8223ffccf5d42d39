import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CoreFacts, SketchCall } from '../../../../context-providers/arduino/core-tables/index.js';
import { tokenize } from '../../../../context-providers/arduino/c-tokens.js';
import type { InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { citedLine, factsOf, loadPlatforms32, pinOf, requireFacts } from './table-lines.js';

let installed: InstalledPlatforms;
beforeAll(async () => {
  installed = await loadPlatforms32();
});

const facts = (board: string): CoreFacts => requireFacts(`arduino:mbed:${board}`, installed);
const pin = pinOf;

// Line numbers of the rows of one table in variant.cpp, by index.
function tableRows(file: string, table: string): number[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((line) => new RegExp(`\\b${table}\\[\\]\\s*=`).test(line));
  const rows: number[] = [];
  for (let index = start + 1; index < lines.length && !/^\s*\};/.test(lines[index]); index++) {
    if (/^\s*\{\s*\w+\s*,\s*NULL/.test(lines[index])) rows.push(index + 1);
  }
  return rows;
}

const BOARDS = ['nano33ble', 'nanorp2040connect', 'envie_m7', 'giga', 'nicla_sense', 'nicla_vision'];

describe.each(BOARDS)('mbed %s: every fact is the row it cites', (board) => {
  test('pins, PWM, analog inputs and interrupts come from the variant table rows', () => {
    const all = facts(board);
    const resolved = factsOf(`arduino:mbed:${board}`, installed).board;
    const variantCpp = join(resolved.variantPath!, 'variant.cpp');
    const rows = tableRows(variantCpp, 'g_APinDescription');
    const analogRows = tableRows(variantCpp, 'g_AAnalogPinDescription');
    expect(all.pins).toHaveLength(rows.length);
    let checked = 0;
    for (const p of all.pins) {
      const name = p.names![0];
      expect(citedLine({ file: variantCpp, line: rows[p.number] })).toMatch(new RegExp(`^\\{\\s*${name}\\s*,`));
      for (const fact of [p.pwm, p.interrupt]) {
        if (!fact) continue;
        expect(fact.source.line, `pin ${p.number}`).toBe(rows[p.number]);
        checked++;
      }
      if (p.pwm?.timer.startsWith('slice')) {
        const gpio = Number(/^p(\d+)$/.exec(name)![1]);
        expect(p.pwm).toMatchObject({ timer: `slice ${(gpio >> 1) & 7}`, channel: gpio % 2 ? 'B' : 'A' });
      }
      if (p.analog) {
        // analogRead(A<i>) uses g_AAnalogPinDescription[i]'s AnalogIn on g_APinDescription[A0 + i].name.
        expect(p.analog.source.line).toBe(analogRows[p.analog.input!]);
        expect(citedLine(p.analog.source)).toMatch(new RegExp(`^\\{\\s*${name}\\s*,`));
        checked++;
      }
    }
    const pwm = all.known.pwm;
    if (pwm.known) expect(citedLine(pwm.source)).toMatch(/"target": "TARGET_(MCU_NRF5284?0|MCU_NRF52832|RP2040)"/);
    console.log(`${board}: ${all.pins.length} pins, ${all.pins.filter((p) => p.pwm).length} PWM${pwm.known ? '' : ' (unknown)'}, ${all.pins.filter((p) => p.analog).length} analog, ${all.pins.filter((p) => p.interrupt).length} interrupt, ${checked} facts checked against their rows`);
  });
});

describe('mbed core facts', () => {
  test('Nano 33 BLE: PWM on every pin with at most 4 at once (nRF52840), Serial is USB, Serial1 on D1/D0', () => {
    const ble = facts('nano33ble');
    expect(ble.pins.every((p) => p.pwm?.timer === 'PWM (1 of 4, first free)')).toBe(true);
    expect(ble.notes.find((note) => note.topic === 'pwm')?.text).toMatch(/at most 4 pins have PWM at once/);
    expect(ble.serialPorts).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'Serial', kind: 'usb' }),
      expect.objectContaining({ name: 'Serial1', kind: 'uart', pins: { TX: 0, RX: 1 } }),
    ]));
    expect(pin(ble, 14).analog).toMatchObject({ input: 0, channel: 'P0_4' });
    expect(ble.analogReadAcceptsChannelNumbers).toBe(true);
    expect(citedLine(ble.notes.find((note) => note.topic === 'analogRead')?.source)).toMatch(/#define analogPinToPinName\(P\).*P < A0 \? g_APinDescription\[P\+A0\]/);
    expect(citedLine(ble.notes.find((note) => note.topic === 'interrupt')?.source)).toBe('#define digitalPinToInterrupt(P)    (P)');
  });

  test('Nano RP2040 Connect on mbed: slices by GPIO, ADC only on GPIO26-29, shared slices listed', () => {
    const connect = facts('nanorp2040connect');
    // D3 is p15 (slice 7 B); A0-A3 are p26-p29 (ADC0-3).
    expect(pin(connect, 3).pwm).toMatchObject({ timer: 'slice 7', channel: 'B' });
    expect([14, 15, 16, 17].map((n) => pin(connect, n).analog?.channel)).toEqual(['ADC0', 'ADC1', 'ADC2', 'ADC3']);
    expect(connect.pins.filter((p) => p.analog)).toHaveLength(4);
    expect(connect.sharedTimers?.find((group) => group.timer === 'slice 0')?.pins).toEqual([0, 1, 4, 5]);
  });

  test('Portenta H7 and GIGA: PWM is unknown with the reason, never "none"; DAC pins from g_AAnalogOutPinDescription', () => {
    for (const board of ['envie_m7', 'giga']) {
      const all = facts(board);
      expect(all.known.pwm).toMatchObject({ known: false, reason: expect.stringMatching(/PinMap_PWM .*libmbed\.a/) });
      expect(all.pins.some((p) => p.pwm)).toBe(false);
      expect(all.analogWriteWithoutPwm?.text).toMatch(/pinmap not found for peripheral/);
      expect(all.check).toBeUndefined();
    }
    const giga = facts('giga');
    expect(giga.pins.filter((p) => p.dac).map((p) => p.names![0])).toEqual(expect.arrayContaining(['PA_4', 'PA_5']));
    expect(giga.serialPorts?.filter((port) => port.kind === 'uart').map((port) => `${port.name} ${port.pins?.TX}/${port.pins?.RX}`)).toEqual(['Serial1 1/0', 'Serial2 18/19', 'Serial3 16/17', 'Serial4 14/15']);
  });

  test('the checks flag a fifth analogWrite pin on nRF52840 and two pins on one RP2040 slice channel', () => {
    const call = (values: number[], line: number): SketchCall => {
      const token = { ...tokenize('analogWrite')[0], line, file: 'sketch.ino' };
      return { name: 'analogWrite', args: [[token], [token]], values: [values, undefined], token, at: 0 };
    };
    const view = (board: string, calls: SketchCall[]) => ({ calls, identifiers: new Set<string>(), includes: [], libraryDirs: [], declares: () => false, boardName: board, board: factsOf(`arduino:mbed:${board}`, installed).board });
    const ble = facts('nano33ble');
    expect(ble.check!(view('nano33ble', [call([2, 3, 4, 5], 10)]))).toEqual([]);
    expect(ble.check!(view('nano33ble', [call([2, 3, 4, 5], 10), call([6], 11)])).map((f) => `${f.code}@${f.line}`)).toEqual(['pwm-peripherals-exhausted@11']);
    const connect = facts('nanorp2040connect');
    // D0 is p1 and D5 is p17: both slice 0 channel B.
    expect(connect.check!(view('nanorp2040connect', [call([0], 10), call([5], 11), call([6], 12)])).map((f) => `${f.code}@${f.line}`)).toEqual(['pwm-shared-channel@11']);
  });

  test('every board of the platform is read without a crash', () => {
    const platform = installed.platforms.get('arduino:mbed')!;
    const counts: string[] = [];
    for (const board of platform.load().boards.values()) {
      const all = facts(board.id);
      counts.push(`${board.id}: ${all.pins.length}/${all.known.pwm.known ? all.pins.filter((p) => p.pwm).length : '?'}/${all.serialPorts?.length ?? 0}`);
    }
    console.log(`pins/PWM/serial: ${counts.join('; ')}`);
    expect(counts.length).toBeGreaterThanOrEqual(12);
  });
});
