// Shared paths and helpers for the MPLAB X tests.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixture } from '../../support/fixtures.js';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../../..');
/** Real projects from public repositories (see SOURCES.md in the fixtures folder). */
export const sharedFixtures = fixture('mplabx');
/** Small projects and pack files written for these tests. */
export const ownFixtures = resolve(repoRoot, 'test/fixtures/mplabx');
export const ownPacks = join(ownFixtures, 'packs');
export const goldenDir = join(here, 'golden');

const created: string[] = [];

/** A fresh folder under the gitignored .tmp/; `removeTempDirs` in afterAll removes it. */
export function tempDir(prefix: string): string {
  const base = join(repoRoot, '.tmp');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, prefix));
  created.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A pack root holding the shared ATmega328P/ATmega2560 .atdf files in MPLAB X's layout. */
export function atmegaPackRoot(): string {
  const root = tempDir('mplabx-packs-');
  const atdf = join(root, 'Microchip', 'ATmega_DFP', '3.0.158', 'atdf');
  mkdirSync(atdf, { recursive: true });
  cpSync(join(sharedFixtures, 'atdf', 'atmega328p.atdf'), join(atdf, 'ATmega328P.atdf'));
  cpSync(join(sharedFixtures, 'atdf', 'atmega2560.atdf'), join(atdf, 'ATmega2560.atdf'));
  return root;
}

/** JSON with machine-specific folders replaced, so golden files hold portable paths. */
export function portable(value: unknown, replacements: Record<string, string>): unknown {
  let text = JSON.stringify(value, null, 2);
  for (const [from, to] of Object.entries(replacements).sort((a, b) => b[0].length - a[0].length)) text = text.split(from).join(to);
  return JSON.parse(text);
}
