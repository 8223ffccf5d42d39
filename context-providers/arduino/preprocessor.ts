// The part of the C preprocessor that pin headers need: #define (object- and function-like,
// # and ##), #undef, #if/#ifdef/#ifndef/#elif/#else/#endif with `defined`, and quoted #include
// of files a resolver allows. Macro expansion uses hide sets so recursive macros terminate.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { childPath } from '../../platform/arduino/folders.js';
import type { Finding, SourceRef } from '../types.js';
import { compileExpression, evaluate, type Evaluation } from './c-expression.js';
import { Lexer, tokenize, type Token } from './c-tokens.js';
import { readRegularFileSync } from '../../platform/regular-file.js';

export interface Macro {
  name: string;
  /** Parameter names for a function-like macro; undefined for an object-like one. */
  params?: string[];
  variadic?: boolean;
  body: Token[];
  source?: SourceRef;
}

export interface PreprocessOptions {
  /** `-D` definitions: name → replacement text (gcc's `-DNAME` is `NAME: '1'`). */
  defines: Record<string, string>;
  /** Macros already defined before the first file (e.g. the variant header's, for a sketch). */
  macros?: ReadonlyMap<string, Macro>;
  /** Folders searched for `#include "x"` after the including file's own folder. */
  includeDirs: string[];
  /** Which resolved includes to follow; the others are skipped (system headers, the core's C++ API). */
  follow(path: string): boolean;
  /** Also resolve `#include <x>` in `includeDirs` (as gcc's -I does); default: only quoted includes. */
  followSystem?: boolean;
  /**
   * The files whose active lines (those that are not directives) are made into `tokens`; default
   * every file. The others' are passed over as a skipped group's are, and kept as `untokenized`
   * text, for a reader that needs the tokens of a few of them (the lines that declare a serial
   * port) or none (the core's API around a variant header).
   */
  tokensOf?(file: string): boolean;
  /**
   * Asked at each point of a main file where no #if is open, after a directive, or after a run of
   * lines read untokenized (tokensOf): true ends the reading there, as if the files ended (what
   * comes later cannot change what was read). For a reader that needs one table near the top of a
   * long file.
   */
  until?(result: PreprocessResult): boolean;
}

/** A run of active lines of one file, none a directive, whose tokens were not made: its text and how to make them. */
export interface UntokenizedLines {
  file: string;
  text: string;
  /** The tokens the run's lines have, as `tokens` would have held them. */
  tokens(): Token[];
}

/** An `#include` on an active line: what the compiler would include for this board. */
export interface ActiveInclude {
  header: string;
  system: boolean;
  file: string;
  line: number;
}

export interface PreprocessResult {
  macros: Map<string, Macro>;
  /** Tokens of active lines that are not directives, with their file (of the files `tokensOf` names). */
  tokens: Token[];
  /** The active lines that are not directives of the other files, in order, as runs of lines. */
  untokenized: UntokenizedLines[];
  files: string[];
  /** Every #include on an active line, followed or not. */
  includes: ActiveInclude[];
  /** Files that said `#pragma once`: never read twice. */
  onceFiles: Set<string>;
  warnings: Finding[];
}

const MAX_INCLUDE_DEPTH = 20;

/** Runs the files in order with one macro table, like `-include a.h b.h`. */
export function preprocess(mainFiles: string[], options: PreprocessOptions): PreprocessResult {
  const macros = new Map<string, Macro>(options.macros ?? []);
  for (const [name, value] of Object.entries(options.defines)) {
    macros.set(name, { name, body: tokenize(value) });
  }
  const result: PreprocessResult = { macros, tokens: [], untokenized: [], files: [], includes: [], onceFiles: new Set(), warnings: [] };
  for (const file of mainFiles) {
    // Include guards make a second pass over an already-read header a no-op, as in C; one that said
    // `#pragma once` when an earlier file included it is not read again, as gcc reads an -include'd one.
    if (result.onceFiles.has(file)) continue;
    if (processFile(file, options, result, 0)) break;
  }
  return result;
}

// What the reader could not follow (a condition or #define it does not understand, nesting past
// its limit) is its own doubt, not a risk in the code: INFO. A file it cannot read, or #if/#endif
// that do not pair up, is a WARNING.
const DOUBTS = new Set(['preprocessor-bad-condition', 'preprocessor-bad-define', 'preprocessor-include-depth']);

function warn(result: PreprocessResult, file: string, line: number | undefined, code: string, message: string): void {
  result.warnings.push({ severity: DOUBTS.has(code) ? 'info' : 'warning', code, message: `${file}${line ? `:${line}` : ''}: ${message}`, file, line });
}

/** Reads `file` into `result`; true when `options.until` ended the reading in it. */
function processFile(file: string, options: PreprocessOptions, result: PreprocessResult, depth: number): boolean {
  let text: string;
  try {
    text = readRegularFileSync(file, 'utf8');
  } catch (error) {
    warn(result, file, undefined, 'header-unreadable', `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    return false;
  }
  result.files.push(file);
  // Tokens are made only for active lines and directive lines: a skipped group's other lines
  // are passed over by the lexer (comments and literals still recognised, as the compiler does).
  const lexer = new Lexer(text, file);
  const tokenized = options.tokensOf?.(file) ?? true;
  // Each entry: is this branch active, has any branch of the group been taken, was the parent active.
  const conditions: Array<{ active: boolean; taken: boolean; parentActive: boolean; line: number }> = [];
  const active = (): boolean => conditions.length === 0 || conditions[conditions.length - 1].active;
  const stopsHere = (): boolean => depth === 0 && conditions.length === 0 && options.until !== undefined && options.until(result);

  // Whether the lines read now are active: active() as of the last directive, kept here so a token is not a call more.
  let on = true;
  let token = lexer.next();
  while (token) {
    if (!(token.bol && token.text === '#' && token.kind === 'punct')) {
      if (!on) {
        token = lexer.nextDirective();
      } else if (tokenized) {
        result.tokens.push(token);
        token = lexer.next();
      } else {
        // A line's first token: the line, and the next ones up to a directive, are one run.
        const start = lexer.offset;
        token = lexer.nextDirective();
        result.untokenized.push({ file, ...lexer.between(start, token ? lexer.offset : lexer.length) });
        if (stopsHere()) return true;
      }
      continue;
    }
    const line = token.line;
    const name = lexer.next();
    // A lone `#` is the null directive.
    const directive = name && !name.bol ? name.text : '';
    // A directive's arguments are read only where they are used, as gcc reads them: a skipped
    // group's directives are only counted (#if nesting), #else and #endif take none, and an #elif
    // is evaluated only while its group has taken no branch. `top` is the innermost open group.
    const top = conditions[conditions.length - 1];
    const used =
      directive === 'else' || directive === 'endif' ? false : directive === 'elif' ? top !== undefined && top.parentActive && !top.taken : active();
    const args: Token[] = [];
    if (directive === '') token = name;
    else if (!used) token = lexer.restOfLine();
    else for (token = lexer.next(); token && !token.bol; token = lexer.next()) args.push(token);

    switch (directive) {
      case 'if':
      case 'ifdef':
      case 'ifndef': {
        const parentActive = active();
        const value = parentActive && condition(directive, args, result.macros, file, line, result, options);
        conditions.push({ active: parentActive && value, taken: value, parentActive, line });
        break;
      }
      case 'elif': {
        if (!top) { warn(result, file, line, 'preprocessor-unbalanced', '#elif without #if'); break; }
        const value = top.parentActive && !top.taken && condition('if', args, result.macros, file, line, result, options);
        top.active = value;
        top.taken ||= value;
        break;
      }
      case 'else': {
        if (!top) { warn(result, file, line, 'preprocessor-unbalanced', '#else without #if'); break; }
        top.active = top.parentActive && !top.taken;
        top.taken = true;
        break;
      }
      case 'endif':
        if (!conditions.pop()) warn(result, file, line, 'preprocessor-unbalanced', '#endif without #if');
        break;
      default:
        if (on) runDirective(directive, args, file, line, options, result, depth);
    }
    on = active();
    if (stopsHere()) return true;
  }
  for (const open of conditions) warn(result, file, open.line, 'preprocessor-unbalanced', '#if without #endif');
  return false;
}

function runDirective(directive: string, args: Token[], file: string, line: number, options: PreprocessOptions, result: PreprocessResult, depth: number): void {
  if (directive === 'define') {
    const macro = parseDefine(args, file, line);
    if (macro) result.macros.set(macro.name, macro);
    else warn(result, file, line, 'preprocessor-bad-define', 'malformed #define ignored');
  } else if (directive === 'pragma') {
    if (args[0]?.text === 'once') result.onceFiles.add(file);
  } else if (directive === 'undef') {
    if (args[0]) result.macros.delete(args[0].text);
  } else if (directive === 'include') {
    const target = includeTarget(args, result.macros);
    if (!target) return;
    result.includes.push({ header: target.name, system: target.system, file, line });
    if (target.system && !options.followSystem) return;
    const path = findInclude(target.name, target.system, file, options);
    if (!path || !options.follow(path) || result.onceFiles.has(path)) return;
    if (depth >= MAX_INCLUDE_DEPTH) {
      warn(result, file, line, 'preprocessor-include-depth', `#include nested deeper than ${MAX_INCLUDE_DEPTH}, stopped`);
      return;
    }
    processFile(path, options, result, depth + 1);
  }
  // #error, #warning, #line: nothing a pin map needs.
}

// gcc: "x" looks beside the including file first, then the -I folders; <x> only the -I folders.
function findInclude(name: string, system: boolean, from: string, options: PreprocessOptions): string | undefined {
  if (!system) {
    const beside = childPath(dirname(from), name);
    if (existsSync(beside)) return beside;
  }
  for (const dir of options.includeDirs) {
    const candidate = childPath(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function includeTarget(args: Token[], macros: Map<string, Macro>): { name: string; system: boolean } | undefined {
  const expanded = args[0]?.kind === 'identifier' ? expandMacros(args, macros) : args;
  const first = expanded[0];
  if (!first) return undefined;
  if (first.kind === 'string') return { name: first.text.slice(1, -1), system: false };
  if (first.text === '<') return { name: expanded.slice(1, expanded.findIndex((t) => t.text === '>')).map((t) => t.text).join(''), system: true };
  return undefined;
}

function parseDefine(args: Token[], file: string, line: number): Macro | undefined {
  const name = args[0];
  if (!name || name.kind !== 'identifier') return undefined;
  const source = { file, line };
  const opensParams = args[1]?.text === '(' && !args[1].spaceBefore;
  if (!opensParams) return { name: name.text, body: args.slice(1), source };
  const params: string[] = [];
  let variadic = false;
  let index = 2;
  while (index < args.length && args[index].text !== ')') {
    const token = args[index];
    if (token.text === '...') variadic = true;
    else if (token.kind === 'identifier') params.push(token.text);
    else if (token.text !== ',') return undefined;
    index++;
  }
  if (index >= args.length) return undefined;
  return { name: name.text, params, variadic, body: args.slice(index + 1), source };
}

function condition(kind: string, args: Token[], macros: Map<string, Macro>, file: string, line: number, result: PreprocessResult, options: PreprocessOptions): boolean {
  if (kind === 'ifdef') return macros.has(args[0]?.text ?? '');
  if (kind === 'ifndef') return !macros.has(args[0]?.text ?? '');
  // `defined X` / `defined(X)` are replaced before expansion (C11 6.10.1p4).
  const replaced: Token[] = [];
  for (let index = 0; index < args.length; index++) {
    const token = args[index];
    if (token.text !== 'defined') {
      replaced.push(token);
      continue;
    }
    const parenthesised = args[index + 1]?.text === '(';
    const name = args[index + (parenthesised ? 2 : 1)];
    replaced.push({ ...token, kind: 'number', text: name && macros.has(name.text) ? '1' : '0' });
    index += parenthesised ? 3 : 1;
  }
  // `__has_include(<x>)` / `__has_include("x")`: true when the header is found where the
  // compiler would look (C++17 [cpp.cond]); a header outside the folders given counts as absent.
  for (let index = 0; index < replaced.length; index++) {
    if (replaced[index].text !== '__has_include' || replaced[index + 1]?.text !== '(') continue;
    let end = index + 2;
    while (end < replaced.length && replaced[end].text !== ')') end++;
    const target = includeTarget(replaced.slice(index + 2, end), macros);
    const found = target ? findInclude(target.name, target.system, file, options) !== undefined : false;
    replaced.splice(index, end - index + 1, { ...replaced[index], kind: 'number', text: found ? '1' : '0' });
  }
  const evaluation = evaluate(expandMacros(replaced, macros), { identifier: () => undefined, unknownIsZero: true });
  if (!evaluation.ok) {
    warn(result, file, line, 'preprocessor-bad-condition', `#${kind} condition not understood (${evaluation.reason}); treated as false`);
    return false;
  }
  return evaluation.value !== 0n;
}

// Stands for the argument while a macro is expanded once for all values; no header uses it.
const ARGUMENT = '__boardbridge_argument__';

/**
 * A one-argument function-like macro (`digitalPinToInterrupt(p)`, `IS_PIN_PWM(x)`) expanded and
 * parsed once, as a function of its argument's value; undefined when `name` is no such macro.
 * `rewrite` changes the expansion before it is parsed; other names take their values from `scope`.
 */
export function macroOfArgument(
  macros: ReadonlyMap<string, Macro>,
  name: string,
  rewrite: (tokens: Token[]) => Token[] = (tokens) => tokens,
): ((argument: bigint, scope: (name: string) => bigint | undefined) => Evaluation) | undefined {
  if (!macros.get(name)?.params) return undefined;
  const expression = compileExpression(rewrite(expandMacros(tokenize(`${name}(${ARGUMENT})`), macros)));
  return (argument, scope) => expression({ identifier: (id) => (id === ARGUMENT ? argument : scope(id)), unknownIsZero: false });
}

/** Fully macro-expands a token list. */
export function expandMacros(input: Token[], macros: ReadonlyMap<string, Macro>): Token[] {
  const output: Token[] = [];
  // The tokens still to scan, last one first, so taking the next token and pushing a macro's
  // replacement back in front are both cheap.
  const pending = input.slice().reverse();
  let guard = 0;
  while (pending.length > 0) {
    if (++guard > 200_000) break;
    const token = pending.pop()!;
    const macro = token.kind === 'identifier' ? macros.get(token.text) : undefined;
    if (!macro || token.hide?.has(macro.name)) {
      output.push(token);
      continue;
    }
    const hide = new Set(token.hide ?? []);
    hide.add(macro.name);
    let replacement: Token[];
    if (!macro.params) {
      replacement = macro.body;
    } else {
      const call = pending[pending.length - 1]?.text === '(' ? collectArguments(pending) : undefined;
      if (!call) {
        output.push(token);
        continue;
      }
      pending.length -= call.consumed;
      replacement = substitute(macro, call.args, macros);
    }
    for (let index = replacement.length - 1; index >= 0; index--) {
      const body = replacement[index];
      const bodyHide = body.hide && body.hide.size > 0 ? new Set([...body.hide, ...hide]) : hide;
      pending.push({ ...body, line: token.line, file: token.file, bol: false, hide: bodyHide });
    }
  }
  return output;
}

/** Reads `( a, b )` from the end of a reversed token stack; `consumed` counts the tokens taken. */
function collectArguments(reversed: Token[]): { args: Token[][]; consumed: number } | undefined {
  const args: Token[][] = [[]];
  let depth = 0;
  for (let index = reversed.length - 2; index >= 0; index--) {
    const token = reversed[index];
    if (token.text === '(') depth++;
    if (token.text === ')') {
      if (depth === 0) return { args: args.length === 1 && args[0].length === 0 ? [] : args, consumed: reversed.length - index };
      depth--;
    }
    if (token.text === ',' && depth === 0) args.push([]);
    else args[args.length - 1].push(token);
  }
  return undefined;
}

function substitute(macro: Macro, args: Token[][], macros: ReadonlyMap<string, Macro>): Token[] {
  const params = macro.params ?? [];
  const argumentFor = (name: string): Token[] | undefined => {
    if (macro.variadic && name === '__VA_ARGS__') {
      return args.slice(params.length).flatMap((arg, index) => (index === 0 ? arg : [{ kind: 'punct', text: ',', line: 0, bol: false } as Token, ...arg]));
    }
    const position = params.indexOf(name);
    return position < 0 ? undefined : (args[position] ?? []);
  };
  const result: Token[] = [];
  const body = macro.body;
  for (let index = 0; index < body.length; index++) {
    const token = body[index];
    if (token.text === '#' && body[index + 1] && argumentFor(body[index + 1].text)) {
      const text = argumentFor(body[index + 1].text)!.map((t) => t.text).join(' ');
      result.push({ ...token, kind: 'string', text: JSON.stringify(text) });
      index++;
      continue;
    }
    const nextIsPaste = body[index + 1]?.text === '##';
    const previousIsPaste = body[index - 1]?.text === '##';
    if (token.text === '##') {
      const left = result.pop();
      const right = body[index + 1];
      const rightTokens = right ? (argumentFor(right.text) ?? [right]) : [];
      const joined = `${left?.text ?? ''}${rightTokens[0]?.text ?? ''}`;
      result.push(...tokenize(joined).map((t) => ({ ...t, line: token.line })), ...rightTokens.slice(1));
      index++;
      continue;
    }
    const arg = token.kind === 'identifier' ? argumentFor(token.text) : undefined;
    if (arg) result.push(...(nextIsPaste || previousIsPaste ? arg : expandMacros(arg, macros)));
    else result.push(token);
  }
  return result;
}
