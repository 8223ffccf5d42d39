// Stand-in for the lead's CoreSketchView (sketch-check.ts builds the real one): every call of a
// sketch with its arguments' constant values, the identifiers it uses and the headers it includes.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CoreSketchView, SketchCall } from '../../../../context-providers/arduino/core-tables/index.js';
import { includeDirectives } from '../../../../context-providers/arduino/includes.js';
import { buildPinMap } from '../../../../context-providers/arduino/pin-map.js';
import type { ResolvedBoard } from '../../../../context-providers/arduino/resolve.js';
import { readSketchSymbols } from '../../../../context-providers/arduino/sketch-symbols.js';

const KEYWORDS = new Set(['if', 'while', 'for', 'switch', 'return', 'sizeof', 'else']);

export function sketchView(file: string, board: ResolvedBoard): CoreSketchView {
  const symbols = readSketchSymbols([file], dirname(file), buildPinMap(board));
  const tokens = symbols.tokens;
  const calls: SketchCall[] = [];
  for (let index = 0; index < tokens.length - 1; index++) {
    const token = tokens[index];
    if (token.kind !== 'identifier' || KEYWORDS.has(token.text) || tokens[index + 1].text !== '(') continue;
    const before = tokens[index - 1];
    // `void setup()` and `int f(int)` declare; `x.f(` and `return f(` call.
    if (before?.kind === 'identifier' && !KEYWORDS.has(before.text)) continue;
    const receiver = before?.text === '.' || before?.text === '->' ? tokens[index - 2]?.text : undefined;
    const args: SketchCall['args'] = [[]];
    let depth = 0;
    for (let end = index + 2; end < tokens.length; end++) {
      const text = tokens[end].text;
      if (text === '(' || text === '[' || text === '{') depth++;
      if (text === ')' || text === ']' || text === '}') {
        if (depth === 0) break;
        depth--;
      }
      if (text === ',' && depth === 0) args.push([]);
      else args[args.length - 1].push(tokens[end]);
    }
    const values = args.map((arg) => {
      const value = arg.length > 0 ? symbols.valueOf(arg) : undefined;
      return value === undefined ? undefined : [value];
    });
    calls.push({ name: token.text, ...(receiver ? { receiver } : {}), args, values, token });
  }
  return {
    calls,
    identifiers: new Set(tokens.filter((token) => token.kind === 'identifier').map((token) => token.text)),
    includes: includeDirectives(file, readFileSync(file, 'utf8')).map((include) => include.header),
    boardName: board.name,
    board,
  };
}
