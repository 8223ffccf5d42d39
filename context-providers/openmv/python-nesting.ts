// How deep a script's brackets nest, read before the parser sees it: the parser and the
// tree walks recurse once per level and run out of stack on a few thousand levels.
// CPython itself refuses more than 200 ("too many nested parentheses").

/** Scripts nesting brackets deeper than this are not analysed. */
export const MAX_NESTING = 200;

export interface Nesting {
  depth: number;
  /** 1-based line where the deepest bracket opens. */
  line: number;
}

/** The deepest bracket nesting outside strings and comments; linear in the text. */
export function deepestNesting(text: string): Nesting {
  let depth = 0;
  let line = 1;
  const deepest: Nesting = { depth: 0, line: 1 };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
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
      if (++depth > deepest.depth) [deepest.depth, deepest.line] = [depth, line];
    } else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
  }
  return deepest;
}
