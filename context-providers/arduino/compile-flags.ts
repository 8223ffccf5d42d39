// What the board's C++ compile recipe tells the compiler: -D definitions, include folders (-I,
// -isystem, -iprefix/-iwithprefixbefore) and the response files (@defines.txt, @includes.txt) the
// mbed, Renesas and arduino-pico recipes keep them in, plus the macros the compiler itself
// predefines for the target (boards/data/gcc-target-macros.json).
import targetMacros from '../../boards/data/gcc-target-macros.json' with { type: 'json' };
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

/** Splits a recipe command line into arguments, honouring "double" and 'single' quotes. */
export function splitCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started || current) args.push(current);
      current = '';
      started = false;
    } else {
      current += char;
    }
  }
  if (started || current) args.push(current);
  return args;
}

const CPU_MACROS: Record<string, Record<string, string>> = targetMacros.cpus;

const CPLUSPLUS: Record<string, string> = { '11': '201103L', '14': '201402L', '17': '201703L', '20': '202002L', '23': '202302L', '2a': '202002L', '2b': '202302L' };

/** The flags of the board's C++ (or, with `recipe.c.o.pattern`, C) compile recipe, expanded with the board's properties. */
export function compileFlags(board: ResolvedBoard, recipeKey: 'recipe.cpp.o.pattern' | 'recipe.c.o.pattern' = 'recipe.cpp.o.pattern'): CompileFlags {
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
      if (cpu) Object.assign(flags.defines, CPU_MACROS[cpu[1]] ?? {});
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
  for (const entry of targetMacros.compilers) if (compiler.includes(entry.match)) Object.assign(flags.defines, entry.macros);
  take(args.slice(1), 0, undefined);
  return flags;
}
