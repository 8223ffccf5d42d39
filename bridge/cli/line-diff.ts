// A compact line diff for showing an agent's edit in the terminal: the changed
// lines with a little context, computed with a longest-common-subsequence table.

export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

const MAX_CELLS = 4_000_000;

export function diffLines(before: string, after: string, context = 2): DiffLine[] | undefined {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > MAX_CELLS) return undefined;
  const lines: DiffLine[] = [];
  for (const text of a.slice(Math.max(0, start - context), start)) lines.push({ op: ' ', text });
  lines.push(...lcsDiff(midA, midB));
  for (const text of a.slice(endA, Math.min(a.length, endA + context))) lines.push({ op: ' ', text });
  return lines;
}

function lcsDiff(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = a[i] === b[j] ? table[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i++] });
      j++;
    } else if (j < m && (i === n || table[i * (m + 1) + j + 1] >= table[(i + 1) * (m + 1) + j])) {
      out.push({ op: '+', text: b[j++] });
    } else {
      out.push({ op: '-', text: a[i++] });
    }
  }
  return out;
}
