// The initialised arrays of stm32duino's variant sources, from preprocessed tokens (so commented
// rows and #if-disabled rows are already gone): `const PinName digitalPin[] = { PA_3, ... };`,
// `const pin_size_t analogInputPin[] = { 46, ... };` and `const PinMap PinMap_TIM[] = {
// {PA_0, TIM2, STM_PIN_DATA_EXT(...)}, ... };`.
import type { SourceRef } from '../../types.js';
import type { Token } from '../c-tokens.js';

export interface ArrayElement {
  /** The element's tokens; for a `{ … }` row, its fields split at top-level commas. */
  fields: Token[][];
  source: SourceRef;
}

export interface CArray {
  name: string;
  elements: ArrayElement[];
  source: SourceRef;
}

export function readArrays(tokens: Token[], wanted: (name: string) => boolean): CArray[] {
  const arrays: CArray[] = [];
  for (let index = 0; index + 4 < tokens.length; index++) {
    const name = tokens[index];
    // `name[] = {` first: most identifiers are not followed by `[`, and then `wanted` is not asked.
    if (name.kind !== 'identifier' || tokens[index + 1].text !== '[' || tokens[index + 2].text !== ']' || tokens[index + 3].text !== '=' || tokens[index + 4].text !== '{') continue;
    if (!wanted(name.text)) continue;
    const { elements, end } = readInitializer(tokens, index + 4);
    arrays.push({ name: name.text, elements, source: { file: name.file ?? '', line: name.line } });
    index = end;
  }
  return arrays;
}

// From the `{` at `open` to its `}`: the top-level elements.
function readInitializer(tokens: Token[], open: number): { elements: ArrayElement[]; end: number } {
  const elements: ArrayElement[] = [];
  let current: Token[] = [];
  let depth = 0;
  const flush = (): void => {
    if (current.length === 0) return;
    const first = current[0];
    const isRow = first.text === '{' && current[current.length - 1].text === '}';
    elements.push({ fields: isRow ? splitFields(current.slice(1, -1)) : [current], source: { file: first.file ?? '', line: first.line } });
    current = [];
  };
  for (let index = open + 1; index < tokens.length; index++) {
    const token = tokens[index];
    if (depth === 0 && token.text === '}') {
      flush();
      return { elements, end: index };
    }
    if (depth === 0 && token.text === ',') {
      flush();
      continue;
    }
    if (token.text === '{' || token.text === '(') depth++;
    if (token.text === '}' || token.text === ')') depth--;
    current.push(token);
  }
  flush();
  return { elements, end: tokens.length };
}

/** Splits at commas outside parentheses and braces. */
export function splitFields(tokens: Token[]): Token[][] {
  const fields: Token[][] = [[]];
  let depth = 0;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.text === '(' || token.text === '{') depth++;
    if (token.text === ')' || token.text === '}') depth--;
    if (token.text === ',' && depth === 0) fields.push([]);
    else fields[fields.length - 1].push(token);
  }
  return fields;
}
