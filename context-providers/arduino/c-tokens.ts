// A C/C++ tokenizer for headers and sketches: comments, string and character literals (with
// prefixes and raw strings), numbers, identifiers and punctuators, line splices, and the line
// of every token so facts and findings can cite file:line.
import { C_TOKENS_WASM } from './c-tokens-wasm.js';
import { instantiateWasm } from '../../platform/wasm-module.js';

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

// Character codes the lexer tests (text.charCodeAt, so no one-character strings are made).
const NEWLINE = 10;
const QUOTE = 34; // "
const APOSTROPHE = 39; // '
const SLASH = 47;
const STAR = 42;
const DOT = 46;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
// An identifier's start (a letter, _, $ or any character above U+007F, as scan tests it) or a digit, as a pattern.
const IDENTIFIER_REST = /[A-Za-z0-9_$\u0080-\uffff]*/y;
// The rest of a pp-number: a signed exponent (e+, E-, p+, P-), a letter, digit, _ or dot, or a digit
// separator (') before a letter or digit.
const PP_NUMBER_REST = /(?:[eEpP][+-]|[A-Za-z0-9_.]|'(?=[A-Za-z0-9]))*/y;
/**
 * Whole lines, each ended by its newline, that a lexer passing over lines can skip without reading
 * their tokens: the first character after the line's spaces (space, tab, CR, FF, VT) is not `#` (no directive),
 * and the line holds no `"` or `'` and no `/*` (no literal or comment that could go on past it, and
 * none that could hide or open one). A `//` comment is plain. Any other line is read as before.
 */
const PLAIN_LINES = /(?:[ \t\r\f\v]*(?:(?:[^\n#"'\/ \t\r\f\v]|\/(?!\*))(?:[^\n"'\/]|\/(?!\*))*)?\n)+/y;
/**
 * The rest of a line, up to its newline (or the text's end), when it holds no `"` or `'` and no `/*`:
 * no literal or comment that could go on past the line. Its tokens (and any `//` comment) end with
 * it, so a reader that does not need them passes over it at once.
 */
const PLAIN_REST = /(?:[^\n"'\/]|\/(?!\*))*(?=\n|$)/y;

/**
 * The length of the punctuator at `index` (whose first character is `c`): the longest one that
 * matches, so `<<=` is not read as `<<` `=`; a character that starts none is one punctuator.
 */
function punctuatorLength(text: string, index: number, c: number): number {
  const c1 = text.charCodeAt(index + 1);
  const c2 = text.charCodeAt(index + 2);
  switch (c) {
    case 37: // %  %:%: %= %> %:
      if (c1 === 58) return text.charCodeAt(index + 2) === 37 && text.charCodeAt(index + 3) === 58 ? 4 : 2;
      return c1 === 61 || c1 === 62 ? 2 : 1;
    case DOT: // ... .*
      if (c1 === DOT && c2 === DOT) return 3;
      return c1 === STAR ? 2 : 1;
    case 60: // <  <<= <=> << <= <: <%
      if (c1 === 60) return c2 === 61 ? 3 : 2;
      if (c1 === 61) return c2 === 62 ? 3 : 2;
      return c1 === 58 || c1 === 37 ? 2 : 1;
    case 62: // >  >>= >> >=
      if (c1 === 62) return c2 === 61 ? 3 : 2;
      return c1 === 61 ? 2 : 1;
    case 45: // -  ->* -- -= ->
      if (c1 === 62) return c2 === STAR ? 3 : 2;
      return c1 === 45 || c1 === 61 ? 2 : 1;
    case 35: // # ##
      return c1 === 35 ? 2 : 1;
    case 38: // & && &=
      return c1 === 38 || c1 === 61 ? 2 : 1;
    case 124: // | || |=
      return c1 === 124 || c1 === 61 ? 2 : 1;
    case 43: // + ++ +=
      return c1 === 43 || c1 === 61 ? 2 : 1;
    case 58: // : :: :>
      return c1 === 58 || c1 === 62 ? 2 : 1;
    case 61: // = ==
    case 33: // ! !=
    case STAR: // * *=
    case SLASH: // / /=
    case 94: // ^ ^=
      return c1 === 61 ? 2 : 1;
    default:
      return 1;
  }
}

/** Splits text into tokens; never throws (an unterminated literal ends at the end of its line). */
export function tokenize(source: string, file?: string): Token[] {
  const lexer = new Lexer(source, file);
  const tokens: Token[] = [];
  for (let token = lexer.next(); token; token = lexer.next()) tokens.push(token);
  return tokens;
}

/** c-tokens.wat's exports. */
interface ScannerExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  loaded(length: number): void;
  scan(index: number, end: number, state: number, mode: number): number;
}

/** The WebAssembly token scanner, its memory's views, and the text its memory holds. */
interface TokenScanner {
  exports: ScannerExports;
  /** The token's start; its kind | bol << 3 | spaceBefore << 4 (c-tokens.wat). */
  registers: Int32Array;
  bytes: Buffer;
  /**
   * Whose text the memory holds: the object a lexer and the stretches made of it share (compared as
   * an object: two equal texts read twice are two strings, whose comparison would read them).
   */
  holds: object | undefined;
}

/** Where the text's code units start in the scanner's memory (after its registers and its table of classes). */
const TEXT_AT = 256;
/**
 * Texts from this length up are scanned by the WebAssembly scanner; a shorter one (a macro's value,
 * an expression) by scan(), so the scanner's memory is not written again for a few characters while
 * a file's lexer uses it.
 */
let scannedFrom = 256;
/** Texts longer than this are scanned by scan(): the scanner's memory, which never shrinks, stays within 2 MB. */
const SCANNED_UP_TO = 1 << 20;
const KINDS: TokenKind[] = ['identifier', 'number', 'string', 'char', 'punct'];
/** c-tokens.wat's kind for a raw string's prefix: the lexer finds the string's end. */
const RAW_PREFIX = 5;
/** scan's modes (c-tokens.wat): the next token, the first of the next line, the `#` of the next directive line. */
const NEXT_TOKEN = 0;
const NEXT_LINE = 1;
const NEXT_DIRECTIVE = 2;

/** The scanner, made on first use; null where WebAssembly is not available. */
let tokenScanner: TokenScanner | null | undefined;

function loadTokenScanner(): TokenScanner | undefined {
  if (tokenScanner === undefined) {
    const exports = instantiateWasm<ScannerExports>(C_TOKENS_WASM);
    tokenScanner = exports ? { exports, registers: new Int32Array(exports.memory.buffer, 0, 2), bytes: Buffer.from(exports.memory.buffer), holds: undefined } : null;
  }
  return tokenScanner ?? undefined;
}

/**
 * For the tests: lexers made from now on scan texts of `length` characters or more with the
 * WebAssembly scanner (Infinity: none); returns the length before.
 */
export function scanWithWebAssemblyFrom(length: number): number {
  const before = scannedFrom;
  scannedFrom = length;
  return before;
}

/** Puts `text` in the scanner's memory (UTF-16, as the string's indices count), as the text of `holder`. */
function load(scanner: TokenScanner, text: string, holder: object): void {
  const needed = TEXT_AT + 2 * (text.length + 4);
  if (scanner.bytes.length < needed) {
    scanner.exports.memory.grow(Math.ceil((needed - scanner.bytes.length) / 65536));
    scanner.bytes = Buffer.from(scanner.exports.memory.buffer);
    scanner.registers = new Int32Array(scanner.exports.memory.buffer, 0, 2);
  }
  scanner.bytes.write(text, TEXT_AT, 'utf16le');
  // Four zero code units after it: what the scanner reads past the text's end matches nothing.
  scanner.bytes.fill(0, TEXT_AT + 2 * text.length, needed);
  scanner.exports.loaded(text.length);
  scanner.holds = holder;
}

/** Where a lexer starts: a whole text, or a stretch of lines of a text another lexer read (`Lexer.between`). */
interface Stretch {
  text: string;
  lineOf: (offset: number) => number;
  start: number;
  end: number;
  scanner: TokenScanner | undefined;
  textId: object;
}

/**
 * The tokens of one text, one at a time, so a reader can pass over the text it does not need
 * (the preprocessor's skipped `#if` groups) without making their tokens: `nextDirective` scans as
 * `next` does (comments and literals are still recognised) but allocates nothing. A text of
 * `scannedFrom` characters (256) or more is scanned by the WebAssembly scanner (c-tokens.wat), which
 * decides what `scan` decides; a shorter one, and any where WebAssembly is not available, by `scan`.
 */
export class Lexer {
  private readonly text: string;
  private readonly lineOf: (offset: number) => number;
  private readonly end: number;
  private index = 0;
  private bol = true;
  private space = false;
  private kind: TokenKind = 'punct';
  private start = 0;
  private tokenBol = false;
  private tokenSpace = false;
  /** Set while nextDirective passes over lines: at each line's start, plain lines are skipped at once. */
  private passing = false;
  private readonly scanner: TokenScanner | undefined;
  /** This text's identity for the scanner's memory (TokenScanner.holds), shared with the stretches made of it. */
  private readonly textId: object;

  constructor(source: string, file?: string);
  constructor(source: Stretch, file?: string);
  constructor(
    source: string | Stretch,
    private readonly file?: string,
  ) {
    if (typeof source === 'string') {
      // Line splices are removed first; `lineOf` maps spliced offsets back to original lines.
      const { text, lineStarts } = removeSplices(source);
      this.text = text;
      this.lineOf = lineStarts;
      this.end = text.length;
      this.scanner = text.length >= scannedFrom && text.length <= SCANNED_UP_TO ? loadTokenScanner() : undefined;
      this.textId = {};
    } else {
      // A stretch starts at the first token of a line: a newline came before it unless it is the text's start.
      this.text = source.text;
      this.lineOf = source.lineOf;
      this.index = source.start;
      this.end = source.end;
      this.space = source.start > 0;
      this.scanner = source.scanner;
      this.textId = source.textId;
    }
  }

  /** The next token, or undefined at the end of the text. */
  next(): Token | undefined {
    // made()'s token, written out: a call less per token where a first context runs (interpreted).
    if (!(this.scanner ? this.scanned(NEXT_TOKEN) : this.scan())) return undefined;
    return { kind: this.kind, text: this.text.slice(this.start, this.index), line: this.lineOf(this.start), bol: this.tokenBol, spaceBefore: this.tokenSpace, file: this.file };
  }

  /** Where the token last returned starts, in the text without its line splices. */
  get offset(): number {
    return this.start;
  }

  /** The length of the text without its line splices. */
  get length(): number {
    return this.end;
  }

  /**
   * The text from `start` to `end` and a way to make its tokens later: the tokens `next` gives
   * there, with their lines. `start` is the offset of a line's first token and `end` the start of a
   * later line's first token (or the text's end), as `offset` gave them, so no comment or literal
   * crosses either.
   */
  between(start: number, end: number): { text: string; tokens: () => Token[] } {
    const stretch: Stretch = { text: this.text, lineOf: this.lineOf, start, end, scanner: this.scanner, textId: this.textId };
    return {
      text: this.text.slice(start, end),
      tokens: () => {
        const lexer = new Lexer(stretch, this.file);
        const tokens: Token[] = [];
        for (let token = lexer.next(); token; token = lexer.next()) tokens.push(token);
        return tokens;
      },
    };
  }

  /**
   * Passes over the rest of the current logical line and the lines after it up to the next
   * directive line (one whose first token is `#`), and returns that `#` (undefined at the end):
   * for a reader that wants only directives there (a skipped group, lines read untokenized). Plain
   * lines (PLAIN_LINES: they cannot be a directive, nor start a comment or literal that goes on
   * past them) are passed over natively.
   */
  nextDirective(): Token | undefined {
    if (this.scanner) return this.scanned(NEXT_DIRECTIVE) ? this.made() : undefined;
    this.passing = true;
    try {
      while (this.toNextLine()) if (this.kind === 'punct' && this.index - this.start === 1 && this.text.charCodeAt(this.start) === 35) return this.made();
      return undefined;
    } finally {
      this.passing = false;
    }
  }

  /**
   * Passes over the rest of the current logical line without making its tokens and returns the
   * first token of the next line (undefined at the end): for a directive whose arguments nothing
   * reads (#endif, #else, or any directive in a group that is skipped). Unlike nextDirective, the
   * lines after it are read as they come.
   */
  restOfLine(): Token | undefined {
    if (this.scanner) return this.scanned(NEXT_LINE) ? this.made() : undefined;
    return this.toNextLine() ? this.made() : undefined;
  }

  /**
   * scan() past the rest of the current logical line to the first token of the next one; false at
   * the end. A plain rest of the line (PLAIN_REST) is passed over natively; scan then reads its newline.
   */
  private toNextLine(): boolean {
    PLAIN_REST.lastIndex = this.index;
    if (PLAIN_REST.test(this.text)) this.index = Math.min(PLAIN_REST.lastIndex, this.end);
    while (this.scan()) if (this.tokenBol) return true;
    return false;
  }

  /**
   * What scan() does, by the WebAssembly scanner: moves past the next token (mode NEXT_TOKEN), the
   * next token that starts a line (NEXT_LINE) or the `#` of the next directive line (NEXT_DIRECTIVE),
   * its kind, start and flags kept in fields; false at the end.
   */
  private scanned(mode: number): boolean {
    const scanner = this.scanner!;
    if (scanner.holds !== this.textId) load(scanner, this.text, this.textId);
    let end = scanner.exports.scan(this.index, this.end, (this.bol ? 1 : 0) | (this.space ? 2 : 0), mode);
    for (;;) {
      if (end < 0) {
        this.index = this.end;
        return false;
      }
      const info = scanner.registers[1];
      this.start = scanner.registers[0];
      this.tokenBol = (info & 8) !== 0;
      this.tokenSpace = (info & 16) !== 0;
      this.bol = false;
      this.space = false;
      let kind = info & 7;
      if (kind === RAW_PREFIX) {
        // The scanner stopped at the raw string's quote; its end is found here, as scan() finds it.
        end = rawStringEnd(this.text, end);
        kind = 2;
        if (mode === NEXT_DIRECTIVE || (mode === NEXT_LINE && !this.tokenBol)) {
          end = scanner.exports.scan(end, this.end, 0, mode);
          continue;
        }
      }
      this.index = end;
      this.kind = KINDS[kind];
      return true;
    }
  }

  private made(): Token {
    // One object shape for every token keeps property access fast in the interpreter.
    return { kind: this.kind, text: this.text.slice(this.start, this.index), line: this.lineOf(this.start), bol: this.tokenBol, spaceBefore: this.tokenSpace, file: this.file };
  }

  /** Moves past the next token (its kind, start and flags kept in fields); false at the end. */
  private scan(): boolean {
    const text = this.text;
    const length = this.end;
    let index = this.index;
    while (index < length) {
      const c = text.charCodeAt(index);
      if (c === NEWLINE) {
        this.bol = true;
        this.space = true;
        index++;
        if (this.passing) {
          PLAIN_LINES.lastIndex = index;
          if (PLAIN_LINES.test(text)) index = Math.min(PLAIN_LINES.lastIndex, length);
        }
        continue;
      }
      // The character tests are written out here, not called: the context command runs without
      // TurboFan (main.ts), and a call per character is most of a lexer's time in the interpreter.
      if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11) {
        this.space = true;
        index++;
        continue;
      }
      if (c === SLASH) {
        const c1 = text.charCodeAt(index + 1);
        if (c1 === SLASH) {
          this.space = true;
          const end = text.indexOf('\n', index + 2);
          index = end < 0 ? length : end;
          continue;
        }
        if (c1 === STAR) {
          this.space = true;
          const end = text.indexOf('*/', index + 2);
          index = end < 0 ? length : end + 2;
          continue;
        }
      }
      const start = index;
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c > 0x7f) {
        // The rest of the identifier, matched natively (most of a header's characters are in identifiers).
        IDENTIFIER_REST.lastIndex = index + 1;
        IDENTIFIER_REST.test(text);
        index = IDENTIFIER_REST.lastIndex;
        const after = text.charCodeAt(index);
        if (after === QUOTE && index - start <= 3 && /^(u8|u|U|L)?R$/.test(text.slice(start, index))) {
          index = rawStringEnd(text, index);
          this.kind = 'string';
        } else if ((after === QUOTE || after === APOSTROPHE) && index - start <= 2 && /^(u8|u|U|L)$/.test(text.slice(start, index))) {
          index = quotedEnd(text, index, after);
          this.kind = after === QUOTE ? 'string' : 'char';
        } else {
          this.kind = 'identifier';
        }
      } else if ((c >= 48 && c <= 57) || (c === DOT && isDigit(text.charCodeAt(index + 1)))) {
        // pp-number: digits, letters, dots, digit separators and signed exponents, matched natively.
        PP_NUMBER_REST.lastIndex = index + 1;
        PP_NUMBER_REST.test(text);
        index = Math.min(PP_NUMBER_REST.lastIndex, length);
        this.kind = 'number';
      } else if (c === QUOTE || c === APOSTROPHE) {
        index = quotedEnd(text, index, c);
        this.kind = c === QUOTE ? 'string' : 'char';
      } else {
        index += punctuatorLength(text, index, c);
        this.kind = 'punct';
      }
      this.start = start;
      this.index = index;
      this.tokenBol = this.bol;
      this.tokenSpace = this.space;
      this.bol = false;
      this.space = false;
      return true;
    }
    this.index = index;
    return false;
  }
}

function quotedEnd(text: string, open: number, quote: number): number {
  let index = open + 1;
  while (index < text.length) {
    const c = text.charCodeAt(index);
    if (c === 92) index += 2; // a backslash escapes the next character
    else if (c === quote) return index + 1;
    else if (c === NEWLINE) return index;
    else index++;
  }
  return text.length;
}

function rawStringEnd(text: string, quote: number): number {
  const paren = text.indexOf('(', quote);
  if (paren < 0) return quotedEnd(text, quote, QUOTE);
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
  // Tokens are asked for in increasing offsets, so two cursors replace a search per token; a stretch
  // read again later (Lexer.between) starts them again from the top.
  let line = 1;
  let scanned = 0;
  let breakIndex = 0;
  // The first newline at or after `scanned` (-1: none): the tokens of one line are numbered without a search each.
  let newline = text.indexOf('\n');
  return {
    text,
    lineStarts: (offset) => {
      if (offset < scanned) {
        line = 1;
        scanned = 0;
        breakIndex = 0;
        newline = text.indexOf('\n');
      }
      if (scanned < offset) {
        for (; newline >= 0 && newline < offset; newline = text.indexOf('\n', newline + 1)) line++;
        scanned = offset;
      }
      while (breakIndex < breaks.length && breaks[breakIndex] <= offset) {
        breakIndex++;
        line++;
      }
      return line;
    },
  };
}
