// Relaxed semantic versions as Arduino uses them (platform folders, library.properties):
// "1.8.3", "3.0.2", "1.0", "2.0.0-rc1". Not every version is semver, so nothing here throws.

interface ParsedVersion {
  numbers: number[];
  prerelease: string;
}

function parseVersion(text: string): ParsedVersion {
  const [core, ...rest] = text.trim().replace(/^v/i, '').split(/[-+]/);
  const numbers = core.split('.').map((part) => Number.parseInt(part, 10)).map((n) => (Number.isFinite(n) ? n : 0));
  return { numbers, prerelease: rest.length > 0 && !text.includes('+') ? rest.join('-') : '' };
}

/** Negative when a < b, zero when equal, positive when a > b; a pre-release sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const left = parseVersion(a);
  const right = parseVersion(b);
  const length = Math.max(left.numbers.length, right.numbers.length, 3);
  for (let index = 0; index < length; index++) {
    const diff = (left.numbers[index] ?? 0) - (right.numbers[index] ?? 0);
    if (diff !== 0) return diff;
  }
  if (left.prerelease === right.prerelease) return 0;
  if (left.prerelease === '') return 1;
  if (right.prerelease === '') return -1;
  return left.prerelease < right.prerelease ? -1 : 1;
}
