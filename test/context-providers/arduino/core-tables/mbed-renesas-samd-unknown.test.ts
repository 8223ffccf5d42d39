// Unknown is not wrong: a core reader whose table file is missing, or has a row it cannot evaluate,
// says so with the reason instead of reporting pins without PWM, analog or interrupts.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { readMbedTables } from '../../../../context-providers/arduino/core-tables/mbed.js';
import { readRenesasTables } from '../../../../context-providers/arduino/core-tables/renesas.js';
import { readSamdTables } from '../../../../context-providers/arduino/core-tables/samd.js';
import type { InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import type { ResolvedBoard } from '../../../../platform/arduino/resolve.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import { TMP } from '../paths.js';
import { factsOf, loadPlatforms32 } from './table-lines.js';

let installed: InstalledPlatforms;
beforeAll(async () => {
  installed = await loadPlatforms32();
});

/** The board with its variant folder replaced by a copy the test may change. */
function withVariantCopy(fqbn: string, name: string, change: (dir: string) => void): ResolvedBoard {
  const board = factsOf(fqbn, installed).board;
  const dir = join(TMP, 'unknown-tables', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(board.variantPath!, dir, { recursive: true });
  change(dir);
  return { ...board, variantPath: dir };
}

const READERS = [
  { fqbn: 'arduino:renesas_uno:minima', read: readRenesasTables },
  { fqbn: 'arduino:samd:nano_33_iot', read: readSamdTables },
  { fqbn: 'arduino:mbed:nano33ble', read: readMbedTables },
];

describe.each(READERS)('$fqbn without variant.cpp', ({ fqbn, read }) => {
  test('every capability is unknown with the missing file as the reason, and no pin is reported', () => {
    const board = withVariantCopy(fqbn, `${fqbn.replace(/:/g, '_')}-no-cpp`, (dir) => rmSync(join(dir, 'variant.cpp')));
    const facts = read(board, readVariantHeader(board))!;
    expect(facts.pins).toEqual([]);
    for (const knowledge of [facts.known.pwm, facts.known.analog, facts.known.interrupt, facts.known.dac]) {
      expect(knowledge).toEqual({ known: false, reason: expect.stringContaining(`${join(board.variantPath!, 'variant.cpp')}: variant.cpp not found`) });
    }
  });
});

test('a Renesas list that cannot be evaluated makes the table unknown and names the pin', () => {
  const board = withVariantCopy('arduino:renesas_uno:minima', 'minima-bad-list', (dir) => {
    const file = join(dir, 'pinmux.inc');
    writeFileSync(file, readFileSync(file, 'utf8').replace('PIN_PWM|CHANNEL_1|PWM_CHANNEL_B|GPT_ODD_CFG,\nPIN_INTERRUPT|CHANNEL_1,', 'PIN_PWM|CHANNEL_1|SOMETHING_NEW,\nPIN_INTERRUPT|CHANNEL_1,'));
  });
  const facts = readRenesasTables(board, readVariantHeader(board))!;
  // P104 (D3) is the list changed above.
  expect(facts.known.pwm).toEqual({ known: false, reason: 'g_pin_cfg rows of pins 3 name lists that could not be read' });
  expect(facts.pins.find((pin) => pin.number === 3)?.pwm).toBeUndefined();
  expect(facts.pins.find((pin) => pin.number === 5)?.pwm).toBeDefined();
});

test('a SAMD row that cannot be evaluated makes the table unknown, with an INFO at its line', () => {
  const board = withVariantCopy('arduino:samd:nano_33_iot', 'nano-bad-row', (dir) => {
    const file = join(dir, 'variant.cpp');
    writeFileSync(file, readFileSync(file, 'utf8').replace('PWM5_CH0,   TC5_CH0,      EXTERNAL_INT_10', 'PWM9_CH0,   TC5_CH0,      EXTERNAL_INT_10'));
  });
  const facts = readSamdTables(board, readVariantHeader(board))!;
  expect(facts.known.pwm).toEqual({ known: false, reason: 'g_APinDescription rows of pins 2 could not be evaluated' });
  expect(facts.warnings).toEqual([expect.objectContaining({ severity: 'info', code: 'pin-row-unknown', line: 59 })]);
});
