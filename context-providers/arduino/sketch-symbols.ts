// What a sketch's tokens say about pins before any check runs: its active tokens (after its own
// #if branches, with the board's and the variant's macros defined), the integer constants it
// declares (`const int led = 9;`, `#define LED 9`, a global `int pin = 3;` never reassigned) and
// the names it declares itself (`SoftwareSerial Serial1(10, 11);`).
import type { Finding } from '../types.js';
import { evaluate } from './c-expression.js';
import type { Token } from './c-tokens.js';
import { expandMacros, preprocess, type Macro } from './preprocessor.js';
import type { PinMap } from './pin-map.js';

export interface SketchSymbols {
  tokens: Token[];
  macros: Map<string, Macro>;
  constants: Map<string, bigint>;
  declared: Set<string>;
  warnings: Finding[];
  /** Value of an argument expression, or undefined when it is not a known integer. */
  valueOf(tokens: Token[]): number | undefined;
}

const TYPE_WORDS = new Set(['const', 'constexpr', 'static', 'unsigned', 'signed', 'int', 'long', 'short', 'char', 'byte', 'uint8_t', 'int8_t', 'uint16_t', 'int16_t', 'uint32_t', 'int32_t', 'size_t', 'pin_size_t', 'word', 'volatile']);
const ASSIGNMENTS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=', '++', '--']);

export function readSketchSymbols(files: string[], dir: string, pinMap: PinMap): SketchSymbols {
  const result = preprocess(files, {
    defines: {},
    macros: pinMap.variant.macros,
    includeDirs: [],
    follow: (path) => path.startsWith(dir),
  });
  const constants = new Map<string, bigint>();
  for (const [name, constant] of pinMap.variant.constants) constants.set(name, BigInt(constant.value));
  const scope = { identifier: (name: string) => constants.get(name), unknownIsZero: false };
  const valueOf = (tokens: Token[]): number | undefined => {
    const evaluation = evaluate(expandMacros(tokens, result.macros), scope);
    return evaluation.ok ? Number(evaluation.value) : undefined;
  };

  const tokens = result.tokens;
  const declared = new Set<string>();
  const reassigned = reassignedNames(tokens);
  let depth = 0;
  let statementStart = 0;
  for (let index = 0; index < tokens.length; index++) {
    const text = tokens[index].text;
    if (text === '{' || text === '}' || text === ';') {
      depth += text === '{' ? 1 : text === '}' ? -1 : 0;
      statementStart = index + 1;
      continue;
    }
    const previous = tokens[index - 1];
    const token = tokens[index];
    // `Type name(` / `Type name;` / `Type name =` declares `name` (a user-made Serial1, say).
    if (token.kind === 'identifier' && previous?.kind === 'identifier' && index - 1 >= statementStart && ['(', ';', '=', ',', '['].includes(tokens[index + 1]?.text ?? '')) {
      if (!TYPE_WORDS.has(token.text)) declared.add(token.text);
    }
    if (text !== '=') continue;
    const head = tokens.slice(statementStart, index);
    const name = head[head.length - 1];
    const words = head.slice(0, -1).map((t) => t.text);
    if (!name || name.kind !== 'identifier' || words.length === 0 || !words.every((word) => TYPE_WORDS.has(word))) continue;
    const isConst = words.includes('const') || words.includes('constexpr');
    // A global that is never assigned again is as good as const for a pin number.
    if (!isConst && (depth > 0 || reassigned.has(name.text))) continue;
    let end = index + 1;
    let nesting = 0;
    while (end < tokens.length && !(nesting === 0 && (tokens[end].text === ';' || tokens[end].text === ','))) {
      if (tokens[end].text === '(') nesting++;
      if (tokens[end].text === ')') nesting--;
      end++;
    }
    const value = valueOf(tokens.slice(index + 1, end));
    if (value !== undefined) constants.set(name.text, BigInt(value));
  }
  return { tokens, macros: result.macros, constants, declared, warnings: result.warnings, valueOf };
}

function reassignedNames(tokens: Token[]): Set<string> {
  const names = new Set<string>();
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.kind !== 'identifier') continue;
    const after = tokens[index + 1]?.text ?? '';
    const before = tokens[index - 1]?.text ?? '';
    const isDeclaration = tokens[index - 1]?.kind === 'identifier';
    if ((ASSIGNMENTS.has(after) && !isDeclaration) || before === '++' || before === '--' || before === '&') names.add(token.text);
  }
  return names;
}
