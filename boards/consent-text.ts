// Text an agent chose (a script path, a port, a folder name) inside a consent question:
// shown as it is when it is short and plain, otherwise quoted, with control and
// invisible characters written out (`\n`, `\e`, `\u{202e}`) and the middle cut, so
// that no name can push the rest of the question ("(it replaces what runs there)")
// out of view or rewrite what the person sees.

/** The most characters of one piece of agent text a question shows. */
export const MAX_SHOWN_CHARS = 320;
const HEAD_CHARS = 80;

// The one definition of the characters that must never reach a person as they are, and of how
// they are written out instead; the terminal face (bridge/cli/terminal-text.ts) uses the same.

/** C0 controls, DEL, C1 controls (8-bit CSI/OSC/DCS), and the bidirectional marks, embeddings, overrides and isolates that reorder text. */
export const CONTROL_CHARS = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
/** The controls, and what hides text besides: soft hyphen, zero-width characters, line and paragraph separators, invisible operators, BOM. */
export const HIDDEN_CHARS = `${CONTROL_CHARS}\\u00ad\\u180e\\u200b-\\u200d\\u2028\\u2029\\u2060-\\u2065\\u206a-\\u206f\\ufeff`;
const HIDDEN = new RegExp(`[${HIDDEN_CHARS}]`, 'u');

/** One hidden character, written so a person sees it: `\e`, `\r`, `\n`, `\t`, `\xHH` below U+0080, `\u{HHHH}` above. */
export function escapedChar(char: string): string {
  if (char === '\u001b') return '\\e';
  if (char === '\r') return '\\r';
  if (char === '\n') return '\\n';
  if (char === '\t') return '\\t';
  const code = char.codePointAt(0)!;
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

export function shownText(text: string): string {
  if (text.length <= MAX_SHOWN_CHARS && !HIDDEN.test(text) && !text.includes('"') && text.trim() === text && !/\s{3}/.test(text)) return text;
  const units = [...text].map(written);
  const cut = units.length > MAX_SHOWN_CHARS ? [...units.slice(0, HEAD_CHARS), '…', ...units.slice(units.length - (MAX_SHOWN_CHARS - HEAD_CHARS - 1))] : units;
  return `"${cut.join('')}"`;
}

function written(char: string): string {
  if (char === '"' || char === '\\') return `\\${char}`;
  return HIDDEN.test(char) ? escapedChar(char) : char;
}
