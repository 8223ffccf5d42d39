// A platform.txt whose property refers to itself: the expansion stays bounded and the
// context names the file and line, instead of growing five-fold for ten rounds (4 GB).
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createArduinoProvider } from '../../../context-providers/arduino/provider.js';
import { expandReferences, MAX_EXPANDED_LENGTH, referenceCycles } from '../../../platform/arduino/properties.js';
import { DATA_DIR, OWN_FIXTURES, TMP } from './paths.js';

const SELF_FIVE_TIMES = `compiler.cpp.flags=${Array(5).fill('{compiler.cpp.flags}').join(' ')}`;

describe('a property that refers to itself', () => {
  test('repeated five times in a real platform.txt gives a warning naming the file and line, and a bounded recipe', async () => {
    const dataDir = join(TMP, 'reference-cycle', 'data_dir');
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    cpSync(DATA_DIR, dataDir, { recursive: true });
    const platformTxt = join(dataDir, 'packages/arduino/hardware/avr/1.8.3/platform.txt');
    appendFileSync(platformTxt, `\n${SELF_FIVE_TIMES}\n`);
    const line = readFileSync(platformTxt, 'utf8').split('\n').indexOf(SELF_FIVE_TIMES) + 1;

    const provider = createArduinoProvider({ dataDirs: [dataDir], sketchbookDirs: [], includeDebian: false, home: TMP });
    const project = await provider.detect(join(OWN_FIXTURES, 'sketches', 'Blink'));
    const context = await provider.load(project!, { board: 'arduino:avr:uno' });
    const warning = context.warnings.find((w) => w.code === 'properties-reference-cycle');
    expect(warning).toMatchObject({ file: platformTxt, line });
    expect(warning?.message).toContain(`${platformTxt}:${line}: compiler.cpp.flags refers to itself ({compiler.cpp.flags} → {compiler.cpp.flags})`);
    expect(JSON.stringify(context).length).toBeLessThan(5 * MAX_EXPANDED_LENGTH);
  });

  test('expands to at most MAX_EXPANDED_LENGTH characters', () => {
    const lookup = (key: string) => (key === 'compiler.cpp.flags' ? SELF_FIVE_TIMES.split('=')[1] : undefined);
    const expanded = expandReferences('{compiler.cpp.flags}', lookup);
    expect(expanded.length).toBeLessThanOrEqual(MAX_EXPANDED_LENGTH);
    expect(expanded.length).toBeGreaterThan(MAX_EXPANDED_LENGTH / 5);
  });

  test('cycles through other keys are found once, with their path, and long chains do not overflow the stack', () => {
    const values: Record<string, string> = { a: '{b}', b: 'x {c}', c: '{a} {d}', d: 'plain', self: '{self}' };
    for (let i = 0; i < 20_000; i++) values[`k${i}`] = `{k${i + 1}}`;
    expect(referenceCycles(Object.keys(values), (k) => values[k])).toEqual([['a', 'b', 'c'], ['self']]);
  });
});
