// A C/C++ tokenizer for headers and sketches: comments, string and character literals (with
// prefixes and raw strings), numbers, identifiers and punctuators, line splices, and the line
// of every token so facts and findings can cite file:line.

export type TokenKind = 'identifier' | 'number' | 'string' | 'char' | 'punct';

export interface Token {
  kind: TokenKind;
  text: string;
  /** 1-based line of the token's first character in the original text. */
  line: number;
  /** True for the first token of a logical line (after splices): directives start there. */
  bol: boolean;
  /** Whitespace or a comment came right before it (`#define F(x)` vs `#define F (x)`). */
  spaceBefore?: boolean;
  file?: string;
  /** Macros that may not expand again inside this token's expansion (preprocessor hide set). */
  hide?: ReadonlySet<string>;
}

// Longest first, so `<<=` is not read as `<<` `=`.
const PUNCTUATORS = [
  '%:%:', '...', '<<=', '>>=', '->*', '<=>',
  '##', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '++', '--', '+=', '-=', '*=', '/=', '%=',
  '&=', '|=', '^=', '->', '::', '.*', '<:', ':>', '<%', '%>', '%:',
];

const isIdentStart = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$' || c > '\x7f';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isIdentPart = (c: string): boolean => isIdentStart(c) || isDigit(c);

/** Splits text into tokens; never throws (an unterminated literal ends at the end of its line). */
export function tokenize(source: string, file?: string): Token[] {
  // Line splices are removed first; `lineOf` maps spliced offsets back to original lines.
  const { text, lineStarts } = removeSplices(source);
  const tokens: Token[] = [];
  let index = 0;
  let bol = true;
  let space = false;
  const lineOf = (offset: number): number => lineStarts(offset);
  const push = (kind: TokenKind, start: number, end: number): void => {
    // One object shape for every token keeps property access fast in the interpreter.
    tokens.push({ kind, text: text.slice(start, end), line: lineOf(start), bol, spaceBefore: space, file });
    bol = false;
    space = false;
  };

  while (index < text.length) {
    const c = text[index];
    if (c === '\n') {
      bol = true;
      space = true;
      index++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      space = true;
      index++;
    } else if (c === '/' && text[index + 1] === '/') {
      space = true;
      while (index < text.length && text[index] !== '\n') index++;
    } else if (c === '/' && text[index + 1] === '*') {
      space = true;
      const end = text.indexOf('*/', index + 2);
      index = end < 0 ? text.length : end + 2;
    } else if (isIdentStart(c)) {
      const start = index;
      while (index < text.length && isIdentPart(text[index])) index++;
      const word = text.slice(start, index);
      if (text[index] === '"' && /^(u8|u|U|L)?R$/.test(word)) {
        index = rawStringEnd(text, index);
        push('string', start, index);
      } else if ((text[index] === '"' || text[index] === "'") && /^(u8|u|U|L)$/.test(word)) {
        const quote = text[index];
        index = quotedEnd(text, index, quote);
        push(quote === '"' ? 'string' : 'char', start, index);
      } else {
        push('identifier', start, index);
      }
    } else if (isDigit(c) || (c === '.' && isDigit(text[index + 1]))) {
      const start = index;
      index++;
      // pp-number: digits, letters, dots, digit separators and signed exponents.
      while (index < text.length) {
        const d = text[index];
        if (/[eEpP]/.test(d) && /[+-]/.test(text[index + 1] ?? '')) index += 2;
        else if (/[A-Za-z0-9_.]/.test(d) || (d === "'" && /[0-9A-Za-z]/.test(text[index + 1] ?? ''))) index++;
        else break;
      }
      push('number', start, index);
    } else if (c === '"' || c === "'") {
      const start = index;
      index = quotedEnd(text, index, c);
      push(c === '"' ? 'string' : 'char', start, index);
    } else {
      const start = index;
      const punct = PUNCTUATORS.find((p) => text.startsWith(p, index)) ?? c;
      index += punct.length;
      push('punct', start, index);
    }
  }
  return tokens;
}

function quotedEnd(text: string, open: number, quote: string): number {
  let index = open + 1;
  while (index < text.length) {
    const c = text[index];
    if (c === '\\') index += 2;
    else if (c === quote) return index + 1;
    else if (c === '\n') return index;
    else index++;
  }
  return text.length;
}

function rawStringEnd(text: string, quote: number): number {
  const paren = text.indexOf('(', quote);
  if (paren < 0) return quotedEnd(text, quote, '"');
  const delimiter = text.slice(quote + 1, paren);
  const end = text.indexOf(`)${delimiter}"`, paren);
  return end < 0 ? text.length : end + delimiter.length + 2;
}

function removeSplices(source: string): { text: string; lineStarts: (offset: number) => number } {
  // Offsets (in the spliced text) where an original line ended in a splice.
  const breaks: number[] = [];
  let text = source;
  if (source.includes('\\\n') || source.includes('\\\r\n')) {
    text = '';
    let last = 0;
    const splice = /\\\r?\n/g;
    for (let match = splice.exec(source); match; match = splice.exec(source)) {
      text += source.slice(last, match.index);
      breaks.push(text.length);
      last = match.index + match[0].length;
    }
    text += source.slice(last);
  }
  // Tokens are asked for in increasing offsets, so two cursors replace a search per token.
  let line = 1;
  let scanned = 0;
  let breakIndex = 0;
  return {
    text,
    lineStarts: (offset) => {
      for (; scanned < offset; scanned++) if (text.charCodeAt(scanned) === 10) line++;
      while (breakIndex < breaks.length && breaks[breakIndex] <= offset) {
        breakIndex++;
        line++;
      }
      return line;
    },
  };
}
