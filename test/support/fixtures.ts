// Where the tests (and benches) find the third-party fixture files: other projects' platforms,
// projects and compiler outputs, kept outside this repository because they are those projects'
// code. One variable moves them: BOARDBRIDGE_FIXTURES (default: ../shared/fixtures beside the
// checkout). What the folder holds and where each file comes from: its SOURCES.md, and the
// README's "Tests" section.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root: the nearest folder above this file whose package.json is boardbridge's (works from dist/ too). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'boardbridge') return dir;
      } catch {
        // not ours; keep looking
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`fixtures helper: no boardbridge package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

export const REPOSITORY = repoRoot();

/** The fixtures folder (BOARDBRIDGE_FIXTURES, or ../shared/fixtures beside the checkout). */
export const FIXTURES_ROOT = resolve(REPOSITORY, process.env.BOARDBRIDGE_FIXTURES ?? '../shared/fixtures');

/** A path inside the fixtures folder. */
export function fixture(...parts: string[]): string {
  return join(FIXTURES_ROOT, ...parts);
}

/** Why the fixtures cannot be used, or undefined when they can. */
export function fixturesProblem(): string | undefined {
  if (existsSync(join(FIXTURES_ROOT, 'SOURCES.md'))) return undefined;
  return (
    `the test fixtures are not at ${FIXTURES_ROOT}${process.env.BOARDBRIDGE_FIXTURES ? ' (BOARDBRIDGE_FIXTURES)' : ' (default ../shared/fixtures beside the checkout)'}: ` +
    'that folder holds the real third-party Arduino platforms and MPLAB projects the tests read (see the README, "Tests"). ' +
    'Point BOARDBRIDGE_FIXTURES at a copy of it.'
  );
}
