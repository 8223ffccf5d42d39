// Contexts kept on disk between processes: a second provider (as a new process would be) gets the
// same context without reading the platform, and any change of an input file rebuilds it.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createArduinoProvider } from '../../../context-providers/arduino/provider.js';
import { OWN_FIXTURES, TMP } from './paths.js';

describe('the on-disk context cache', () => {
  const root = join(TMP, 'disk-cache');
  const cacheDir = join(root, 'cache');
  const sketch = join(root, 'Blink');

  test('a new provider reads the stored context; an edited input or sketch rebuilds it', async () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    cpSync(join(OWN_FIXTURES, 'sketches/Blink'), sketch, { recursive: true });
    const open = async () => {
      const provider = createArduinoProvider({ dataDirs: [], sketchbookDirs: [], home: root, cacheDir });
      return provider.load((await provider.detect(sketch))!, { board: 'arduino:avr:uno' });
    };
    const first = await open();
    const second = await open();
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    // The sketch changes: the stored context must not be used.
    writeFileSync(join(sketch, 'Blink.ino'), 'void setup() { pinMode(7, OUTPUT); analogWrite(7, 10); }\nvoid loop() {}\n');
    utimesSync(join(sketch, 'Blink.ino'), new Date(), new Date(Date.now() + 5000));
    const third = await open();
    expect(third.findings.map((finding) => finding.code)).toContain('pwm-pin');
    expect(first.findings.map((finding) => finding.code)).not.toContain('pwm-pin');
  });

  test('a damaged cache file is a miss, never an error, and is replaced', async () => {
    const entries = readdirSync(join(cacheDir, 'contexts'));
    expect(entries.length).toBeGreaterThan(0);
    for (const name of entries) writeFileSync(join(cacheDir, 'contexts', name), '{not json');
    const provider = createArduinoProvider({ dataDirs: [], sketchbookDirs: [], home: root, cacheDir });
    const context = await provider.load((await provider.detect(sketch))!, { board: 'arduino:avr:uno' });
    expect(context.board.id).toBe('arduino:avr:uno');
    expect(readdirSync(join(cacheDir, 'contexts')).some((name) => readFileSync(join(cacheDir, 'contexts', name), 'utf8').startsWith('{"code"'))).toBe(true);
  });
});
