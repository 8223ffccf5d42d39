// Every board of the six real 32-bit platforms (and every STM32 board part number): a context
// without a crash, and either a pin table or the reason there is none. Prints the counts.
import { describe, expect, test } from 'vitest';
import { buildBoardContext } from '../../../context-providers/arduino/board-context.js';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import { renderArduinoContext } from '../../../context-providers/arduino/render.js';
import { resolveFqbn } from '../../../platform/arduino/resolve.js';
import type { HardwareContext } from '../../../context-providers/types.js';
import { DATA_DIR_32BIT, TMP } from './paths.js';

const NO_TABLE_CODES = new Set(['variant-missing', 'variant-none', 'variant-header-missing', 'pins-no-count']);

function reasonForNoTable(context: HardwareContext): string | undefined {
  return context.warnings.find((warning) => NO_TABLE_CODES.has(warning.code))?.message;
}

describe('every board of the 32-bit fixture platforms', () => {
  test('builds a context with a pin table or a stated reason, and every unknown capability says why', async () => {
    const installed = await discoverPlatforms({ dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [], includeDebian: false, home: TMP });
    // Size as the prompt carries it, in tokens estimated as characters / 4 (as the Uno's test does).
    let largest = { fqbn: '', tokens: 0, characters: 0 };
    const counts = new Map<string, { boards: number; withTable: number; reasons: number; pwmKnown: number; analogKnown: number; interruptKnown: number; serialKnown: number }>();
    for (const platform of installed.platforms.values()) {
      const count = { boards: 0, withTable: 0, reasons: 0, pwmKnown: 0, analogKnown: 0, interruptKnown: 0, serialKnown: 0 };
      counts.set(platform.id, count);
      for (const board of platform.load().boards.values()) {
        // STM32 picks the variant with the board part number menu: every part number is a board.
        const partNumbers = [...(board.menus.get('pnum')?.keys() ?? [])];
        const fqbns = partNumbers.length > 0 ? partNumbers.map((pnum) => `${platform.id}:${board.id}:pnum=${pnum}`) : [`${platform.id}:${board.id}`];
        for (const fqbn of fqbns) {
          const context = buildBoardContext({ board: resolveFqbn(fqbn, installed), installed });
          count.boards++;
          const characters = renderArduinoContext(context).length;
          const tokens = Math.ceil(characters / 4);
          if (tokens > largest.tokens) largest = { fqbn, tokens, characters };
          if (context.pins.length > 0) count.withTable++;
          else {
            const reason = reasonForNoTable(context);
            expect(reason, `${fqbn} has no pin table and no reason`).toBeTruthy();
            count.reasons++;
          }
          for (const [kind, entry] of Object.entries(context.knowledge ?? {})) {
            if (!entry.known) expect(entry.reason, `${fqbn}: ${kind} unknown without a reason`).toBeTruthy();
          }
          if (context.knowledge?.pwm?.known) count.pwmKnown++;
          if (context.knowledge?.analog?.known) count.analogKnown++;
          if (context.knowledge?.interrupt?.known) count.interruptKnown++;
          if (context.knowledge?.serial?.known) count.serialKnown++;
        }
      }
    }
    console.log([...counts].map(([id, count]) => `${id}: ${count.boards} boards, ${count.withTable} with a pin table, ${count.reasons} with the reason there is none; PWM known on ${count.pwmKnown}, analog ${count.analogKnown}, interrupts ${count.interruptKnown}, serial ports ${count.serialKnown}`).join('\n'));
    console.log(`largest context: ${largest.fqbn}, ${largest.characters} characters, about ${largest.tokens} tokens (characters / 4)`);
    expect(largest.tokens).toBeLessThanOrEqual(3000);
    // Pin lists are digits and punctuation, which tokenizers split finer than prose: the limit
    // holds even at 2 characters per token.
    expect(largest.characters).toBeLessThanOrEqual(6000);
    expect([...counts.keys()].sort()).toEqual(['STMicroelectronics:stm32', 'arduino:mbed', 'arduino:renesas_uno', 'arduino:samd', 'cm:esp32', 'rp2040:rp2040']);
    expect(counts.get('rp2040:rp2040')!.boards).toBeGreaterThanOrEqual(151);
    // The fixture platforms are fixed, so are the counts: a reader that stops reading its tables
    // shows here as boards whose PWM, analog, interrupt or serial facts turned unknown. The boards
    // without a table: STM32's 288 variant folders that are not in the fixture, and the mbed and
    // SAMD boards whose boards.txt names no build.variant (envie_m7_thread_debug, tian_cons).
    // mbed's PWM is unknown on the STM32H747 boards (mbed's PinMap_PWM is compiled into libmbed.a).
    const summary = Object.fromEntries([...counts].map(([id, count]) => [id, [count.boards, count.withTable, count.pwmKnown, count.analogKnown, count.interruptKnown, count.serialKnown]]));
    expect(summary).toEqual({
      'STMicroelectronics:stm32': [1356, 42, 42, 42, 42, 42],
      'arduino:mbed': [13, 12, 7, 12, 12, 12],
      'arduino:renesas_uno': [7, 7, 7, 7, 7, 7],
      'arduino:samd': [18, 17, 17, 17, 17, 17],
      'cm:esp32': [13, 13, 13, 13, 13, 13],
      'rp2040:rp2040': [151, 151, 151, 151, 151, 151],
    });
  }, 600_000);
});
