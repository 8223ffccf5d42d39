// Text from an agent, made safe for the person's terminal. The terminal is the
// person's: nothing an agent sends may clear it, move its cursor, set its title,
// write the clipboard (OSC 52), hide text (SGR 8) or plant links (OSC 8). Every control
// character is shown as a visible escape instead of reaching the terminal: ESC as `\e`
// (so `ESC[2J` prints as the text `\e[2J` and no sequence can start), CR as `\r` (it
// cannot return to the line's start and overwrite what the person should read), other
// C0 controls and DEL as `\xHH`, C1 controls (U+0080–U+009F, 8-bit CSI/OSC/DCS) and the
// bidirectional overrides that reorder what is shown as `\u{HHHH}`. Newline and tab stay
// in text; a one-line field (a title, a command) shows its newlines as `\n` too. Each
// character is judged alone, so a sequence split across streamed chunks is as harmless.

import { CONTROL_CHARS, escapedChar as visible } from '../../boards/consent-text.js';

// The controls (one definition, with consent questions'), except tab, and newline where text keeps it.
const UNSAFE = new RegExp(`\\r\\n|(?![\\t\\n])[${CONTROL_CHARS}]`, 'gu');
const UNSAFE_OR_NEWLINE = new RegExp(`\\r\\n|(?!\\t)[${CONTROL_CHARS}]`, 'gu');

/** Agent text shown as text: newlines and tabs kept (a CRLF is a newline), every other control visible. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, (c) => (c === '\r\n' ? '\n' : visible(c)));
}

/** Agent text shown on one line (a title, a command, a name): newlines visible as `\n` too. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_OR_NEWLINE, (c) => (c === '\r\n' ? '\\r\\n' : visible(c)));
}

export interface QuoteBounds {
  lines: number;
  chars: number;
}

/**
 * Agent text shown as a quotation the person can tell apart from the face's own words:
 * each line behind `│ `, at most `lines` lines of at most `chars` characters, and a
 * last line saying how much was left out, so no amount of text pushes the question off screen.
 */
export function quotedLines(text: string, bounds: QuoteBounds): string[] {
  const all = terminalText(text).split('\n');
  const shown = all.slice(0, bounds.lines).map((line) => {
    const chars = [...line];
    return `│ ${chars.length > bounds.chars ? `${chars.slice(0, bounds.chars).join('')}… (${chars.length - bounds.chars} more characters)` : line}`;
  });
  if (all.length > bounds.lines) shown.push(`│ … (${all.length - bounds.lines} more lines not shown)`);
  return shown;
}

/** A copy of `value` (an event, a request) with every string in it passed through terminalText. */
export function terminalSafe<T>(value: T): T {
  if (typeof value === 'string') return terminalText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => terminalSafe(v)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, terminalSafe(v)])) as T;
  return value;
}
