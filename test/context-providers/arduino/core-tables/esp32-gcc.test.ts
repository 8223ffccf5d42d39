// The host gcc (Debian's; the boards' xtensa/riscv compilers are not in Debian) as ground truth
// for what the reader takes from the cm platform's headers: the LEDC functions the core declares,
// and the SDK's channel macros as gcc's preprocessor defines them.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { readEsp32Tables } from '../../../../context-providers/arduino/core-tables/esp32.js';
import type { CoreFacts } from '../../../../context-providers/arduino/core-tables/index.js';
import { resolveFqbn } from '../../../../platform/arduino/resolve.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import { FIXTURES, TMP } from '../paths.js';
import { loadPlatforms32 } from './table-lines.js';

const CM = join(FIXTURES, 'data_dir_32bit/packages/cm/hardware/esp32/1.7.5');
const SOC = join(CM, 'tools/sdk/include/soc/soc');
const WORK = join(TMP, 'esp32-gcc');

describe('host gcc agrees with the ESP32 reader on the cm platform\'s headers', () => {
  let facts: CoreFacts;

  beforeAll(async () => {
    mkdirSync(WORK, { recursive: true });
    const installed = await loadPlatforms32();
    const board = resolveFqbn('cm:esp32:ringo', installed);
    facts = readEsp32Tables(board, readVariantHeader(board))!;
  });

  test('esp32-hal-ledc.h declares ledcSetup and ledcAttachPin but not ledcAttach, so the reader\'s "before 3.0" is what gcc sees', () => {
    const compiles = (call: string): boolean => {
      const file = join(WORK, 'ledc.c');
      writeFileSync(file, `#include "esp32-hal-ledc.h"\nvoid f(void) { ${call}; }\n`);
      return spawnSync('gcc', ['-fsyntax-only', '-Werror=implicit-function-declaration', `-I${join(CM, 'cores/esp32')}`, file]).status === 0;
    };
    expect(compiles('ledcSetup(0, 5000, 8)')).toBe(true);
    expect(compiles('ledcAttachPin(5, 0)')).toBe(true);
    expect(compiles('ledcAttach(5, 5000, 8)')).toBe(false);
    expect(facts.notes.find((note) => note.topic === 'PWM (LEDC)')?.text).toContain('before 3.0');
  });

  test('ADC, touch and DAC channels per GPIO are what gcc -dM makes of the SDK\'s channel headers', () => {
    const header = join(WORK, 'channels.h');
    writeFileSync(header, ['adc_channel.h', 'touch_channel.h', 'dac_channel.h'].map((name) => `#include "${join(SOC, name)}"`).join('\n'));
    const defines = new Map(execFileSync('gcc', ['-E', '-dM', header], { encoding: 'utf8' }).split('\n').map((line) => /^#define (\w+) (.*)$/.exec(line)).filter((m) => m !== null).map((m) => [m![1], m![2].trim()]));
    for (const pin of facts.pins) {
      const adc = [1, 2].map((unit) => defines.get(`ADC${unit}_GPIO${pin.number}_CHANNEL`)).find((value) => value !== undefined);
      expect(adc?.replace(/^ADC(\d)_CHANNEL_(\d+)$/, 'ADC$1_CH$2'), `GPIO${pin.number} ADC`).toBe(pin.analog?.channel);
      const touch = defines.get(`TOUCH_PAD_GPIO${pin.number}_CHANNEL`);
      const trap = pin.traps?.find((entry) => entry.code === 'touch');
      const cited = trap ? /TOUCH_PAD_NUM\d+/.exec(readFileSync(trap.source.file, 'utf8').split('\n')[trap.source.line! - 1])?.[0] : undefined;
      expect(cited, `GPIO${pin.number} touch`).toBe(touch);
      const dac = defines.get(`DAC_GPIO${pin.number}_CHANNEL`);
      expect(dac?.replace('DAC_CHANNEL_', 'DAC'), `GPIO${pin.number} DAC`).toBe(pin.dac?.channel);
    }
  });
});
