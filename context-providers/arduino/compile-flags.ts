// What the board's C++ compile recipe tells the compiler: -D definitions, include folders (-I,
// -isystem, -iprefix/-iwithprefixbefore) and the response files (@defines.txt, @includes.txt) the
// mbed, Renesas and arduino-pico recipes keep them in, plus the macros the compiler itself
// predefines for the target (boards/data/gcc-target-macros.json).
import { dataJson } from '../../platform/data-files.js';
import type { Finding } from '../types.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import { readRegularFileSync } from '../../platform/regular-file.js';

export interface CompileFlags {
  defines: Record<string, string>;
  /** -I/-isystem folders in the order the compiler searches them. */
  includeDirs: string[];
  /** Response files that were read. */
  files: string[];
  warnings: Finding[];
}

const MAX_RESPONSE_DEPTH = 4;

// Whitespace as /\s/ has it; the common ASCII cases are tested without a regular expression.
const isSpace = (line: string, at: number): boolean => {
  const code = line.charCodeAt(at);
  return code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(line[at]));
};

/**
 * Splits a recipe command line into arguments, honouring "double" and 'single' quotes. Runs of
 * plain characters are taken as slices: a recipe is thousands of characters (stm32's), split
 * cold on every first context.
 */
export function splitCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let started = false;
  let at = 0;
  while (at < line.length) {
    const code = line.charCodeAt(at);
    if (code === 34 || code === 39) {
      // A quote runs to the same quote character, or to the end of the line when it is not closed.
      const close = line.indexOf(line[at], at + 1);
      const end = close < 0 ? line.length : close;
      current += line.slice(at + 1, end);
      started = true;
      at = end + 1;
    } else if (isSpace(line, at)) {
      if (started || current) args.push(current);
      current = '';
      started = false;
      at++;
    } else {
      let end = at + 1;
      while (end < line.length && line.charCodeAt(end) !== 34 && line.charCodeAt(end) !== 39 && !isSpace(line, end)) end++;
      current += line.slice(at, end);
      at = end;
    }
  }
  if (started || current) args.push(current);
  return args;
}

interface TargetMacros {
  cpus: Record<string, Record<string, string>>;
  compilers: Array<{ match: string; macros: Record<string, string> }>;
}

const targetMacros = (): TargetMacros => dataJson<TargetMacros>('gcc-target-macros.json');

const CPLUSPLUS: Record<string, string> = { '11': '201103L', '14': '201402L', '17': '201703L', '20': '202002L', '23': '202302L', '2a': '202002L', '2b': '202302L' };

type RecipeKey = 'recipe.cpp.o.pattern' | 'recipe.c.o.pattern';

// A board's flags, read once: the variant header, the include resolution and stm32's C tables each
// ask for them in a first context, and expanding and splitting stm32's recipe is most of a millisecond.
// Each context resolves its own board object (resolveFqbn, or the stored board), and the IDE's
// properties are set on it before its context is built (provider.ts, applyIdeProperties), so what is
// kept here is never older than the board's properties.
const flagsOf = new WeakMap<ResolvedBoard, Map<RecipeKey, SharedCompileFlags>>();

/** CompileFlags as every caller shares them: read-only to the last array and map. */
export type SharedCompileFlags = { readonly [K in keyof CompileFlags]: Readonly<CompileFlags[K]> };

/**
 * The flags of the board's C++ (or, with `recipe.c.o.pattern`, C) compile recipe, expanded with the
 * board's properties. One object per board and recipe, shared by every caller: read it, copy it to change it.
 */
export function compileFlags(board: ResolvedBoard, recipeKey: RecipeKey = 'recipe.cpp.o.pattern'): SharedCompileFlags {
  let byRecipe = flagsOf.get(board);
  if (!byRecipe) flagsOf.set(board, (byRecipe = new Map()));
  let flags = byRecipe.get(recipeKey);
  if (!flags) byRecipe.set(recipeKey, (flags = readCompileFlags(board, recipeKey)));
  return flags;
}

function readCompileFlags(board: ResolvedBoard, recipeKey: RecipeKey): CompileFlags {
  const recipe = board.expand(board.properties.get(recipeKey) ?? '', { includes: '', source_file: '', object_file: '' });
  // -D names are keys: no Object.prototype underneath (`-D__proto__` is a macro like any other).
  const defines: Record<string, string> = Object.create(null);
  if (recipeKey === 'recipe.cpp.o.pattern') defines.__cplusplus = '201103L';
  const flags: CompileFlags = { defines, includeDirs: [], files: [], warnings: [] };
  let prefix = '';
  const take = (args: string[], depth: number, from: string | undefined): void => {
    for (let index = 0; index < args.length; index++) {
      const arg = args[index];
      const value = (option: string): string | undefined => (arg === option ? args[++index] : arg.startsWith(option) ? arg.slice(option.length) : undefined);
      if (arg.startsWith('@') && arg.length > 1) {
        readResponseFile(arg.slice(1), depth, from);
        continue;
      }
      const define = value('-D');
      if (define !== undefined) {
        const equals = define.indexOf('=');
        if (define.length === 0) continue;
        if (equals < 0) flags.defines[define] = '1';
        else flags.defines[define.slice(0, equals)] = define.slice(equals + 1);
        continue;
      }
      const undef = value('-U');
      if (undef !== undefined) {
        delete flags.defines[undef];
        continue;
      }
      const iprefix = value('-iprefix');
      if (iprefix !== undefined) {
        prefix = iprefix;
        continue;
      }
      const withPrefix = value('-iwithprefixbefore') ?? value('-iwithprefix');
      if (withPrefix !== undefined) {
        flags.includeDirs.push(`${prefix}${withPrefix}`);
        continue;
      }
      const include = value('-isystem') ?? value('-I');
      if (include !== undefined && include.length > 0) {
        flags.includeDirs.push(include);
        continue;
      }
      const std = /^-std=(?:gnu|c)\+\+(\w+)$/.exec(arg);
      if (std && CPLUSPLUS[std[1]]) flags.defines.__cplusplus = CPLUSPLUS[std[1]];
      const cpu = /^-mcpu=(.+)$/.exec(arg);
      if (cpu) Object.assign(flags.defines, targetMacros().cpus[cpu[1]] ?? {});
    }
  };
  const readResponseFile = (file: string, depth: number, from: string | undefined): void => {
    if (depth >= MAX_RESPONSE_DEPTH) return;
    let text: string;
    try {
      text = readRegularFileSync(file, 'utf8');
    } catch (error) {
      flags.warnings.push({ severity: 'info', code: 'response-file-missing', message: `${file}: the compile recipe${from ? ` (${from})` : ''} names this response file, which cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, file });
      return;
    }
    flags.files.push(file);
    take(splitCommandLine(text), depth + 1, file);
  };
  const args = splitCommandLine(recipe);
  const compiler = args[0] ?? '';
  for (const entry of targetMacros().compilers) if (compiler.includes(entry.match)) Object.assign(flags.defines, entry.macros);
  take(args.slice(1), 0, undefined);
  return flags;
}
