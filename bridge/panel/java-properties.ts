// java.util.Properties text, as NetBeans (and so MPLAB X) keeps its preferences:
// `key=value`, `key:value` or `key value`; `#` and `!` comments; a line ending in an
// odd number of backslashes continues on the next; `\uXXXX`, `\t`, `\n`, `\r`, `\f`
// escapes, and any other escaped character stands for itself (`\:`, `\=`, `\ `).

export type PropertiesResult = { ok: true; values: Map<string, string> } | { ok: false; error: string; line: number };

export function parseProperties(text: string): PropertiesResult {
  const values = new Map<string, string>();
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const first = i + 1;
    let logical = lines[i]!.replace(/^[ \t\f]+/, '');
    if (logical === '' || logical.startsWith('#') || logical.startsWith('!')) continue;
    while (endsInOddBackslashes(logical)) {
      logical = logical.slice(0, -1);
      if (++i >= lines.length) break;
      logical += lines[i]!.replace(/^[ \t\f]+/, '');
    }
    const split = splitKey(logical);
    const key = unescape(split.key);
    const value = unescape(split.value);
    if (typeof key !== 'string') return { ok: false, error: key.error, line: first };
    if (typeof value !== 'string') return { ok: false, error: value.error, line: first };
    values.set(key, value);
  }
  return { ok: true, values };
}

function endsInOddBackslashes(line: string): boolean {
  let count = 0;
  for (let i = line.length - 1; i >= 0 && line[i] === '\\'; i--) count++;
  return count % 2 === 1;
}

// The key ends at the first unescaped `=`, `:` or whitespace; whitespace and one `=` or `:` separate it from the value.
function splitKey(line: string): { key: string; value: string } {
  let end = 0;
  while (end < line.length) {
    const ch = line[end]!;
    if (ch === '\\') end += 2;
    else if (ch === '=' || ch === ':' || ch === ' ' || ch === '\t' || ch === '\f') break;
    else end++;
  }
  end = Math.min(end, line.length);
  let start = end;
  while (start < line.length && /[ \t\f]/.test(line[start]!)) start++;
  if (line[start] === '=' || line[start] === ':') start++;
  while (start < line.length && /[ \t\f]/.test(line[start]!)) start++;
  return { key: line.slice(0, end), value: line.slice(start) };
}

const SIMPLE: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

function unescape(raw: string): string | { error: string } {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = raw[++i];
    if (next === undefined) break;
    if (next === 'u') {
      const hex = raw.slice(i + 1, i + 5);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return { error: `malformed \\uXXXX escape "\\u${hex}"` };
      out += String.fromCharCode(parseInt(hex, 16));
      i += 4;
    } else {
      out += SIMPLE[next] ?? next;
    }
  }
  return out;
}
