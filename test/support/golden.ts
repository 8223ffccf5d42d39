// The one way a test compares with a golden file. A golden is written only when
// UPDATE_GOLDENS=1 is set for a deliberate change; a missing golden is a failure
// (so a first run can never pass against its own output).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';

export const UPDATE_GOLDENS = process.env.UPDATE_GOLDENS === '1';

/** `actual` must equal the JSON in `file`; with UPDATE_GOLDENS=1 the file is (re)written first. */
export function expectGolden(file: string, actual: unknown): void {
  if (UPDATE_GOLDENS) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
  }
  if (!existsSync(file)) throw new Error(`golden file ${file} is missing: run the test once with UPDATE_GOLDENS=1, look at the file, and commit it`);
  expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * Where a screenshot test writes its PNG, or why it does not. Pixels differ from run to run
 * (fonts, anti-aliasing, timing), so a screenshot is never compared: the test checks the
 * elements on the page, and the PNG in docs/screenshots/ is a picture for people, rewritten
 * only with UPDATE_GOLDENS=1, or written when it is missing outside CI. Under CI a missing
 * screenshot fails: it was never looked at and committed.
 */
export async function writeScreenshot(file: string, png: () => Promise<Buffer>): Promise<void> {
  const missing = !existsSync(file);
  if (missing && process.env.CI && !UPDATE_GOLDENS) {
    throw new Error(`screenshot ${file} is missing: run the test once with UPDATE_GOLDENS=1 outside CI, look at the picture, and commit it`);
  }
  if (!UPDATE_GOLDENS && !missing) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, await png());
}
