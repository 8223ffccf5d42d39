// stm32duino's pin tables for one board, evaluated under the board's own macros: the variant
// header (already read), then the core's stm32/stm32yyxx_hal_conf.h (which HAL modules are on),
// pins_arduino_analog.h and pins_arduino.h (PIN_A<n>, default SPI/Wire pins), then the variant's
// variant_*.cpp (digitalPin[], analogInputPin[]) and PeripheralPins*.c (PinMap_*), whose
// `#if defined(ARDUINO_<board>)` / `#if !defined(CUSTOM_PERIPHERAL_PINS)` pick the active file.
import { existsSync, readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { join } from '../../../platform/path-join.js';
import type { Finding, SourceRef } from '../../types.js';
import { evaluate } from '../c-expression.js';
import { tokenize } from '../c-tokens.js';
import { expandMacros, preprocess, type Macro } from '../preprocessor.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';
import { compileFlags } from '../compile-flags.js';
import type { VariantHeader } from '../variant-header.js';
import { readArrays, splitFields, type CArray } from './stm32-arrays.js';

export interface PinMapRow {
  /** `PA_0`, `PA_0_ALT1`. */
  pin: string;
  peripheral: string;
  /** STM_PIN_DATA_EXT's channel: TIM channel, ADC input, DAC output. */
  channel?: number;
  /** STM_PIN_DATA_EXT's inverted flag: a TIM complementary output (CHxN). */
  inverted?: boolean;
  source: SourceRef;
}

export interface Stm32Tables {
  macros: Map<string, Macro>;
  evaluate(text: string): number | undefined;
  /** digitalPin[i] → `PA_3`, or undefined for NC. */
  digitalPins?: Array<{ name?: string; source: SourceRef }>;
  analogInputPins?: Array<{ pin?: number; source: SourceRef }>;
  pinMaps: Map<string, PinMapRow[]>;
  files: string[];
  warnings: Finding[];
  /** Why digitalPin[] is missing, when it is. */
  problem?: string;
}

const CORE_HEADERS = ['stm32/stm32yyxx_hal_conf.h', 'pins_arduino_analog.h', 'pins_arduino.h'];

export function readStm32Variant(board: ResolvedBoard, variant: VariantHeader): Stm32Tables {
  const warnings: Finding[] = [];
  const coreHeaders = CORE_HEADERS.map((name) => join(board.corePath, name)).filter((file) => existsSync(file));
  // Their macros are what is read (the tables' PinName values, PIN_SERIAL_TX...): their other lines are passed over untokenized.
  const core = preprocess(coreHeaders, { defines: {}, macros: variant.macros, includeDirs: [], follow: () => false, tokensOf: () => false });
  warnings.push(...core.warnings);
  const macros = core.macros;
  const files = [...core.files];
  const evaluateText = (text: string): number | undefined => {
    const evaluation = evaluate(expandMacros(tokenize(text), macros), { identifier: () => undefined, unknownIsZero: false });
    return evaluation.ok ? Number(evaluation.value) : undefined;
  };
  const variantDir = board.variantPath!;
  // PeripheralPins*.c are C: they compile with recipe.c.o.pattern, whose -D flags differ
  // (compiler.c.st_extra_flags carries build.peripheral_pins=-DCUSTOM_PERIPHERAL_PINS).
  const cMacros = new Map(macros);
  cMacros.delete('__cplusplus');
  for (const [name, value] of Object.entries(compileFlags(board, 'recipe.c.o.pattern').defines)) cMacros.set(name, { name, body: tokenize(value) });
  const readFile = (file: string, wanted: (name: string) => boolean): CArray[] => {
    const result = preprocess([file], { defines: {}, macros: file.endsWith('.c') ? cMacros : macros, includeDirs: [], follow: () => false });
    files.push(file);
    warnings.push(...result.warnings);
    return readArrays(result.tokens, wanted);
  };

  let sources: string[];
  try {
    sources = readdirSync(variantDir).sort();
  } catch (error) {
    return { macros, evaluate: evaluateText, pinMaps: new Map(), files, warnings, problem: `${variantDir}: cannot be listed (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  const variantH = board.expanded('build.variant_h') || 'variant.h';
  const own = basename(variantH, '.h') + '.cpp';
  const candidates = [own, ...sources.filter((name) => /^variant.*\.cpp$/.test(name) && name !== own)].filter((name) => sources.includes(name));
  let digitalPins: Stm32Tables['digitalPins'];
  let analogInputPins: Stm32Tables['analogInputPins'];
  for (const name of candidates) {
    const arrays = readFile(join(variantDir, name), (id) => id === 'digitalPin' || id === 'analogInputPin');
    const digital = arrays.find((array) => array.name === 'digitalPin');
    if (!digital) continue;
    digitalPins = digital.elements.map((element) => {
      const text = element.fields[0].map((token) => token.text).join('');
      return { ...(text !== 'NC' ? { name: text } : {}), source: element.source };
    });
    analogInputPins = arrays.find((array) => array.name === 'analogInputPin')?.elements.map((element) => {
      const evaluation = evaluate(expandMacros(element.fields[0], macros), { identifier: () => undefined, unknownIsZero: false });
      return { ...(evaluation.ok ? { pin: Number(evaluation.value) } : {}), source: element.source };
    });
    break;
  }

  const pinMaps = new Map<string, PinMapRow[]>();
  for (const name of sources.filter((file) => /^PeripheralPins.*\.c$/.test(file))) {
    for (const array of readFile(join(variantDir, name), (id) => id.startsWith('PinMap_'))) {
      if (pinMaps.has(array.name)) {
        warnings.push({ severity: 'warning', code: 'stm32-pinmap-twice', message: `${array.source.file}:${array.source.line}: ${array.name} is defined again; the first definition is used`, file: array.source.file, line: array.source.line });
        continue;
      }
      pinMaps.set(array.name, array.elements.map((element) => pinMapRow(element.fields, element.source, macros)).filter((row): row is PinMapRow => row !== undefined));
    }
  }

  const problem = digitalPins
    ? undefined
    : candidates.length === 0
      ? `${variantDir}: no variant*.cpp, so there is no digitalPin[] table`
      : `${join(variantDir, candidates[0])}: no digitalPin[] is active for ARDUINO_${board.expanded('build.board') ?? '?'}`;
  return { macros, evaluate: evaluateText, ...(digitalPins ? { digitalPins } : {}), ...(analogInputPins ? { analogInputPins } : {}), pinMaps, files, warnings, ...(problem ? { problem } : {}) };
}

function pinMapRow(fields: CArray['elements'][number]['fields'], source: SourceRef, macros: Map<string, Macro>): PinMapRow | undefined {
  const pin = fields[0]?.map((token) => token.text).join('');
  const peripheral = fields[1]?.map((token) => token.text).join('');
  if (!pin || pin === 'NC' || !peripheral) return undefined;
  const data = fields[2] ?? [];
  const row: PinMapRow = { pin, peripheral, source };
  if (data[0]?.text === 'STM_PIN_DATA_EXT' && data[1]?.text === '(') {
    const args = splitFields(data.slice(2, -1));
    const value = (index: number): number | undefined => {
      const evaluation = args[index] ? evaluate(expandMacros(args[index], macros), { identifier: () => undefined, unknownIsZero: false }) : undefined;
      return evaluation?.ok ? Number(evaluation.value) : undefined;
    };
    const channel = value(3);
    if (channel !== undefined) row.channel = channel;
    if (value(4) === 1) row.inverted = true;
  }
  return row;
}
