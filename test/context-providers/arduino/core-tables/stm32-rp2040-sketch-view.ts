// Builds the CoreSketchView a core's check receives from real sketch text with the project's own
// tokenizer and evaluator; constant arguments only (the lead's sketch-check adds loop ranges).
import { evaluate } from '../../../../context-providers/arduino/c-expression.js';
import { tokenize, type Token } from '../../../../context-providers/arduino/c-tokens.js';
import type { CoreSketchView, SketchCall } from '../../../../context-providers/arduino/core-tables/index.js';
import type { ResolvedBoard } from '../../../../platform/arduino/resolve.js';

export function sketchView(text: string, board: ResolvedBoard, names: Map<string, number> = new Map()): CoreSketchView {
  const tokens = tokenize(text, 'sketch.ino');
  const calls: SketchCall[] = [];
  for (let index = 0; index + 1 < tokens.length; index++) {
    const token = tokens[index];
    if (token.kind !== 'identifier' || tokens[index + 1].text !== '(') continue;
    const args: Token[][] = [[]];
    let depth = 0;
    let cursor = index + 2;
    for (; cursor < tokens.length; cursor++) {
      const text = tokens[cursor].text;
      if (text === ')' && depth === 0) break;
      if (text === '(') depth++;
      if (text === ')') depth--;
      if (text === ',' && depth === 0) args.push([]);
      else args[args.length - 1].push(tokens[cursor]);
    }
    const receiver = tokens[index - 1]?.text === '.' ? tokens[index - 2]?.text : undefined;
    const values = args.map((arg) => {
      const evaluation = evaluate(arg, { identifier: (name) => (names.has(name) ? BigInt(names.get(name)!) : undefined), unknownIsZero: false });
      return evaluation.ok ? [Number(evaluation.value)] : undefined;
    });
    calls.push({ name: token.text, ...(receiver ? { receiver } : {}), args: args[0].length === 0 ? [] : args, values, token, at: index });
  }
  return { calls, identifiers: new Set(tokens.filter((t) => t.kind === 'identifier').map((t) => t.text)), includes: [], libraryDirs: [], declares: () => false, boardName: board.name, board };
}
