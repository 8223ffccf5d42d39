// Small helpers over @lezer/python syntax nodes and literal tokens.
import type { SyntaxNode } from '@lezer/common';

export function childList(node: SyntaxNode): SyntaxNode[] {
  const children: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
  return children;
}

const PUNCTUATION = new Set(['(', ')', '[', ']', ',', ':', 'AssignOp', '*', '**']);

export function isExpression(node: SyntaxNode): boolean {
  return !PUNCTUATION.has(node.name) && !node.type.isError && node.name !== 'Comment';
}

export function expressionChildren(node: SyntaxNode): SyntaxNode[] {
  return childList(node).filter(isExpression);
}

/** The value of a Number token (`0x1F`, `1_000`, `2.5`), undefined for complex literals. */
export function numberLiteral(token: string): number | undefined {
  const clean = token.replace(/_/g, '').toLowerCase();
  if (clean.endsWith('j')) return undefined;
  const value = /^0[box]/.test(clean) ? Number(clean) : Number.parseFloat(clean);
  return Number.isFinite(value) ? value : undefined;
}

/** The text of a String token without its prefix and quotes (escapes are kept as written). */
export function stringLiteral(token: string): string {
  const prefix = /^[rbufRBUF]*/.exec(token)?.[0].length ?? 0;
  const body = token.slice(prefix);
  const quote = body.startsWith('"""') || body.startsWith("'''") ? 3 : 1;
  return body.slice(quote, Math.max(quote, body.length - quote));
}
