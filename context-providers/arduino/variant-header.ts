// Reads a board's variant header the way its compiler sees it: the core's Arduino.h first
// (NOT_AN_INTERRUPT and friends), the -D flags of the board's compile recipe, the MCU macro
// avr-gcc defines for -mmcu, then pins_arduino.h (or build.variant_h) with its #if branches.
import { existsSync } from 'node:fs';
import { basename, relative, sep } from 'node:path';
import { join } from '../../platform/path-join.js';
import type { Finding, SourceRef } from '../types.js';
import { evaluate } from './c-expression.js';
import { compileFlags } from './compile-flags.js';
import { picoChipStandIn } from './core-tables/rp2040-chips.js';
import { tokenize, type Token } from './c-tokens.js';
import { expandMacros, macroOfArgument, preprocess, type ActiveInclude, type Macro } from './preprocessor.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';

export interface HeaderConstant {
  value: number;
  source: SourceRef;
}

/** What reading the variant header found; VariantHeader is this with the ways to evaluate it. */
export interface VariantHeaderFacts {
  /** The pin header that was read, or undefined when the variant has none. */
  header?: string;
  defines: Record<string, string>;
  macros: Map<string, Macro>;
  /** `static const uint8_t A0 = PIN_A0;` and similar integer constants, by name. */
  constants: Map<string, HeaderConstant>;
  files: string[];
  /** The active #include lines of the headers read, when read now (a stored pin map does not keep them). */
  includes?: ActiveInclude[];
  warnings: Finding[];
}

export interface VariantHeader extends VariantHeaderFacts {
  /** Expands and evaluates `text` (e.g. `digitalPinHasPWM(3)`); undefined when not a known integer. */
  evaluate(text: string): number | undefined;
  /**
   * A one-argument macro as a function of its argument, expanded once: `pinFunction('digitalPinHasPWM')(3)`.
   * Undefined when the macro is not defined.
   */
  pinFunction(macro: string): ((argument: number) => number | undefined) | undefined;
  /**
   * A one-argument macro that gives a pointer (AVR's `digitalPinToPCICR(p)`: `&PCICR` or
   * `(uint8_t *)0`) as a function of its argument: 1 where it is the address of an object, 0 where
   * the null pointer, as `if (digitalPinToPCICR(pin))` tests it. Undefined when not defined.
   */
  pinPointerTruth(macro: string): ((argument: number) => number | undefined) | undefined;
  /** The replacement tokens of an object-like macro, fully expanded, as text. */
  expandText(name: string): string | undefined;
}

// The address of an object is never the null pointer (C11 6.3.2.3p3), so `&NAME` is true as a
// truth value; `(T *)0` is the null pointer constant, so the pointer cast is left out.
function pointerTruthTokens(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    const before = out[out.length - 1];
    const unary = !before || (before.kind === 'punct' && before.text !== ')');
    if (token.text === '&' && unary && tokens[index + 1]?.kind === 'identifier') {
      out.push({ ...token, kind: 'number', text: '1' });
      index++;
      continue;
    }
    if (token.text === '(' && tokens[index + 1]?.kind === 'identifier' && tokens[index + 2]?.text === '*' && tokens[index + 3]?.text === ')') {
      index += 3;
      continue;
    }
    out.push(token);
  }
  return out;
}

/** `__AVR_ATmega328P__` for `atmega328p`, as avr-gcc's device specs spell it. */
export function avrDeviceMacro(mcu: string): string {
  const match = /^at(xmega|mega|tiny|90)(.*)$/i.exec(mcu);
  if (!match) return `__AVR_${mcu.toUpperCase()}__`;
  const family = match[1].toLowerCase() === '90' ? '90' : match[1].toLowerCase();
  return `__AVR_AT${family}${match[2].toUpperCase()}__`;
}

/**
 * The `-D` definitions of the board's C++ compile recipe (response files too), plus the compiler's
 * own target macros, and an arduino-pico chip macro its missing platform_def.txt would have set (picoChipStandIn).
 */
export function compileDefines(board: ResolvedBoard): Record<string, string> {
  const defines = { ...compileFlags(board).defines };
  Object.assign(defines, picoChipStandIn(board, defines));
  const mcu = board.expanded('build.mcu');
  if (board.architecture === 'avr' && mcu) {
    defines.__AVR__ = '1';
    defines.__AVR = '1';
    defines[avrDeviceMacro(mcu)] = '1';
  }
  return defines;
}

export function readVariantHeader(board: ResolvedBoard): VariantHeader {
  const defines = compileDefines(board);
  const warnings: Finding[] = [];
  const headerName = board.expanded('build.variant_h') || 'pins_arduino.h';
  const variantDir = board.variantPath;
  const header = variantDir ? join(variantDir, headerName) : undefined;
  if (!variantDir) {
    warnings.push({ severity: 'warning', code: 'variant-none', message: `${board.fqbn}: the board names no build.variant, so there is no pin map` });
  } else if (!existsSync(variantDir)) {
    const source = board.sources.get('build.variant');
    warnings.push({
      severity: 'warning',
      code: 'variant-missing',
      message: `${variantDir}: variant folder does not exist${source ? ` (build.variant set at ${source.file}:${source.line})` : ''}`,
      ...(source ? { file: source.file, line: source.line } : {}),
      suggestion: 'Reinstall the platform, or fix build.variant in boards.txt.',
    });
  } else if (!existsSync(header!)) {
    warnings.push({ severity: 'warning', code: 'variant-header-missing', message: `${header}: variant header not found`, file: header });
  }

  const variantsRoot = join(board.platformPath, 'variants');
  const arduinoH = join(board.corePath, 'Arduino.h');
  const mains = [...(existsSync(arduinoH) ? [arduinoH] : []), ...(header && existsSync(header) ? [header] : [])];
  const result = preprocess(mains, {
    defines,
    includeDirs: [board.corePath, ...(variantDir ? [variantDir] : [])],
    // A variant's `#include <d32_core.h>` (CircuitMess ESP32) is found on -I{build.variant.path}, as gcc does.
    followSystem: true,
    // Only the pin header and what it includes from variant folders: the core's C++ API and
    // the toolchain's headers say nothing about pins.
    follow: (path) => basename(path) === headerName || isInside(path, variantsRoot) || (variantDir !== undefined && isInside(path, variantDir)),
    // The constants are the variant's: the code of Arduino.h itself is not tokenized.
    tokensOf: (file) => file !== arduinoH,
  });
  warnings.push(...result.warnings);

  const constants = collectConstants(result.tokens, result.macros, warnings);
  return variantHeaderOf({ ...(header && existsSync(header) ? { header } : {}), defines, macros: result.macros, constants, files: result.files, includes: result.includes, warnings });
}

/** The facts read from a variant header (read now, or stored), with the ways to evaluate expressions in them. */
export function variantHeaderOf(facts: VariantHeaderFacts): VariantHeader {
  const { macros, constants } = facts;
  const scope = { identifier: (name: string) => (constants.has(name) ? BigInt(constants.get(name)!.value) : undefined), unknownIsZero: false };
  // A one-argument macro expanded once, as a function of its argument.
  const pinMacro = (macro: string, rewrite: (tokens: Token[]) => Token[], toNumber: (value: bigint) => number): ((argument: number) => number | undefined) | undefined => {
    const run = macroOfArgument(macros, macro, rewrite);
    if (!run) return undefined;
    return (argument) => {
      const evaluation = run(BigInt(argument), scope.identifier);
      return evaluation.ok ? toNumber(evaluation.value) : undefined;
    };
  };
  return {
    ...facts,
    evaluate: (text) => {
      const evaluation = evaluate(expandMacros(tokenize(text), macros), scope);
      return evaluation.ok ? Number(evaluation.value) : undefined;
    },
    pinFunction: (macro) => pinMacro(macro, (tokens) => tokens, (value) => Number(value)),
    pinPointerTruth: (macro) => pinMacro(macro, pointerTruthTokens, (value) => Number(value !== 0n)),
    expandText: (name) => {
      const macro = macros.get(name);
      if (!macro || macro.params) return undefined;
      return expandMacros(tokenize(name), macros).map((token) => token.text).join(' ');
    },
  };
}

/** True when `path` is below `dir` (and is not `dir`). */
export function isInside(path: string, dir: string): boolean {
  // The preprocessor asks this for every #include it meets; path.relative resolves both paths
  // each time, so clean absolute POSIX paths (what join gives) are compared as text.
  if (isCleanAbsolute(path) && isCleanAbsolute(dir)) {
    const head = dir === '/' ? dir : `${dir}/`;
    return path.length > head.length && path.startsWith(head) && !path.startsWith('..', head.length);
  }
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
}

function isCleanAbsolute(path: string): boolean {
  return (
    sep === '/' &&
    path.startsWith('/') &&
    (path === '/' || !path.endsWith('/')) &&
    !path.includes('//') &&
    !path.includes('/./') &&
    !path.includes('/../') &&
    !path.endsWith('/.') &&
    !path.endsWith('/..')
  );
}

const DECLARATION_WORDS = new Set(['static', 'const', 'constexpr', 'extern', 'volatile', 'unsigned', 'signed', 'uint8_t', 'int8_t', 'uint16_t', 'int16_t', 'uint32_t', 'int32_t', 'int', 'long', 'short', 'char', 'byte', 'pin_size_t', 'PinName']);

// `static const uint8_t A0 = PIN_A0;` → A0 = 14. Only integer constants at file scope.
export function collectConstants(tokens: Token[], macros: Map<string, Macro>, warnings: Finding[]): Map<string, HeaderConstant> {
  const constants = new Map<string, HeaderConstant>();
  let statementStart = 0;
  let depth = 0;
  for (let index = 0; index < tokens.length; index++) {
    const text = tokens[index].text;
    if (text === '{') depth++;
    if (text === '}') depth = Math.max(0, depth - 1);
    if (text === ';' || text === '{' || text === '}') {
      statementStart = index + 1;
      continue;
    }
    if (text !== '=' || depth > 0) continue;
    const head = tokens.slice(statementStart, index);
    const name = head[head.length - 1];
    const words = head.slice(0, -1).map((token) => token.text);
    if (!name || name.kind !== 'identifier' || words.length === 0) continue;
    if (!(words.includes('const') || words.includes('constexpr')) || !words.every((word) => DECLARATION_WORDS.has(word))) continue;
    let end = index + 1;
    while (end < tokens.length && tokens[end].text !== ';' && tokens[end].text !== ',') end++;
    const evaluation = evaluate(expandMacros(tokens.slice(index + 1, end), macros), {
      identifier: (id) => (constants.has(id) ? BigInt(constants.get(id)!.value) : undefined),
      unknownIsZero: false,
    });
    const source = { file: name.file ?? '', line: name.line };
    if (evaluation.ok) constants.set(name.text, { value: Number(evaluation.value), source });
    else warnings.push({ severity: 'info', code: 'header-constant-unknown', message: `${source.file}:${source.line}: value of ${name.text} not computed (${evaluation.reason})`, file: source.file, line: source.line });
    index = end - 1;
  }
  return constants;
}
