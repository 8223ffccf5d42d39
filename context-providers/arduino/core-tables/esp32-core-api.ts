// What the installed ESP32 core's own headers declare, evaluated under the board's defines and
// the chip's SOC_* macros: which LEDC/analogWrite/touch/DAC functions exist (so the LEDC API
// generation comes from the core itself, not from a vendor's version number) and which Serial
// objects HardwareSerial.h declares, with the default UART pins it defines.
import { readdirSync } from 'node:fs';
import { join } from '../../../platform/path-join.js';
import type { SourceRef } from '../../types.js';
import { evaluate } from '../c-expression.js';
import type { Token } from '../c-tokens.js';
import { expandMacros, preprocess, type Macro } from '../preprocessor.js';
import type { ResolvedBoard } from '../../../platform/arduino/resolve.js';


export interface CoreSerialObject {
  name: string;
  /** `Serial` when a macro makes it another object (`#define Serial HWCDCSerial`). */
  aliasOf?: string;
  source: SourceRef;
  pins?: { RX?: number; TX?: number; source?: SourceRef };
}

export interface CoreApi {
  /** Headers that were read; empty when the core folder has none of them. */
  files: string[];
  /** Function name → where the core declares it. */
  functions: Map<string, SourceRef>;
  /** Function-like macros the core's headers define (`digitalPinToInterrupt` in 2.x/3.x). */
  macros: Set<string>;
  /** Undefined when HardwareSerial.h is not installed. */
  serial?: CoreSerialObject[];
  /** HardwareSerial's `void begin(unsigned long baud, …)` declaration. */
  serialBegin?: SourceRef;
}

/**
 * `seeds` are SOC_* values from the data file for macros the installed SDK does not define, so
 * `#if SOC_UART_NUM > 2` means what it means for the chip even without its SDK.
 */
export function readCoreApi(board: ResolvedBoard, defines: Record<string, string>, macros: ReadonlyMap<string, Macro>, seeds: Record<string, string>): CoreApi {
  // Every header at the top of the core folder: whichever of them declares a function, it exists.
  const files = coreHeaders(board.corePath);
  if (files.length === 0) return { files: [], functions: new Map(), macros: new Set() };
  const unseeded = Object.fromEntries(Object.entries(seeds).filter(([name]) => !macros.has(name)));
  const result = preprocess(files, { defines: { ...defines, ...unseeded }, macros, includeDirs: [], follow: () => false });
  const hasSerialHeader = files.some((file) => file.endsWith('HardwareSerial.h'));
  return {
    files: result.files,
    functions: declaredFunctions(result.tokens),
    macros: new Set([...result.macros.values()].filter((macro) => macro.params && macro.source?.file.startsWith(board.corePath)).map((macro) => macro.name)),
    ...(hasSerialHeader ? { serial: serialObjects(result.tokens, result.macros) } : {}),
    ...beginDeclaration(result.tokens),
  };
}

function coreHeaders(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.h')).sort().map((name) => join(dir, name));
  } catch {
    return [];
  }
}

const NOT_A_TYPE = new Set(['return', 'if', 'while', 'for', 'switch', 'sizeof', 'defined', 'else', 'case']);

// `double ledcSetup(uint8_t channel, …);` at file scope or inside `extern "C" { }`; class members
// and function bodies are skipped.
function declaredFunctions(tokens: Token[]): Map<string, SourceRef> {
  const functions = new Map<string, SourceRef>();
  const blocks: boolean[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.text === '{') {
      blocks.push(tokens[index - 1]?.kind === 'string' && tokens[index - 2]?.text === 'extern');
      continue;
    }
    if (token.text === '}') {
      blocks.pop();
      continue;
    }
    if (token.kind !== 'identifier' || tokens[index + 1]?.text !== '(' || !blocks.every((isExtern) => isExtern)) continue;
    const before = tokens[index - 1];
    if (!before || !(before.kind === 'identifier' || before.text === '*' || before.text === '&') || NOT_A_TYPE.has(before.text)) continue;
    if (!functions.has(token.text)) functions.set(token.text, { file: token.file ?? '', line: token.line });
  }
  return functions;
}

function beginDeclaration(tokens: Token[]): { serialBegin?: SourceRef } {
  const begin = tokens.find((token, index) => token.text === 'begin' && tokens[index - 1]?.text === 'void' && tokens[index + 2]?.text === 'unsigned' && token.file?.endsWith('HardwareSerial.h'));
  return begin ? { serialBegin: { file: begin.file ?? '', line: begin.line } } : {};
}

// `(gpio_num_t)26` → 26: the cast names an enum the SDK defines, not needed for the number.
function pinValue(name: string, macros: Map<string, Macro>): number | undefined {
  if (!macros.has(name)) return undefined;
  const tokens = expandMacros([{ kind: 'identifier', text: name, line: 0, bol: false }], macros);
  const bare = tokens.filter((token, index) => !(token.text === 'gpio_num_t' || (token.text === '(' && tokens[index + 1]?.text === 'gpio_num_t') || (token.text === ')' && tokens[index - 1]?.text === 'gpio_num_t')));
  const evaluation = evaluate(bare, { identifier: () => undefined, unknownIsZero: false });
  return evaluation.ok && evaluation.value >= 0n ? Number(evaluation.value) : undefined;
}

function serialObjects(tokens: Token[], macros: Map<string, Macro>): CoreSerialObject[] {
  const objects: CoreSerialObject[] = [];
  for (let index = 0; index + 3 < tokens.length; index++) {
    if (tokens[index].text !== 'extern' || tokens[index + 1].text !== 'HardwareSerial' || tokens[index + 3].text !== ';') continue;
    const name = tokens[index + 2];
    if (name.kind !== 'identifier' || objects.some((object) => object.name === name.text)) continue;
    const uart = /^Serial(\d*)$/.exec(name.text)?.[1];
    const number = uart === '' ? 0 : uart === undefined ? undefined : Number(uart);
    const rx = number === 0 ? pinValue('SOC_RX0', macros) : number !== undefined ? pinValue(`RX${number}`, macros) : undefined;
    const tx = number === 0 ? pinValue('SOC_TX0', macros) : number !== undefined ? pinValue(`TX${number}`, macros) : undefined;
    const pinSource = macros.get(number === 0 ? 'SOC_RX0' : `RX${number}`)?.source;
    objects.push({
      name: name.text,
      source: { file: name.file ?? '', line: name.line },
      ...(rx !== undefined || tx !== undefined ? { pins: { ...(rx !== undefined ? { RX: rx } : {}), ...(tx !== undefined ? { TX: tx } : {}), ...(pinSource ? { source: pinSource } : {}) } } : {}),
    });
  }
  const serial = macros.get('Serial');
  if (serial && !serial.params && serial.body.length === 1 && !objects.some((object) => object.name === 'Serial')) {
    objects.unshift({ name: 'Serial', aliasOf: serial.body[0].text, source: serial.source ?? { file: '' } });
  }
  return objects;
}
