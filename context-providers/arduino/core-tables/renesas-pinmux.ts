// The Renesas core's pin table as its variant.cpp builds it: `g_pin_cfg[]` rows `{ BSP_IO_PORT_01_PIN_04, P104 }`,
// each naming a `const uint16_t P104[]` list (from the variant's pinmux.inc, or a local `P104_b` override)
// whose entries are `PIN_PWM|CHANNEL_1|PWM_CHANNEL_B|…` words, decoded with the core's own variant.h macros.
import { existsSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { Finding, SourceRef } from '../../types.js';
import { evaluate } from '../c-expression.js';
import type { Token } from '../c-tokens.js';
import { expandMacros, preprocess, type Macro } from '../preprocessor.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import { isInside, type VariantHeader } from '../variant-header.js';
import { evaluateTokens, identifierOf, macroFunction, readArrays, type TableElement } from './c-tables.js';

export interface PinmuxEntry {
  value: bigint;
  source: SourceRef;
}

export interface PinmuxRow {
  /** Arduino pin number: the row's index in g_pin_cfg. */
  number: number;
  /** The chip's port pin, `P104`, from `BSP_IO_PORT_01_PIN_04`. */
  port?: string;
  /** The list the row names (`P104`, or the variant's `P104_b` override). */
  list?: string;
  /** The list's entries up to the one marked LAST_ITEM_GUARD; undefined when the list could not be read. */
  entries?: PinmuxEntry[];
  source: SourceRef;
}

export interface PinmuxTable {
  rows: PinmuxRow[];
  /** The `g_pin_cfg[] = {` line. */
  source?: SourceRef;
  /** The core's variant.h and variant.cpp macros, for decoding entries. */
  macros: Map<string, Macro>;
  files: string[];
  warnings: Finding[];
  /** Why the table could not be read at all. */
  missing?: string;
}

export function readPinmuxTable(board: ResolvedBoard, variant: VariantHeader): PinmuxTable {
  const coreVariantH = join(board.corePath, 'variant.h');
  const variantDir = board.variantPath;
  const variantCpp = variantDir ? join(variantDir, 'variant.cpp') : undefined;
  const empty = (missing: string): PinmuxTable => ({ rows: [], macros: new Map(variant.macros), files: [], warnings: [], missing });
  if (!variantCpp || !existsSync(variantCpp)) return empty(`${variantCpp ?? `${board.fqbn} names no variant`}: variant.cpp not found, so g_pin_cfg cannot be read`);
  if (!existsSync(coreVariantH)) return empty(`${coreVariantH}: the core's variant.h (PIN_PWM, CHANNEL_n) not found`);

  const result = preprocess([coreVariantH, variantCpp], {
    defines: variant.defines,
    macros: variant.macros,
    includeDirs: [variantDir!, board.corePath],
    // pinmux.inc and the variant's own headers; Arduino.h and the FSP headers add nothing to the table.
    follow: (path) => isInside(path, variantDir!),
  });
  const arrays = readArrays(result.tokens);
  const table = arrays.get('g_pin_cfg');
  if (!table) return { ...empty(`${variantCpp}: no g_pin_cfg[] initialiser found`), files: result.files, warnings: result.warnings };

  const values: NameValues = new Map();
  // IS_LAST_ITEM expanded and parsed once for the table, not once per pin's list.
  const isLast = macroFunction(result.macros, 'IS_LAST_ITEM');
  const rows: PinmuxRow[] = table.elements.map((element, number) => {
    const [pinField, listField] = element.fields ?? [];
    const port = portName(pinField?.map((token) => token.text).join('') ?? '');
    const listName = listField ? identifierOf(listField, result.macros) : undefined;
    const list = listName ? arrays.get(listName) : undefined;
    if (!list) {
      result.warnings.push({
        severity: 'info',
        code: 'pinmux-list-unknown',
        message: `${element.source.file}:${element.source.line}: pin ${number}'s list ${listName ?? '(unreadable)'} has no initialiser in variant.cpp or pinmux.inc`,
        file: element.source.file,
        line: element.source.line,
      });
      return { number, ...(port ? { port } : {}), source: element.source };
    }
    if (port && listName !== port && listName !== `${port}_b`) {
      result.warnings.push({
        severity: 'info',
        code: 'pinmux-list-other-pin',
        message: `${element.source.file}:${element.source.line}: pin ${number} is ${port} but its row names the list ${listName}, so the core configures it from ${listName}'s functions`,
        file: element.source.file,
        line: element.source.line,
      });
    }
    return { number, ...(port ? { port } : {}), list: listName, entries: readEntries(list.elements, result.macros, values, isLast), source: element.source };
  });
  return { rows, source: table.source, macros: result.macros, files: result.files, warnings: result.warnings };
}

/** A name's value in a pinmux word, once evaluated: 'general' when the word must be evaluated whole. */
type NameValues = Map<string, bigint | undefined | 'general'>;

/**
 * A pinmux word `PIN_PWM|CHANNEL_1|PWM_CHANNEL_A|…` whose names are each an object-like macro that
 * expands to one operand (one token, or one parenthesised expression, as the core's variant.h
 * writes them): the OR of the names' values, each evaluated once per table (`values`), which is
 * what the compiler computes. 'general' for any other word, which is evaluated whole.
 */
function orOfNames(tokens: Token[], macros: Map<string, Macro>, values: NameValues): bigint | undefined | 'general' {
  if (tokens.length % 2 === 0) return 'general';
  let word = 0n;
  for (let index = 0; index < tokens.length; index += 2) {
    const name = tokens[index];
    if (name.kind !== 'identifier' || (index > 0 && tokens[index - 1].text !== '|')) return 'general';
    let value = values.get(name.text);
    if (!values.has(name.text)) {
      const macro = macros.get(name.text);
      const expanded = macro && !macro.params ? expandMacros([name], macros) : [];
      const evaluation = isOneOperand(expanded) ? evaluate(expanded, { identifier: () => undefined, unknownIsZero: false }) : undefined;
      value = evaluation ? (evaluation.ok ? evaluation.value : undefined) : 'general';
      values.set(name.text, value);
    }
    if (value === 'general') return 'general';
    if (value === undefined) return undefined;
    word |= value;
  }
  return word;
}

/** One token, or `( … )` whose first parenthesis closes at its end. */
function isOneOperand(tokens: Token[]): boolean {
  if (tokens.length === 1) return tokens[0].kind === 'number' || tokens[0].kind === 'identifier';
  if (tokens.length < 3 || tokens[0].text !== '(') return false;
  let depth = 0;
  for (let index = 0; index < tokens.length; index++) {
    if (tokens[index].text === '(') depth++;
    else if (tokens[index].text === ')' && --depth === 0) return index === tokens.length - 1;
  }
  return false;
}

function readEntries(elements: TableElement[], macros: Map<string, Macro>, values: NameValues, isLast: ((value: bigint) => bigint | undefined) | undefined): PinmuxEntry[] | undefined {
  const entries: PinmuxEntry[] = [];
  for (const element of elements) {
    const word = orOfNames(element.tokens, macros, values);
    const value = word === 'general' ? evaluateTokens(element.tokens, macros, () => undefined) : word;
    if (value === undefined) return undefined;
    entries.push({ value, source: element.source });
    // getPinCfgs (ArduinoCore-renesas cores/arduino/variant_helper.cpp) stops at the entry marked LAST_ITEM_GUARD.
    if (isLast?.(value)) break;
  }
  return entries;
}

/** `BSP_IO_PORT_01_PIN_04` → `P104`; ports 10 and 11 are `PA`/`PB` in Renesas' naming. */
function portName(text: string): string | undefined {
  const match = /BSP_IO_PORT_(\d+)_PIN_(\d+)/.exec(text);
  if (!match) return undefined;
  const port = Number(match[1]);
  return `P${port < 10 ? port : String.fromCharCode(55 + port)}${match[2].padStart(2, '0')}`;
}
