import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CoreFacts, SketchCall } from '../../../../context-providers/arduino/core-tables/index.js';
import { tokenize } from '../../../../context-providers/arduino/c-tokens.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { TMP } from '../paths.js';
import { citedLine, DATA_DIR_32BIT, factsOf, loadPlatforms32, pinOf, requireFacts, samdRowLines as rowLines } from './table-lines.js';

let installed: InstalledPlatforms;
beforeAll(async () => {
  installed = await loadPlatforms32();
});

const facts = (board: string): CoreFacts => requireFacts(`arduino:samd:${board}`, installed);
const pin = pinOf;

// WVariant.h: `PWM0_CH6=TCC0_CH6,` and `TCC0_CH6 = (0<<8)|(2), // Channel 6 is 2!`.
function compareChannel(coreDir: string, pwmName: string): { timer: number; cc: number } {
  const text = readFileSync(join(coreDir, 'WVariant.h'), 'utf8');
  const alias = new RegExp(`\\b${pwmName}\\s*=\\s*(\\w+)`).exec(text)![1];
  const value = new RegExp(`\\b${alias}\\s*=\\s*\\((\\d+)<<8\\)\\|\\((\\d+)\\)`).exec(text)!;
  return { timer: Number(value[1]), cc: Number(value[2]) };
}

const BOARDS = ['nano_33_iot', 'mkrwifi1010', 'arduino_zero_edbg', 'arduino_zero_native', 'mkrzero', 'mkr1000'];

describe.each(BOARDS)('SAMD %s: every fact is the row it cites', (board) => {
  test('PWM timer/channel, ADC channel and EXTINT line match the g_APinDescription row of that pin', () => {
    const all = facts(board);
    const resolved = factsOf(`arduino:samd:${board}`, installed).board;
    const rows = rowLines(join(resolved.variantPath!, 'variant.cpp'));
    expect(rows).toHaveLength(all.pins.length);
    let checked = 0;
    for (const p of all.pins) {
      for (const fact of [p.pwm, p.analog, p.interrupt, p.dac]) {
        if (!fact) continue;
        expect(fact.source.line, `pin ${p.number}`).toBe(rows[p.number]);
        const line = citedLine(fact.source);
        const port = /\{\s*PORT([A-C])\s*,\s*(\d+)\s*,/.exec(line)!;
        expect(`P${port[1]}${port[2].padStart(2, '0')}`).toBe(p.names![0]);
        checked++;
      }
      if (p.pwm) {
        const line = citedLine(p.pwm.source);
        expect(line).toMatch(/PIN_ATTR_PWM/);
        expect(line).not.toMatch(/PIN_ATTR_ANALOG/);
        const pwmName = /\b(PWM\d_CH\d)\b/.exec(line)![1];
        const { timer, cc } = compareChannel(resolved.corePath, pwmName);
        expect(p.pwm.timer).toMatch(new RegExp(`^TCC?${timer}$`));
        expect(p.pwm.channel).toBe(`CC${cc}`);
      }
      if (p.analog) expect(citedLine(p.analog.source)).toMatch(new RegExp(`\\bADC_Channel${p.analog.channel.slice(3)}\\b`));
      if (p.interrupt) {
        expect(citedLine(p.interrupt.source)).toMatch(new RegExp(`\\bEXTERNAL_INT_${p.interrupt.line!.slice(6)}\\b`));
        // Arduino.h: #define digitalPinToInterrupt(P) ( P ) for ARDUINO_SAMD_VARIANT_COMPLIANCE >= 10606.
        expect(p.interrupt.number).toBe(p.number);
      }
    }
    // A row with EXTERNAL_INT_NONE gives no interrupt, though digitalPinToInterrupt(p) is p for every pin.
    const withoutLine = all.pins.filter((p) => !p.interrupt).map((p) => p.number);
    for (const number of withoutLine) expect(citedLine({ file: join(resolved.variantPath!, 'variant.cpp'), line: rows[number] })).toMatch(/EXTERNAL_INT_(NONE|NMI)/);
    console.log(`${board}: ${all.pins.length} pins, ${all.pins.filter((p) => p.pwm).length} PWM, ${all.pins.filter((p) => p.analog).length} analog, ${all.pins.filter((p) => p.interrupt).length} interrupt, ${checked} facts checked against their rows`);
  });
});

describe('SAMD core facts', () => {
  test('MKR WiFi 1010: A0–A6 are pins 15–21, past NUM_DIGITAL_PINS (15), with their ADC channels; A0 is the DAC', () => {
    const mkr = facts('mkrwifi1010');
    expect([15, 16, 17, 18, 19, 20, 21].map((n) => pin(mkr, n).analog?.input)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(pin(mkr, 15).analog?.channel).toBe('AIN0');
    expect(pin(mkr, 15).dac).toBeDefined();
    expect(pin(mkr, 15).pwm).toBeUndefined();
    expect(mkr.serialPorts?.map((port) => port.name)).toEqual(['Serial1', 'Serial2', 'SerialUSB', 'Serial']);
    expect(mkr.serialPorts?.[0]).toMatchObject({ pins: { TX: 14, RX: 13 } });
  });

  test('Zero: Wire on 20/21 and SPI on the ICSP pins 22–24 are in the table and named', () => {
    const zero = facts('arduino_zero_edbg');
    expect(zero.buses).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'Wire', pins: { SDA: 20, SCL: 21 } }),
      expect.objectContaining({ name: 'SPI', pins: { MISO: 22, MOSI: 23, SCK: 24 } }),
    ]));
    for (const bus of zero.buses!) expect(citedLine(bus.source)).toMatch(/^#define PIN_(WIRE|SPI)\d?_/);
    expect(pin(zero, 20).functions?.map((f) => f.fn)).toContain('Wire SDA');
    expect(pin(zero, 24).functions?.map((f) => f.fn)).toContain('SPI SCK');
    expect(zero.serialPorts?.find((port) => port.name === 'Serial')).toMatchObject({ kind: 'uart', pins: { TX: 30, RX: 31 } });
  });

  test('Nano 33 IoT: only pins with an EXTINT line are interrupt pins; analogWrite says what the core does off PWM', () => {
    const nano = facts('nano_33_iot');
    expect(pin(nano, 4).interrupt).toBeUndefined();
    expect(pin(nano, 2).interrupt).toMatchObject({ number: 2, line: 'EXTINT10' });
    // D4 (PA07) has ADC channel 7, but analogRead(4) reads A4: only pins from A0 on report analog input.
    expect(pin(nano, 4).analog).toBeUndefined();
    expect(nano.analogReadAcceptsChannelNumbers).toBe(true);
    expect(nano.analogWriteWithoutPwm?.text).toMatch(/sets it to OUTPUT and writes LOW for values below half scale, HIGH from half scale up/);
    // A4 (18) is PIN_ATTR_ANALOG with ADC channel 2: analogWrite returns without doing anything.
    expect(nano.analogWriteWithoutPwm?.text).toMatch(/\(on pin 18, marked PIN_ATTR_ANALOG, it does nothing\); on pin 14 it drives the DAC$/);
    expect(nano.notes.length).toBeLessThanOrEqual(5);
  });

  test('the checks flag tone() on TC5 PWM pins, two pins on one compare channel, and two pins on one EXTINT line', () => {
    const nano = facts('nano_33_iot');
    const board = factsOf('arduino:samd:nano_33_iot', installed).board;
    const call = (name: string, values: number[], line: number): SketchCall => {
      const token = { ...tokenize(name)[0], line, file: 'sketch.ino' };
      return { name, args: [[token], [token]], values: [values, undefined], token, at: 0 };
    };
    const findings = nano.check!({
      calls: [call('analogWrite', [2], 10), call('tone', [8], 11), call('analogWrite', [9], 12), call('analogWrite', [17], 13), call('attachInterrupt', [9], 14), call('attachInterrupt', [26], 15), call('attachInterrupt', [3], 16)],
      identifiers: new Set(),
      includes: [],
      libraryDirs: [],
      declares: () => false,
      boardName: 'Arduino NANO 33 IoT',
      board,
    });
    expect(findings.map((finding) => `${finding.code}@${finding.line}`).sort()).toEqual(['pwm-shared-channel@13', 'tone-timer-shared@11']);
    // Pins 9 (EXTINT4) and 26 (EXTINT15) are different lines; 15 (PB02) and 17 share none. Two on EXTINT2 do:
    const zero = facts('arduino_zero_edbg');
    expect(pin(zero, 10).interrupt?.line).toBe('EXTINT2');
    expect(pin(zero, 19).interrupt?.line).toBe('EXTINT2');
    const shared = zero.check!({ calls: [call('attachInterrupt', [10], 20), call('attachInterrupt', [19], 21)], identifiers: new Set(), includes: [], libraryDirs: [], declares: () => false, boardName: 'Arduino Zero', board });
    expect(shared.map((finding) => `${finding.code}@${finding.line}`)).toEqual(['interrupt-shared-line@21']);
  });

  test('every board of the platform is read without a crash', () => {
    const platform = installed.platforms.get('arduino:samd')!;
    const counts: string[] = [];
    const skipped: string[] = [];
    for (const board of platform.load().boards.values()) {
      const resolved = factsOf(`arduino:samd:${board.id}`, installed);
      if (!resolved.facts) {
        // The Tian's MIPS console port has no SAMD core (build.core is not arduino's samd core).
        skipped.push(`${board.id} (core ${resolved.board.corePath})`);
        continue;
      }
      const all = resolved.facts;
      expect(all.known.pwm.known, board.id).toBe(true);
      expect(all.warnings.filter((warning) => warning.code === 'pin-row-unknown'), board.id).toEqual([]);
      counts.push(`${board.id}: ${all.pins.length}/${all.pins.filter((p) => p.pwm).length}/${all.pins.filter((p) => p.interrupt).length}`);
    }
    console.log(`pins/PWM/interrupt: ${counts.join('; ')}; not SAMD: ${skipped.join(', ')}`);
    expect(skipped.length).toBeLessThanOrEqual(1);
    expect(counts.length).toBeGreaterThanOrEqual(12);
  });
});

describe('third-party boards on the SAMD core', () => {
  test('a board on Arduino\'s core (build.core=arduino:arduino) gets its rules; a fork of the core gets the table but not the .c rules', async () => {
    const sketchbook = join(TMP, 'samd-third-party');
    const samd = join(DATA_DIR_32BIT, 'packages/arduino/hardware/samd/1.8.14');
    const platform = join(sketchbook, 'hardware/acme/samd');
    rmSync(sketchbook, { recursive: true, force: true });
    mkdirSync(join(platform, 'variants'), { recursive: true });
    cpSync(join(samd, 'platform.txt'), join(platform, 'platform.txt'));
    cpSync(join(samd, 'cores'), join(platform, 'cores'), { recursive: true });
    cpSync(join(samd, 'variants/nano_33_iot'), join(platform, 'variants/fork_iot'), { recursive: true });
    writeFileSync(join(platform, 'boards.txt'), [
      'fork.name=Acme Fork IoT', 'fork.build.core=arduino', 'fork.build.variant=fork_iot', 'fork.build.mcu=cortex-m0plus', 'fork.build.extra_flags=-D__SAMD21G18A__',
      'ref.name=Acme on Arduino SAMD', 'ref.build.core=arduino:arduino', 'ref.build.variant=arduino:nano_33_iot', 'ref.build.mcu=cortex-m0plus', 'ref.build.extra_flags=-D__SAMD21G18A__',
    ].join('\n'));
    const withAcme = await discoverPlatforms({ dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [sketchbook], includeDebian: false, home: TMP });
    const fork = requireFacts('acme:samd:fork', withAcme);
    const ref = requireFacts('acme:samd:ref', withAcme);
    for (const all of [fork, ref]) {
      expect(all.known.pwm.known).toBe(true);
      expect(pin(all, 2).pwm).toMatchObject({ timer: 'TC5', channel: 'CC0' });
    }
    expect(ref.analogWriteWithoutPwm?.text).toMatch(/sets it to OUTPUT/);
    expect(ref.analogReadAcceptsChannelNumbers).toBe(true);
    expect(fork.analogWriteWithoutPwm).toBeUndefined();
    expect(fork.analogReadAcceptsChannelNumbers).toBeUndefined();
    expect(fork.notes.some((note) => note.topic === 'tone')).toBe(false);
  });
});
