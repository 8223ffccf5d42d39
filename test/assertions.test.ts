// A test with no assertion passes whatever the code does: every test of the suite asserts.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testsWithoutAssertions } from './support/test-assertions.js';

const testRoot = path.dirname(fileURLToPath(import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : testFiles(full);
    return entry.isFile() && entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('every test asserts', () => {
  it('no test of the suite lacks an assertion', () => {
    const files = testFiles(testRoot);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => testsWithoutAssertions(file)).map((found) => path.relative(testRoot, found))).toEqual([]);
  });

  it('finds a test that only runs code, and accepts one asserting through a helper of its file, an expect… helper or method', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bb-assert-'));
    const file = path.join(dir, 'sample.test.ts');
    try {
      writeFileSync(
        file,
        [
          "import { expect, it } from 'vitest';",
          "import { expectGolden } from './golden.js';",
          'function matches(value: number) { expect(value).toBe(1); }',
          'const viaHelper = (value: number) => matches(value);',
          "it('runs but checks nothing', async () => { await Promise.resolve(1); });",
          "it('asserts directly', () => { expect(1).toBe(1); });",
          "it('asserts through two helpers of the file', () => { viaHelper(1); });",
          "it('asserts through an imported expect helper', () => { expectGolden('x.json', {}); });",
          "it.each([1, 2])('checks nothing for %i either', (n) => { void n; });",
          "it('asserts through a reader method named expect', async () => { await reader.lines().expect(/ready/); });",
          '',
        ].join('\n'),
      );
      expect(testsWithoutAssertions(file)).toEqual([`${file}:5: 'runs but checks nothing'`, `${file}:9: 'checks nothing for %i either'`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
