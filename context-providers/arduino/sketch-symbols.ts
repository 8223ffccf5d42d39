// What a sketch's tokens say about pins before any check runs: its active tokens (after its own
// #if branches, with the board's and the variant's macros defined), the integer constants it
// declares (`const int led = 9;`, `#define LED 9`, a global `int pin = 3;` never reassigned) and
// where it declares names itself (`SoftwareSerial Serial1(10, 11);`, cpp-scopes.ts).
import type { Finding } from '../types.js';
import { evaluate } from './c-expression.js';
import type { Token } from './c-tokens.js';
import { readScopes, type CodeScopes } from './cpp-scopes.js';
import { expandMacros, preprocess, type Macro } from './preprocessor.js';
import type { PinMap } from './pin-map.js';

export interface SketchSymbols {
  tokens: Token[];
  macros: Map<string, Macro>;
  constants: Map<string, bigint>;
  /** Which names the sketch declares, and where they are visible. */
  scopes: CodeScopes;
  warnings: Finding[];
  /** Value of an argument expression, or undefined when it is not a known integer. */
  valueOf(tokens: Token[]): number | undefined;
  /** Its values when it depends on the variable of an enclosing `for` over a literal range. */
  valuesOf(tokens: Token[], at: number): number[] | undefined;
}

/** `for (int p = 2; p <= 13; p++) { … }`: the variable, its values, and the token range of the body. */
interface LoopRange {
  name: string;
  values: number[];
  start: number;
  end: number;
}

const MAX_LOOP_VALUES = 256;

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
  enumConstants(tokens, constants, valueOf);
  const loops = literalLoops(tokens, valueOf);
  const valuesOf = (argument: Token[], at: number): number[] | undefined => {
    const single = valueOf(argument);
    if (single !== undefined) return [single];
    const loop = loops.filter((entry) => at >= entry.start && at < entry.end && argument.some((token) => token.text === entry.name)).pop();
    if (!loop) return undefined;
    const values: number[] = [];
    for (const value of loop.values) {
      const evaluation = evaluate(expandMacros(argument, result.macros), { identifier: (name) => (name === loop.name ? BigInt(value) : constants.get(name)), unknownIsZero: false });
      if (!evaluation.ok) return undefined;
      values.push(Number(evaluation.value));
    }
    return values;
  };
  return { tokens, macros: result.macros, constants, scopes: readScopes(tokens), warnings: result.warnings, valueOf, valuesOf };
}

// A plain enum's enumerators are integer constants in the enclosing scope: `enum { LED = 9, BUZZER };`
// (a scoped `enum class` is reached only as E::X, which no pin argument here is).
function enumConstants(tokens: Token[], constants: Map<string, bigint>, valueOf: (tokens: Token[]) => number | undefined): void {
  for (let index = 0; index < tokens.length; index++) {
    if (tokens[index].text !== 'enum' || tokens[index + 1]?.text === 'class' || tokens[index + 1]?.text === 'struct') continue;
    let open = index + 1;
    while (open < tokens.length && tokens[open].text !== '{' && tokens[open].text !== ';' && open - index < 8) open++;
    if (tokens[open]?.text !== '{') continue;
    const close = matching(tokens, open);
    if (close < 0) continue;
    let next: number | undefined = 0;
    let at = open + 1;
    while (at < close) {
      const name = tokens[at];
      if (name.kind !== 'identifier') break;
      let end = at + 1;
      let depth = 0;
      while (end < close && !(depth === 0 && tokens[end].text === ',')) {
        if (tokens[end].text === '(') depth++;
        if (tokens[end].text === ')') depth--;
        end++;
      }
      const value: number | undefined = tokens[at + 1]?.text === '=' ? valueOf(tokens.slice(at + 2, end)) : next;
      // Once one value is unknown, the ones after it that count on from it are too.
      if (value !== undefined && !constants.has(name.text)) constants.set(name.text, BigInt(value));
      next = value === undefined ? undefined : value + 1;
      at = end + 1;
    }
    index = close;
  }
}

// Loops whose variable runs over literal bounds with a constant step, and whose body never
// assigns it: `for (int p = 2; p <= 13; p++)`, `for (byte i = 5; i > 0; i -= 1)`.
function literalLoops(tokens: Token[], valueOf: (tokens: Token[]) => number | undefined): LoopRange[] {
  const loops: LoopRange[] = [];
  for (let index = 0; index < tokens.length; index++) {
    if (tokens[index].text !== 'for' || tokens[index + 1]?.text !== '(') continue;
    const close = matching(tokens, index + 1);
    if (close < 0) continue;
    const header = tokens.slice(index + 2, close);
    const parts: Token[][] = [[]];
    for (const token of header) {
      if (token.text === ';') parts.push([]);
      else parts[parts.length - 1].push(token);
    }
    if (parts.length !== 3) continue;
    const [init, test, step] = parts;
    const equals = init.findIndex((token) => token.text === '=');
    if (equals < 1) continue;
    const name = init[equals - 1].text;
    const from = valueOf(init.slice(equals + 1));
    if (from === undefined || test[0]?.text !== name) continue;
    const limit = valueOf(test.slice(2));
    const comparison = test[1]?.text;
    let delta: number | undefined;
    if (step.length === 2 && ((step[0].text === name && step[1].text === '++') || (step[0].text === '++' && step[1].text === name))) delta = 1;
    else if (step.length === 2 && ((step[0].text === name && step[1].text === '--') || (step[0].text === '--' && step[1].text === name))) delta = -1;
    else if (step.length >= 3 && step[0].text === name && (step[1].text === '+=' || step[1].text === '-=')) {
      const amount = valueOf(step.slice(2));
      if (amount !== undefined && amount !== 0) delta = step[1].text === '+=' ? amount : -amount;
    }
    if (limit === undefined || delta === undefined || !comparison) continue;
    const holds = (value: number): boolean => (comparison === '<' ? value < limit : comparison === '<=' ? value <= limit : comparison === '>' ? value > limit : comparison === '>=' ? value >= limit : comparison === '!=' ? value !== limit : false);
    const values: number[] = [];
    for (let value = from; holds(value) && values.length <= MAX_LOOP_VALUES; value += delta) values.push(value);
    if (values.length === 0 || values.length > MAX_LOOP_VALUES) continue;
    const bodyStart = close + 1;
    const bodyEnd = tokens[bodyStart]?.text === '{' ? matching(tokens, bodyStart) : statementEnd(tokens, bodyStart);
    if (bodyEnd < 0) continue;
    const assigned = tokens.slice(bodyStart, bodyEnd).some((token, offset, body) => token.text === name && (ASSIGNMENTS.has(body[offset + 1]?.text ?? '') || ['++', '--', '&'].includes(body[offset - 1]?.text ?? '')));
    if (!assigned) loops.push({ name, values, start: bodyStart, end: bodyEnd });
  }
  return loops;
}

function matching(tokens: Token[], open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const closeText = pairs[tokens[open].text];
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    if (tokens[index].text === tokens[open].text) depth++;
    else if (tokens[index].text === closeText && --depth === 0) return index;
  }
  return -1;
}

function statementEnd(tokens: Token[], start: number): number {
  let depth = 0;
  for (let index = start; index < tokens.length; index++) {
    const text = tokens[index].text;
    if (text === '(' || text === '{' || text === '[') depth++;
    if (text === ')' || text === '}' || text === ']') depth--;
    if (text === ';' && depth === 0) return index;
  }
  return -1;
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
