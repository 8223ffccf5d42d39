// QSettings' INI format (Qt 6), as OpenMV IDE keeps its settings: `[Section]`
// headers, keys whose `/` is written `\` and other characters `%XX` / `%UXXXX`,
// values that may be quoted, lists joined with `, `, C escapes (`\n`, `\x41`, `\"`),
// `;` comments, `@Invalid()` for an empty list and `@@` for a leading `@`.
// Keys come back as Qt names them: `RecentFiles/Files`; `[General]` keys bare.

/** A plain value, or a list when the text held an unquoted comma (or was `@Invalid()`). */
export type IniValue = string | string[];

export type IniResult = { ok: true; values: Map<string, IniValue> } | { ok: false; error: string; line: number };

export function parseQSettingsIni(text: string): IniResult {
  const values = new Map<string, IniValue>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const first = i + 1;
    let line = lines[i]!;
    // A backslash at the very end carries the value on to the next line.
    while (line.endsWith('\\') && !line.endsWith('\\\\') && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i]!;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith(';') || trimmed.startsWith('#')) continue;
    if (trimmed.startsWith('[')) {
      const close = trimmed.indexOf(']');
      if (close < 0) return { ok: false, error: `section header without "]": ${trimmed}`, line: first };
      const name = unescapeKey(trimmed.slice(1, close));
      section = name === 'General' ? '' : name;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) return { ok: false, error: `line is neither [Section] nor key=value: ${trimmed}`, line: first };
    const key = unescapeKey(line.slice(0, eq).trim());
    if (!key) return { ok: false, error: 'key=value without a key', line: first };
    const value = unescapeValue(line.slice(eq + 1));
    if ('error' in value) return { ok: false, error: value.error, line: first };
    values.set(section ? `${section}/${key}` : key, value.value);
  }
  return { ok: true, values };
}

/** A list value as `QVariant::toStringList` gives it: one plain string is a one-item list. */
export function iniList(value: IniValue | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}

export function iniString(value: IniValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function unescapeKey(raw: string): string {
  return raw
    .replace(/\\+/g, '/')
    .replace(/%U([0-9A-Fa-f]{4})|%([0-9A-Fa-f]{2})/g, (_, wide: string | undefined, narrow: string | undefined) => String.fromCharCode(parseInt(wide ?? narrow!, 16)));
}

const SIMPLE: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '"': '"', "'": "'", '?': '?', '\\': '\\' };

function unescapeValue(raw: string): { value: IniValue } | { error: string } {
  const items: string[] = [];
  let current = '';
  // Unquoted whitespace is kept only when more text follows it in the same item.
  let space = '';
  let quoted = false;
  let list = false;
  const add = (text: string) => {
    if (current !== '' || quoted) current += space;
    space = '';
    current += text;
  };
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '\\') {
      const next = raw[i + 1];
      if (next === undefined) break;
      if (next === 'x') {
        const hex = /^[0-9A-Fa-f]+/.exec(raw.slice(i + 2))?.[0];
        if (!hex) return { error: `"\\x" without hex digits in ${raw.trim()}` };
        add(String.fromCodePoint(parseInt(hex, 16) % 0x110000));
        i += 1 + hex.length;
      } else if (/[0-7]/.test(next)) {
        const octal = /^[0-7]{1,3}/.exec(raw.slice(i + 1))![0];
        add(String.fromCharCode(parseInt(octal, 8)));
        i += octal.length;
      } else {
        add(SIMPLE[next] ?? next);
        i++;
      }
    } else if (ch === '"') {
      if (!quoted) add('');
      quoted = !quoted;
    } else if (quoted) {
      current += ch;
    } else if (ch === ',') {
      items.push(current);
      current = '';
      space = '';
      list = true;
    } else if (ch === ';') {
      break;
    } else if (ch === ' ' || ch === '\t') {
      space += ch;
    } else {
      add(ch);
    }
  }
  if (quoted) return { error: `a quoted value does not end: ${raw.trim()}` };
  if (list) return { value: [...items, current] };
  if (current === '@Invalid()') return { value: [] };
  return { value: current.startsWith('@@') ? current.slice(1) : current };
}
