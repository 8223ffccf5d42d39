// Contexts kept on disk between processes: a second provider (as a new process would be) gets the
// same context without reading the platform, and any change of an input file rebuilds it.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fileNameOf } from '../../../context-providers/arduino/disk-cache.js';
import { createArduinoProvider } from '../../../context-providers/arduino/provider.js';
import { renderArduinoContext } from '../../../context-providers/arduino/render.js';
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

  test('a stored context holds its markdown as the provider rendered it, and a new provider gives that markdown without rendering again', async () => {
    const provider = createArduinoProvider({ dataDirs: [], sketchbookDirs: [], home: root, cacheDir });
    const context = await provider.load((await provider.detect(sketch))!, { board: 'arduino:avr:uno' });
    const entries = readdirSync(join(cacheDir, 'contexts')).map((name) => JSON.parse(readFileSync(join(cacheDir, 'contexts', name), 'utf8')));
    const entry = entries.find((candidate) => JSON.stringify(candidate.value.context) === JSON.stringify(context));
    expect(entry?.value.markdown).toBe(renderArduinoContext(context));
    expect(provider.render(context)).toBe(entry.value.markdown);
    const again = createArduinoProvider({ dataDirs: [], sketchbookDirs: [], home: root, cacheDir });
    const stored = await again.load((await again.detect(sketch))!, { board: 'arduino:avr:uno' });
    expect(stored).toEqual(context);
    expect(again.render(stored)).toBe(entry.value.markdown);
  });

  test('an entry of another shape (a context without its markdown, as kept before) is a miss, and is replaced', async () => {
    const dir = join(cacheDir, 'contexts');
    for (const name of readdirSync(dir)) {
      const entry = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      writeFileSync(join(dir, name), JSON.stringify({ ...entry, value: entry.value.context }));
    }
    const provider = createArduinoProvider({ dataDirs: [], sketchbookDirs: [], home: root, cacheDir });
    const context = await provider.load((await provider.detect(sketch))!, { board: 'arduino:avr:uno' });
    expect(context.board.id).toBe('arduino:avr:uno');
    expect(provider.render(context)).toBe(renderArduinoContext(context));
    const entries = readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
    expect(entries.some((entry) => typeof entry.value.markdown === 'string' && entry.value.context.board.id === 'arduino:avr:uno')).toBe(true);
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

// A cache file's name (fileNameOf): 64 bits in hex, the same for a key each time; a pin map's key
// is its board's whole property set, so two boards whose properties differ in one character, or
// whose keys differ only in their last bytes (the ones a word at a time leaves over), have files of their own.
describe('cache file names', () => {
  const properties = (changed: string) => JSON.stringify(Array.from({ length: 3000 }, (_, index) => [`menu.key${index}`, index === 1500 ? changed : `value ${index}`]));
  test('a long key is named the same each time, and a one-character change names another file', () => {
    const key = properties('-Os');
    expect(key.length).toBeGreaterThan(50_000);
    expect(fileNameOf(key)).toMatch(/^[0-9a-f]{16}$/);
    expect(fileNameOf(`${key}`)).toBe(fileNameOf(key));
    expect(fileNameOf(properties('-O2'))).not.toBe(fileNameOf(key));
    // The same key again after another one, and keys that differ only in their last one to three characters.
    expect(fileNameOf(key)).toBe(fileNameOf(properties('-Os')));
    const names = new Set(['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'abcdf', 'abcdef', 'abcdeg', 'abcdefg', 'abcdefh', 'é', 'ü'].map((text) => fileNameOf(`prefix-${text}`)));
    expect(names.size).toBe(13);
  });
});
