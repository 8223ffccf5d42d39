// Where a script stops parsing, stated the way Python would: an unclosed bracket is blamed on
// the line that opened it, not the later line where the parser noticed.
import type { SyntaxNode } from '@lezer/common';
import type { PythonSource } from './python-source.js';

export interface SyntaxProblem {
  line: number;
  column: number;
  text: string;
  /** The bracket opened on `line` and never closed, when that is the problem. */
  unclosed?: string;
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** The first place the parser had to recover from, if any. */
export function firstSyntaxProblem(source: PythonSource): SyntaxProblem | undefined {
  let found: SyntaxNode | undefined;
  source.tree.iterate({
    enter: (ref) => {
      if (found) return false;
      if (ref.type.isError) found = ref.node;
      return undefined;
    },
  });
  if (!found) return undefined;
  for (let node = found.parent; node; node = node.parent) {
    const open = node.firstChild ? source.source(node.firstChild) : '';
    const close = CLOSERS[open];
    if (!close || source.line(node.from) === source.line(found.from)) continue;
    if (node.lastChild && source.source(node.lastChild) === close) continue;
    const line = source.line(node.from);
    return { line, column: source.column(node.from), text: source.lineText(line), unclosed: open };
  }
  const line = source.line(found.from);
  return { line, column: source.column(found.from), text: source.lineText(line) };
}
