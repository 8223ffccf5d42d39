// What a script must not exceed to be parsed, read before the parser sees it. The parser
// and the tree walks recurse once per bracket level and run out of stack on a few thousand
// (CPython itself refuses more than 200, "too many nested parentheses"); and the parser's
// error recovery reads a long word again at each attempt (a 60,000-digit number in a broken
// call took seconds).

/** Scripts nesting brackets deeper than this are not analysed. */
export const MAX_NESTING = 200;
/** Nor scripts with a name or number longer than this (no real one comes near). */
export const MAX_WORD = 1000;
/** The parser stops after this long whatever the script (a last resort: the limits above are the rule). */
export const PARSE_DEADLINE_MS = 2000;

export interface Extent {
  size: number;
  /** 1-based line where it is reached. */
  line: number;
}

export interface ScriptExtents {
  /** The deepest bracket nesting outside strings and comments. */
  nesting: Extent;
  /** The longest run of name and number characters outside strings and comments. */
  word: Extent;
}

/** One pass over the text, skipping strings and comments. */
export function scriptExtents(text: string): ScriptExtents {
  let depth = 0;
  let line = 1;
  let wordStart = -1;
  const nesting: Extent = { size: 0, line: 1 };
  const word: Extent = { size: 0, line: 1 };
  const endWord = (at: number) => {
    if (wordStart >= 0 && at - wordStart > word.size) [word.size, word.line] = [at - wordStart, line];
    wordStart = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (isWordChar(text.charCodeAt(i))) {
      if (wordStart < 0) wordStart = i;
      continue;
    }
    endWord(i);
    if (c === '\n') line++;
    else if (c === '#') {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '"' || c === "'") {
      const quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      i += quote.length;
      while (i < text.length && !text.startsWith(quote, i)) {
        if (text[i] === '\\') i++;
        else if (text[i] === '\n') {
          line++;
          if (quote.length === 1) break;
        }
        i++;
      }
      i += quote.length - 1;
    } else if (c === '(' || c === '[' || c === '{') {
      if (++depth > nesting.size) [nesting.size, nesting.line] = [depth, line];
    } else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
  }
  endWord(text.length);
  return { nesting, word };
}

// Letters, digits, '_' and '.': what names, numbers and attribute chains are made of (non-ASCII letters too).
function isWordChar(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2e || code > 0x7f;
}

/** Why the script is not parsed, when it passes a limit. */
export function pastLimits(text: string): { line: number; reason: string } | undefined {
  const { nesting, word } = scriptExtents(text);
  if (nesting.size > MAX_NESTING) {
    return { line: nesting.line, reason: `brackets nest ${nesting.size} deep at line ${nesting.line}, deeper than the ${MAX_NESTING} levels boardbridge reads (CPython's own limit)` };
  }
  if (word.size > MAX_WORD) {
    return { line: word.line, reason: `line ${word.line} has a name or number of ${word.size} characters, longer than the ${MAX_WORD} boardbridge reads` };
  }
  return undefined;
}
