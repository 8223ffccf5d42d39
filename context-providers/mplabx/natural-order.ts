// Orders names the way people read them: RA2 before RA10, 1.9.0 before 1.26.442.
// Written out rather than localeCompare(..., { numeric: true }), whose collator
// costs more than a whole context build on a cold start.
const chunks = /(\d+)|(\D+)/g;

export function naturalCompare(a: string, b: string): number {
  const left = a.match(chunks) ?? [];
  const right = b.match(chunks) ?? [];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const [x, y] = [left[i], right[i]];
    if (x === y) continue;
    const numeric = /^\d/.test(x) && /^\d/.test(y);
    if (numeric) return Number(x) - Number(y) || x.length - y.length;
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
