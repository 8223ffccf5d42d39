// library.properties `depends`: `Name (>=1.2.0 && <2), Other, Third (=1.0 || >1.5)`.
// Constraint grammar (arduino-cli/semver): = > >= < <= ! (not), && || and parentheses.
import { compareVersions } from '../../platform/arduino/version.js';

export type VersionConstraint =
  | { op: '=' | '>' | '>=' | '<' | '<='; version: string }
  | { op: '!'; operand: VersionConstraint }
  | { op: '&&' | '||'; left: VersionConstraint; right: VersionConstraint };

export interface Dependency {
  name: string;
  /** Undefined means any version. */
  constraint?: VersionConstraint;
  /** The constraint as written, for messages. */
  text?: string;
}

export type DependsResult = { ok: true; dependencies: Dependency[] } | { ok: false; error: string; dependencies: Dependency[] };

export function parseDepends(text: string): DependsResult {
  const dependencies: Dependency[] = [];
  const errors: string[] = [];
  for (const entry of splitTopLevel(text)) {
    const match = /^([^()]+?)\s*(?:\((.*)\))?$/.exec(entry.trim());
    if (!match) {
      errors.push(`"${entry.trim()}" is not "Name" or "Name (constraint)"`);
      continue;
    }
    const [, name, constraintText] = match;
    if (constraintText === undefined || constraintText.trim() === '') {
      dependencies.push({ name });
      continue;
    }
    try {
      dependencies.push({ name, constraint: parseConstraint(constraintText), text: constraintText.trim() });
    } catch (error) {
      errors.push(`${name}: ${(error as Error).message}`);
      dependencies.push({ name });
    }
  }
  return errors.length > 0 ? { ok: false, error: errors.join('; '), dependencies } : { ok: true, dependencies };
}

// Commas inside parentheses belong to the constraint.
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.filter((part) => part.trim() !== '');
}

export function parseConstraint(text: string): VersionConstraint {
  const tokens = text.match(/&&|\|\||>=|<=|[=<>!()]|[^\s=<>!()&|]+/g) ?? [];
  let position = 0;
  const peek = (): string | undefined => tokens[position];
  const or = (): VersionConstraint => {
    let left = and();
    while (peek() === '||') {
      position++;
      left = { op: '||', left, right: and() };
    }
    return left;
  };
  const and = (): VersionConstraint => {
    let left = unary();
    while (peek() === '&&') {
      position++;
      left = { op: '&&', left, right: unary() };
    }
    return left;
  };
  const unary = (): VersionConstraint => {
    const token = tokens[position++];
    if (token === '!') return { op: '!', operand: unary() };
    if (token === '(') {
      const inner = or();
      if (tokens[position++] !== ')') throw new Error(`missing ")" in "${text}"`);
      return inner;
    }
    if (token === '=' || token === '>' || token === '>=' || token === '<' || token === '<=') {
      const version = tokens[position++];
      if (!version || /^[=<>!()&|]/.test(version)) throw new Error(`missing version after "${token}" in "${text}"`);
      return { op: token, version };
    }
    throw new Error(`unexpected "${token ?? 'end'}" in "${text}"`);
  };
  const constraint = or();
  if (position < tokens.length) throw new Error(`unexpected "${tokens[position]}" in "${text}"`);
  return constraint;
}

export function satisfies(version: string, constraint: VersionConstraint): boolean {
  switch (constraint.op) {
    case '!': return !satisfies(version, constraint.operand);
    case '&&': return satisfies(version, constraint.left) && satisfies(version, constraint.right);
    case '||': return satisfies(version, constraint.left) || satisfies(version, constraint.right);
    default: {
      const order = compareVersions(version, constraint.version);
      if (constraint.op === '=') return order === 0;
      if (constraint.op === '>') return order > 0;
      if (constraint.op === '>=') return order >= 0;
      if (constraint.op === '<') return order < 0;
      return order <= 0;
    }
  }
}
