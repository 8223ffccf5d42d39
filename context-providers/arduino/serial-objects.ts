// The serial objects a board has, the way its compiler sees them: the variant's SERIAL_PORT_*
// macros, and the core's and variant's headers read under the board's defines — `extern Uart
// Serial1;` (SAMD), `extern SerialUART Serial1, Serial2;` (arduino-pico), `#define Serial1 _UART1_`
// (Renesas, mbed), `extern HardwareSerial Serial2;` (ESP32). A name the headers mention only in a
// branch that is false here is uncertain: the condition may depend on a header not read.
import { existsSync } from 'node:fs';
import { join } from '../../platform/path-join.js';
import type { Finding, Knowledge } from '../types.js';
import { tokenize, type Token } from './c-tokens.js';
import { preprocess } from './preprocessor.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import { readRegularFileSync } from '../../platform/regular-file.js';
import { isInside, type VariantHeader } from './variant-header.js';

export interface SerialObjects {
  /** Objects that exist for this board. */
  ports: string[];
  /** Objects the headers name only under a condition that is false here. */
  uncertain: string[];
  knowledge: Knowledge;
  files: string[];
  warnings: Finding[];
}

const SERIAL_NAME = /^Serial(\d+|USB)?$/;
// SERIAL_NAME as a whole word of a file's text, wherever it stands (code, comment or string); a word
// ends where c-tokens.ts ends an identifier (letters, digits, _, $ and any non-ASCII character).
const SERIAL_WORD = /(?<![\w$\u0080-\uffff])Serial(?:\d+|USB)?(?![\w$\u0080-\uffff])/g;

/** Serial and the ports the variant's SERIAL_PORT_* macros name, in the order they are defined. */
export function portsOfMacros(variant: VariantHeader): Set<string> {
  const ports = new Set<string>(['Serial']);
  for (const [name, macro] of variant.macros) {
    if (macro.params || !name.startsWith('SERIAL_PORT_')) continue;
    const value = variant.expandText(name)?.trim();
    if (value && SERIAL_NAME.test(value)) ports.add(value);
  }
  return ports;
}

export function readSerialObjects(board: ResolvedBoard, variant: VariantHeader): SerialObjects {
  const ports = portsOfMacros(variant);
  // On AVR the variant's SERIAL_PORT_* macros are the whole statement (the core declares Serial1
  // under avr-libc's UBRR1H, which is the same set); checked against avr-gcc on every Debian board.
  if (board.architecture === 'avr') {
    const source = variant.header ? { file: variant.header } : undefined;
    return { ports: [...ports], uncertain: [], knowledge: { known: true, ...(source ? { source } : {}) }, files: [], warnings: [] };
  }
  const arduinoH = join(board.corePath, 'Arduino.h');
  if (!existsSync(arduinoH)) {
    return { ports: [...ports], uncertain: [], knowledge: { known: false, reason: `the core's Arduino.h is not installed (${arduinoH})` }, files: [], warnings: [] };
  }
  const variantDir = board.variantPath && existsSync(board.variantPath) ? board.variantPath : undefined;
  const mains = [arduinoH, ...(variant.header ? [variant.header] : []), ...(variantDir && existsSync(join(variantDir, 'variant.h')) ? [join(variantDir, 'variant.h')] : [])];
  const apiDir = join(board.corePath, 'api');
  const result = preprocess(mains, {
    defines: variant.defines,
    includeDirs: [board.corePath, ...(variantDir ? [variantDir] : [])],
    followSystem: true,
    // ArduinoCore-API (`api/`) holds the classes, never the instances: skipping it halves the work.
    follow: (path) => (isInside(path, board.corePath) && !isInside(path, apiDir)) || (variantDir !== undefined && isInside(path, variantDir)),
    // Only `extern` declarations are read from the code: the runs of lines that have none are not tokenized.
    tokensOf: () => false,
  });
  // Each `extern` declaration up to its `;`, `{` or `(`, in the active code's tokens, made one run at a
  // time: those of a run whose text holds `extern`, and of the runs after it while a declaration goes on.
  const runs = result.untokenized;
  const made = new Map<number, Token[]>();
  const tokensOfRun = (run: number): Token[] => {
    let tokens = made.get(run);
    if (!tokens) made.set(run, (tokens = runs[run].tokens()));
    return tokens;
  };
  for (let run = 0; run < runs.length; run++) {
    if (!runs[run].text.includes('extern')) continue;
    const tokens = tokensOfRun(run);
    for (let index = 0; index < tokens.length; index++) {
      if (tokens[index].text !== 'extern') continue;
      for (let at = run, next = index + 1; at < runs.length; at++, next = 0) {
        const declaration = tokensOfRun(at);
        for (; next < declaration.length; next++) {
          const token = declaration[next];
          if (token.text === ';' || token.text === '{' || token.text === '(') break;
          if (token.kind === 'identifier' && SERIAL_NAME.test(token.text)) ports.add(token.text);
        }
        if (next < declaration.length) break;
      }
    }
  }
  for (const [name, macro] of result.macros) if (!macro.params && SERIAL_NAME.test(name)) ports.add(name);
  const mentioned = new Set<string>();
  for (const file of result.files) {
    let text: string;
    try {
      text = readRegularFileSync(file, 'utf8');
    } catch {
      continue;
    }
    // Only a file whose text names a serial object that does not exist here can add to `uncertain`;
    // the others are not tokenized (a line splice could hide a name from the text, so those are).
    if (!text.includes('\\\n') && !text.includes('\\\r') && ![...text.matchAll(SERIAL_WORD)].some((match) => !ports.has(match[0]))) continue;
    for (const token of tokenize(text, file)) if (token.kind === 'identifier' && SERIAL_NAME.test(token.text)) mentioned.add(token.text);
  }
  const missingVariant = board.variantPath && !variantDir;
  const knowledge: Knowledge = missingVariant
    ? { known: false, reason: `the variant folder ${board.variantPath} is not installed, and variants declare serial ports` }
    : { known: true, source: { file: arduinoH } };
  return {
    ports: [...ports],
    uncertain: [...mentioned].filter((name) => !ports.has(name)),
    knowledge,
    files: result.files,
    warnings: [],
  };
}
