// Text an agent chose (a script path, a port, a folder name) inside a consent question:
// shown as it is when it is short and plain, otherwise quoted, with control and
// invisible characters written out (`\n`, `\e`, `\u{202e}`) and the middle cut, so
// that no name can push the rest of the question ("(it replaces what runs there)")
// out of view or rewrite what the person sees.

/** The most characters of one piece of agent text a question shows. */
export const MAX_SHOWN_CHARS = 320;
const HEAD_CHARS = 80;

// C0 and C1 controls, DEL, line and paragraph separators, zero-width and bidirectional marks, BOM.
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/u;

export function shownText(text: string): string {
  if (text.length <= MAX_SHOWN_CHARS && !HIDDEN.test(text) && !text.includes('"') && text.trim() === text && !/\s{3}/.test(text)) return text;
  const units = [...text].map(written);
  const cut = units.length > MAX_SHOWN_CHARS ? [...units.slice(0, HEAD_CHARS), '…', ...units.slice(units.length - (MAX_SHOWN_CHARS - HEAD_CHARS - 1))] : units;
  return `"${cut.join('')}"`;
}

function written(char: string): string {
  switch (char) {
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    case '\u001b':
      return '\\e';
    default:
      return HIDDEN.test(char) ? `\\u{${char.codePointAt(0)!.toString(16)}}` : char;
  }
}
