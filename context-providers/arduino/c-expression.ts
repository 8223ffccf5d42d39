// Integer constant expressions of C, over already macro-expanded tokens: what `#if` lines and
// pin macros such as `((p) == 2 ? 0 : NOT_AN_INTERRUPT)` need. Values are 64-bit (BigInt).
import type { Token } from './c-tokens.js';

export interface EvaluationScope {
  /** Value of an identifier left after macro expansion (a `static const`), or undefined. */
  identifier(name: string): bigint | undefined;
  /** `#if` rules: an unknown identifier is 0 (C11 6.10.1); elsewhere it makes the value unknown. */
  unknownIsZero: boolean;
}

export type Evaluation = { ok: true; value: bigint } | { ok: false; reason: string };

// Keyed by names from the source: a Map, so `(toString)x` is no cast.
const INTEGER_TYPES = new Map<string, { bits: number; signed: boolean }>([
  ['uint8_t', { bits: 8, signed: false }], ['int8_t', { bits: 8, signed: true }], ['byte', { bits: 8, signed: false }],
  ['uint16_t', { bits: 16, signed: false }], ['int16_t', { bits: 16, signed: true }],
  ['uint32_t', { bits: 32, signed: false }], ['int32_t', { bits: 32, signed: true }],
  ['uint64_t', { bits: 64, signed: false }], ['int64_t', { bits: 64, signed: true }],
  ['char', { bits: 8, signed: true }], ['bool', { bits: 1, signed: false }],
  // Widths of int and long differ per target; truncating to them would guess, so these keep the value.
  ['int', { bits: 64, signed: true }], ['long', { bits: 64, signed: true }], ['short', { bits: 16, signed: true }],
  ['unsigned', { bits: 64, signed: false }], ['signed', { bits: 64, signed: true }], ['size_t', { bits: 64, signed: false }],
]);

export function evaluate(tokens: Token[], scope: EvaluationScope): Evaluation {
  // A lone integer (a PinMap row's channel, `defined X` replaced) is its value, as the parser reads
  // it, without making a parser and a node for it; any other literal takes the parser's way.
  if (tokens.length === 1 && tokens[0].kind === 'number') {
    const value = parseIntegerLiteral(tokens[0].text);
    if (value !== undefined) return { ok: true, value };
  }
  return compileExpression(tokens)(scope);
}

/** An expression parsed once, to be evaluated in many scopes (a pin macro for each pin). */
export type CompiledExpression = (scope: EvaluationScope) => Evaluation;

export function compileExpression(tokens: Token[]): CompiledExpression {
  let node: Node;
  try {
    const parser = new Parser(tokens);
    node = parser.conditional();
    if (parser.position < tokens.length) return failed(`unexpected "${tokens[parser.position].text}"`);
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  }
  return (scope) => {
    const unknown: string[] = [];
    try {
      const value = node({ scope, unknown });
      if (value === undefined) return { ok: false, reason: `${unknown.join(', ')} has no known value` };
      return { ok: true, value };
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
  };
}

const failed = (reason: string): CompiledExpression => () => ({ ok: false, reason });

// A decimal without a leading 0, or a hex number, with no suffix or digit separator: most literals
// (`0`, `1`, `115200`, `0x40011000`), which BigInt reads as they are written.
const PLAIN_INTEGER = /^(?:0|[1-9][0-9]*|0[xX][0-9a-fA-F]+)$/;

/** Parses a C integer literal (`0x1F`, `0b101`, `017`, `16000000L`, `1'000`); undefined if not one. */
export function parseIntegerLiteral(text: string): bigint | undefined {
  if (PLAIN_INTEGER.test(text)) return BigInt(text);
  const body = text.replace(/'/g, '').replace(/[uUlL]+$/, '');
  try {
    if (/^0[xX][0-9a-fA-F]+$/.test(body) || /^0[bB][01]+$/.test(body)) return BigInt(body);
    if (/^0[0-7]*$/.test(body)) return body === '0' ? 0n : BigInt(`0o${body.slice(1)}`);
    if (/^[1-9][0-9]*$/.test(body)) return BigInt(body);
  } catch {
    return undefined;
  }
  return undefined;
}

function charValue(text: string): bigint {
  const body = text.slice(text.indexOf("'") + 1, -1);
  if (!body.startsWith('\\')) return BigInt(body.codePointAt(0) ?? 0);
  const escapes = new Map(Object.entries({ n: 10, t: 9, r: 13, '0': 0, '\\': 92, "'": 39, '"': 34, a: 7, b: 8, f: 12, v: 11 }));
  if (/^\\x[0-9a-fA-F]+$/.test(body)) return BigInt(`0x${body.slice(2)}`);
  if (/^\\[0-7]{1,3}$/.test(body)) return BigInt(`0o${body.slice(1)}`);
  return BigInt(escapes.get(body[1]) ?? body.charCodeAt(1));
}

function truncate(value: bigint, type: { bits: number; signed: boolean }): bigint {
  if (type.bits === 1) return value !== 0n ? 1n : 0n;
  return type.signed ? BigInt.asIntN(type.bits, value) : BigInt.asUintN(type.bits, value);
}

const BINARY_LEVELS: string[][] = [
  ['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '<=', '>', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%'],
];
/** Each binary operator's level in BINARY_LEVELS (a higher level binds tighter). */
const BINARY_LEVEL = new Map(BINARY_LEVELS.flatMap((operators, level) => operators.map((op) => [op, level] as const)));

// An identifier without a value makes a sub-expression unknown (undefined), which only matters
// if the result depends on it: `p == 2 ? 0 : NOT_A_THING` is known for p == 2.
type Value = bigint | undefined;
/** What a node is evaluated in: the scope, and the identifiers found without a value, in order. */
interface Env {
  scope: EvaluationScope;
  unknown: string[];
}
// A parsed (sub-)expression. Every operand is evaluated, left to right, whatever the operators:
// a division by zero or an unknown name anywhere is found as when the tokens are read.
type Node = (env: Env) => Value;

const constant = (value: bigint): Node => () => value;

const UNARY_OPERATORS = new Set(['+', '-', '!', '~']);

class Parser {
  position = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private accept(text: string): boolean {
    const token = this.peek();
    if (token?.text === text && token.kind === 'punct') {
      this.position++;
      return true;
    }
    return false;
  }

  private expect(text: string): void {
    if (!this.accept(text)) throw new Error(`expected "${text}" but found "${this.peek()?.text ?? 'end'}"`);
  }

  conditional(): Node {
    const condition = this.binary(0);
    if (!this.accept('?')) return condition;
    const whenTrue = this.conditional();
    this.expect(':');
    const whenFalse = this.conditional();
    return (env) => {
      const test = condition(env);
      const yes = whenTrue(env);
      const no = whenFalse(env);
      if (test === undefined) return undefined;
      return test !== 0n ? yes : no;
    };
  }

  // Operators of `level` and above, left to right, by precedence climbing: the tree that one
  // recursive rule per level gives, without descending through all ten levels for each operand.
  private binary(level: number): Node {
    let left = this.unary();
    for (;;) {
      const op = this.peek();
      const opLevel = op?.kind === 'punct' ? BINARY_LEVEL.get(op.text) : undefined;
      if (op === undefined || opLevel === undefined || opLevel < level) return left;
      this.position++;
      left = binaryNode(op.text, left, this.binary(opLevel + 1));
    }
  }

  private unary(): Node {
    const token = this.peek();
    if (!token) throw new Error('expression ends early');
    if (token.kind === 'punct' && UNARY_OPERATORS.has(token.text)) {
      this.position++;
      const operand = this.unary();
      const op = token.text;
      return (env) => {
        const value = operand(env);
        if (value === undefined) return undefined;
        if (op === '-') return -value;
        if (op === '!') return value === 0n ? 1n : 0n;
        if (op === '~') return ~value;
        return value;
      };
    }
    if (token.kind === 'punct' && token.text === '(') {
      const cast = this.castType();
      if (cast) {
        const operand = this.unary();
        return (env) => {
          const value = operand(env);
          return value === undefined ? undefined : truncate(value, cast);
        };
      }
      this.position++;
      const inner = this.conditional();
      this.expect(')');
      return inner;
    }
    return this.primary();
  }

  // `(uint8_t)x`, `(unsigned long)x`: the parenthesised type names and their width.
  private castType(): { bits: number; signed: boolean } | undefined {
    let index = this.position + 1;
    const first = this.tokens[index];
    // Most parentheses hold an expression: only a type name or const can start a cast.
    if (first?.kind !== 'identifier' || (!INTEGER_TYPES.has(first.text) && first.text !== 'const')) return undefined;
    const words: string[] = [];
    while (this.tokens[index]?.kind === 'identifier' && (INTEGER_TYPES.has(this.tokens[index].text) || this.tokens[index].text === 'const')) {
      words.push(this.tokens[index].text);
      index++;
    }
    if (words.length === 0 || this.tokens[index]?.text !== ')') return undefined;
    this.position = index + 1;
    const named = words.filter((word) => word !== 'const' && word !== 'unsigned' && word !== 'signed');
    const base = INTEGER_TYPES.get(named[named.length - 1] ?? 'int')!;
    return words.includes('unsigned') ? { bits: base.bits, signed: false } : base;
  }

  private primary(): Node {
    const token = this.tokens[this.position++];
    if (token.kind === 'number') {
      const value = parseIntegerLiteral(token.text);
      if (value === undefined) throw new Error(`"${token.text}" is not an integer`);
      return constant(value);
    }
    if (token.kind === 'char') return constant(charValue(token.text));
    if (token.kind === 'identifier') {
      if (token.text === 'true') return constant(1n);
      if (token.text === 'false') return constant(0n);
      const name = token.text;
      return ({ scope, unknown }) => {
        const value = scope.identifier(name);
        if (value !== undefined) return value;
        if (scope.unknownIsZero) return 0n;
        unknown.push(`"${name}"`);
        return undefined;
      };
    }
    throw new Error(`unexpected "${token.text}"`);
  }
}

function binaryNode(op: string, left: Node, right: Node): Node {
  if (op === '&&') {
    return (env) => {
      const a = left(env);
      const b = right(env);
      return a === 0n || b === 0n ? 0n : a === undefined || b === undefined ? undefined : 1n;
    };
  }
  if (op === '||') {
    return (env) => {
      const a = left(env);
      const b = right(env);
      return (a !== undefined && a !== 0n) || (b !== undefined && b !== 0n) ? 1n : a === undefined || b === undefined ? undefined : 0n;
    };
  }
  return (env) => {
    const a = left(env);
    const b = right(env);
    return a === undefined || b === undefined ? undefined : applyBinary(op, a, b);
  };
}

function applyBinary(op: string, a: bigint, b: bigint): bigint {
  switch (op) {
    case '*': return a * b;
    case '/': if (b === 0n) throw new Error('division by zero'); return a / b;
    case '%': if (b === 0n) throw new Error('division by zero'); return a % b;
    case '+': return a + b;
    case '-': return a - b;
    case '<<': return BigInt.asIntN(64, a << b);
    case '>>': return a >> b;
    case '<': return a < b ? 1n : 0n;
    case '<=': return a <= b ? 1n : 0n;
    case '>': return a > b ? 1n : 0n;
    case '>=': return a >= b ? 1n : 0n;
    case '==': return a === b ? 1n : 0n;
    case '!=': return a !== b ? 1n : 0n;
    case '&': return a & b;
    case '^': return a ^ b;
    case '|': return a | b;
    default: throw new Error(`operator ${op} is not supported`);
  }
}
