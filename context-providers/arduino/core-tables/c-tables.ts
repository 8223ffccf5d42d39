// Reads a core's C tables statically from preprocessed tokens: array initialisers
// (`const uint16_t P104[] = { … };`, `const PinDescription g_APinDescription[] = { { … }, … };`)
// and enum constants (`EXTERNAL_INT_2`, `TCC0_CH1`), evaluated with the C expression evaluator.
import type { SourceRef } from '../../types.js';
import { evaluate } from '../c-expression.js';
import type { Token } from '../c-tokens.js';
import { expandMacros, macroOfArgument, type Macro } from '../preprocessor.js';

export interface TableElement {
  /** The element's tokens (without the outer braces of a `{ … }` row). */
  tokens: Token[];
  /** A `{ a, b, c }` row split at its top-level commas; undefined for a scalar element. */
  fields?: Token[][];
  source: SourceRef;
}

export interface CArray {
  name: string;
  elements: TableElement[];
  source: SourceRef;
}

const sourceOf = (token: Token): SourceRef => ({ file: token.file ?? '', line: token.line });

/** Every `name[…] = { … }` at file scope, by name (the last definition wins, as a redefinition would not compile). */
export function readArrays(tokens: Token[]): Map<string, CArray> {
  const arrays = new Map<string, CArray>();
  let depth = 0;
  for (let index = 0; index < tokens.length; index++) {
    const text = tokens[index].text;
    if (text === '{') depth++;
    else if (text === '}') depth = Math.max(0, depth - 1);
    if (depth !== 0 || tokens[index].kind !== 'identifier' || tokens[index + 1]?.text !== '[') continue;
    let close = index + 1;
    while (close < tokens.length && tokens[close].text !== ']') close++;
    if (tokens[close + 1]?.text !== '=' || tokens[close + 2]?.text !== '{') continue;
    const { elements, end } = splitBraces(tokens, close + 2);
    arrays.set(tokens[index].text, {
      name: tokens[index].text,
      source: sourceOf(tokens[index]),
      elements: elements.filter((element) => element.length > 0).map((element) => {
        const row = element[0].text === '{' && element[element.length - 1].text === '}';
        const inner = row ? element.slice(1, -1) : element;
        return { tokens: inner, ...(row ? { fields: splitBraces(element, 0).elements } : {}), source: sourceOf(element[0]) };
      }),
    });
    index = end;
  }
  return arrays;
}

// Splits the brace group opening at `open` into its top-level comma-separated elements.
function splitBraces(tokens: Token[], open: number): { elements: Token[][]; end: number } {
  const elements: Token[][] = [[]];
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.text === '{' || token.text === '(' || token.text === '[') depth++;
    if (token.text === '}' || token.text === ')' || token.text === ']') {
      depth--;
      if (depth === 0) return { elements, end: index };
    }
    if (depth === 1 && token.text === ',') elements.push([]);
    else if (!(depth === 1 && index === open)) elements[elements.length - 1].push(token);
  }
  return { elements, end: tokens.length };
}

/** Enum constants in order of appearance: `A = 1, B, C = B + 2`. Unknown values stop the count for what follows. */
export function readEnums(tokens: Token[], macros: ReadonlyMap<string, Macro>): Map<string, bigint> {
  const values = new Map<string, bigint>();
  for (let index = 0; index < tokens.length; index++) {
    if (tokens[index].text !== 'enum') continue;
    let open = index + 1;
    while (open < tokens.length && open < index + 4 && tokens[open].text !== '{') open++;
    if (tokens[open]?.text !== '{') continue;
    const { elements, end } = splitBraces(tokens, open);
    let next: bigint | undefined = 0n;
    for (const element of elements) {
      const name = element[0];
      if (!name || name.kind !== 'identifier') continue;
      if (element[1]?.text === '=') {
        const evaluation = evaluate(expandMacros(element.slice(2), macros), { identifier: (id) => values.get(id), unknownIsZero: false });
        next = evaluation.ok ? evaluation.value : undefined;
      }
      if (next !== undefined) {
        values.set(name.text, next);
        next += 1n;
      }
    }
    index = end;
  }
  return values;
}

export type IntegerScope = (name: string) => bigint | undefined;

/** Expands and evaluates an element's tokens; undefined when it is not a known integer. */
export function evaluateTokens(tokens: Token[], macros: ReadonlyMap<string, Macro>, scope: IntegerScope): bigint | undefined {
  const evaluation = evaluate(expandMacros(tokens, macros), { identifier: scope, unknownIsZero: false });
  return evaluation.ok ? evaluation.value : undefined;
}

/** A one-argument macro of the core (`IS_PIN_PWM(x)`) as a function of an integer; undefined when not defined. */
export function macroFunction(macros: ReadonlyMap<string, Macro>, name: string, scope: IntegerScope = () => undefined): ((value: bigint) => bigint | undefined) | undefined {
  const run = macroOfArgument(macros, name);
  if (!run) return undefined;
  return (value) => {
    const evaluation = run(value, scope);
    return evaluation.ok ? evaluation.value : undefined;
  };
}

/** The identifier an element names after macro expansion (`P400` → `P400_b`), or undefined. */
export function identifierOf(tokens: Token[], macros: ReadonlyMap<string, Macro>): string | undefined {
  const expanded = expandMacros(tokens, macros).filter((token) => token.text !== '(' && token.text !== ')');
  return expanded.length === 1 && expanded[0].kind === 'identifier' ? expanded[0].text : undefined;
}
