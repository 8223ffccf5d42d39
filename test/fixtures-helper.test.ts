// Every test reaches the third-party fixtures through test/support/fixtures.ts (BOARDBRIDGE_FIXTURES,
// default ../shared/fixtures): a test that builds the default path itself passes beside the shared
// folder and fails in a clone that moved it (fifo-files did, in a fresh clone under /tmp).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { REPOSITORY } from './support/fixtures.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : sources(file);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) ? [file] : [];
  });
}

it('no test or benchmark but the fixtures helper names the shared fixtures folder', () => {
  const helper = path.join(REPOSITORY, 'test', 'support', 'fixtures.ts');
  // The default path written out, or put together from its parts.
  const reach = /shared\/fixtures|['"]shared['"]\s*,\s*['"]fixtures['"]/;
  const files = [...sources(path.join(REPOSITORY, 'test')), ...sources(path.join(REPOSITORY, 'bench'))];
  expect(files.length).toBeGreaterThan(100);
  const offenders = files.filter((file) => file !== helper && file !== fileURLToPath(import.meta.url) && reach.test(readFileSync(file, 'utf8')));
  expect(offenders.map((file) => path.relative(REPOSITORY, file))).toEqual([]);
});
