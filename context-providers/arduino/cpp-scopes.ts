// Where C++ code declares names, read from its preprocessed tokens as the compiler scopes them:
// namespaces, classes, enums and blocks, the names each declares (objects, functions, types,
// parameters, enumerators), `using namespace`, and out-of-class member definitions
// (`void Buzzer::tone(int)`, whose body sees Buzzer's members). The sketch check asks one
// question: is this name, at this token, one the code declares itself? It is not a C++ parser;
// it knows the structure that question needs (docs/sketch-parsing.md says why not tree-sitter).
import type { Token } from './c-tokens.js';

export type ScopeKind = 'global' | 'namespace' | 'class' | 'enum' | 'block';

export interface Scope {
  kind: ScopeKind;
  /** The namespace's or class's name; for a member function's body, its qualifier (`Buzzer`). */
  name?: string;
  parent?: Scope;
  names: Set<string>;
  /** `using namespace x;` in this scope. */
  usings: string[];
}

export interface CodeScopes {
  global: Scope;
  /** Whether `name`, used at token `index`, is declared by the code in a scope visible there. */
  declares(name: string, index: number): boolean;
}

// Words before a name that make it no declaration (`return x;`, `new Foo(…)`, `else y = 1`).
const NOT_TYPES = new Set(['return', 'else', 'case', 'goto', 'throw', 'new', 'delete', 'sizeof', 'alignof', 'decltype', 'typeid', 'co_return', 'co_yield', 'co_await', 'do', 'if', 'while', 'for', 'switch', 'catch', 'operator', 'default', 'break', 'continue', 'static_assert', 'using', 'namespace', 'template', 'typename', 'public', 'private', 'protected']);
const DECLARATOR_ENDS = new Set([';', ',', '=', '[', '(', '{', ':']);
const ACCESS = new Set(['public', 'private', 'protected']);

interface Frame {
  scope: Scope;
  /** Token index where the current statement of this scope began. */
  start: number;
  paren: number;
  /** The braces close a class, enum or initializer: the enclosing statement goes on after `}`. */
  continues: boolean;
  /** Enumerators go into this scope (the enclosing one for a plain enum). */
  enumTarget?: Scope;
}

export function readScopes(tokens: Token[]): CodeScopes {
  const globalScope: Scope = { kind: 'global', names: new Set(), usings: [] };
  const scopeOf: Scope[] = new Array(tokens.length);
  const namespaces = new Map<string, Scope[]>();
  const classes = new Map<string, Scope[]>();
  const frames: Frame[] = [{ scope: globalScope, start: 0, paren: 0, continues: false }];
  // After a class's `}` the statement's declarators follow it: `} instance;`.
  let afterBody = -1;

  const open = (kind: ScopeKind, parent: Scope, name?: string): Scope => {
    const scope: Scope = { kind, parent, names: new Set(), usings: [], ...(name ? { name } : {}) };
    if (name && kind === 'namespace') (namespaces.get(name) ?? namespaces.set(name, []).get(name)!).push(scope);
    if (name && kind === 'class') (classes.get(name) ?? classes.set(name, []).get(name)!).push(scope);
    return scope;
  };

  for (let index = 0; index < tokens.length; index++) {
    const frame = frames[frames.length - 1];
    const text = tokens[index].text;
    scopeOf[index] = frame.scope;
    if (tokens[index].kind !== 'punct') {
      if (frame.enumTarget && tokens[index].kind === 'identifier' && ['{', ','].includes(tokens[index - 1]?.text ?? '')) frame.enumTarget.names.add(text);
      continue;
    }
    if (text === '(' || text === '[') frame.paren++;
    else if (text === ')' || text === ']') frame.paren = Math.max(0, frame.paren - 1);
    else if (text === ';' && frame.paren === 0) {
      declareStatement(tokens, frame.start, index, frame.scope, afterBody);
      frame.start = index + 1;
      afterBody = -1;
    } else if (text === ':' && frame.paren === 0 && (ACCESS.has(tokens[index - 1]?.text ?? '') || tokens[frame.start]?.text === 'case' || tokens[frame.start]?.text === 'default')) {
      frame.start = index + 1;
    } else if (text === '{') {
      const head = tokens.slice(frame.start, index);
      const next = classify(head, frame, afterBody >= 0 ? afterBody - frame.start : -1);
      let scope = frame.scope;
      let enumTarget: Scope | undefined;
      if (next.kind === 'namespace') {
        scope = next.name ? open('namespace', frame.scope, next.name) : frame.scope;
      } else if (next.kind === 'class') {
        if (next.name) frame.scope.names.add(next.name);
        scope = open('class', frame.scope, next.name);
      } else if (next.kind === 'enum') {
        if (next.name) frame.scope.names.add(next.name);
        scope = open('enum', frame.scope, next.name);
        enumTarget = next.scoped ? scope : frame.scope;
      } else if (next.kind === 'function') {
        declareStatement(tokens, frame.start, index, frame.scope, -1);
        scope = open('block', frame.scope, next.qualifier);
        for (const name of parameterNames(head)) scope.names.add(name);
      } else if (next.kind === 'block') {
        scope = open('block', frame.scope);
      } else if (next.kind === 'init') {
        // `int pins[] = {…}` and `Servo s{…}` declare their name before the braces.
        if (afterBody < 0) declareStatement(tokens, frame.start, index, frame.scope, -1);
      }
      // `extern "C" {` and `namespace {` declare into the enclosing scope.
      frames.push({ scope, start: index + 1, paren: 0, continues: next.kind === 'class' || next.kind === 'enum' || next.kind === 'init', ...(enumTarget ? { enumTarget } : {}) });
    } else if (text === '}' && frames.length > 1) {
      const closed = frames.pop()!;
      const parent = frames[frames.length - 1];
      if (closed.continues) afterBody = index + 1;
      else {
        parent.start = index + 1;
        afterBody = -1;
      }
    }
  }

  const visible = (scope: Scope, name: string, seen: Set<Scope>): boolean => {
    if (seen.has(scope)) return false;
    seen.add(scope);
    if (scope.names.has(name)) return true;
    for (const used of scope.usings) for (const target of namespaces.get(used) ?? []) if (visible(target, name, seen)) return true;
    // A member function defined outside its class (or namespace) sees that class's names.
    if (scope.kind === 'block' && scope.name) for (const target of [...(classes.get(scope.name) ?? []), ...(namespaces.get(scope.name) ?? [])]) if (visible(target, name, seen)) return true;
    return false;
  };
  return {
    global: globalScope,
    declares: (name, index) => {
      const seen = new Set<Scope>();
      // `::name` is looked up at global scope only.
      const owner = tokens[index - 2];
      const global = tokens[index - 1]?.text === '::' && (!owner || (owner.kind !== 'identifier' && owner.text !== '>') || NOT_TYPES.has(owner.text));
      for (let scope: Scope | undefined = global ? globalScope : (scopeOf[index] ?? globalScope); scope; scope = scope.parent) if (visible(scope, name, seen)) return true;
      return false;
    },
  };
}

type Opened = { kind: 'namespace' | 'class' | 'enum'; name?: string; scoped?: boolean } | { kind: 'function'; qualifier?: string } | { kind: 'block' | 'init' | 'linkage' };

function classify(head: Token[], frame: Frame, afterBody: number): Opened {
  if (frame.paren > 0) return { kind: 'block' };
  const words = head.filter((token) => token.kind === 'identifier').map((token) => token.text);
  const first = head.findIndex((token) => token.text !== 'inline' && token.text !== 'export');
  if (head[first]?.text === 'namespace') return { kind: 'namespace', name: head.slice(first + 1).filter((token) => token.kind === 'identifier').map((token) => token.text).pop() };
  if (head[0]?.text === 'extern' && head[1]?.kind === 'string' && head.length === 2) return { kind: 'linkage' };
  if (afterBody >= 0) return { kind: 'init' };
  const depth0 = atDepthZero(head);
  const enumAt = depth0.findIndex((token) => token.text === 'enum');
  if (enumAt >= 0) {
    const scoped = depth0[enumAt + 1]?.text === 'class' || depth0[enumAt + 1]?.text === 'struct';
    const name = depth0.slice(enumAt + 1).find((token) => token.kind === 'identifier' && token.text !== 'class' && token.text !== 'struct');
    return { kind: 'enum', name: name && depth0[depth0.indexOf(name) - 1]?.text !== ':' ? name.text : undefined, scoped };
  }
  const classAt = depth0.findIndex((token) => token.text === 'class' || token.text === 'struct' || token.text === 'union');
  if (classAt >= 0 && !depth0.some((token) => token.text === '(' || token.text === '=')) {
    const name = depth0[classAt + 1]?.kind === 'identifier' && depth0[classAt + 1].text !== 'final' ? depth0[classAt + 1].text : undefined;
    return { kind: 'class', name };
  }
  if (depth0.some((token) => token.text === '=') && !depth0.some((token) => token.text === '(')) return { kind: 'init' };
  const paren = depth0.findIndex((token) => token.text === '(');
  const nameAt = paren - 1;
  if (paren > 0 && head[0] && !['if', 'for', 'while', 'switch', 'catch', 'else', 'do', 'return'].includes(words[0] ?? '') && depth0[nameAt]?.kind === 'identifier') {
    const qualified = depth0[nameAt - 1]?.text === '::' && depth0[nameAt - 2]?.kind === 'identifier' ? depth0[nameAt - 2].text : undefined;
    return { kind: 'function', ...(qualified ? { qualifier: qualified } : {}) };
  }
  // `Type name{…}` (brace initialisation) continues a declaration.
  if (depth0.length >= 2 && depth0[depth0.length - 1].kind === 'identifier' && depth0[depth0.length - 2].kind === 'identifier' && !NOT_TYPES.has(depth0[depth0.length - 2].text)) return { kind: 'init' };
  return { kind: 'block' };
}

// The tokens outside parentheses, brackets and template arguments; an opening `(` or `[` stays,
// so `name (` is still seen as a declarator followed by its parameters.
function atDepthZero(tokens: Token[]): Token[] {
  const out: Token[] = [];
  let depth = 0;
  let angle = 0;
  for (const token of tokens) {
    const text = token.text;
    if (depth > 0) {
      if (text === '(' || text === '[') depth++;
      else if (text === ')' || text === ']') depth--;
      continue;
    }
    if (angle > 0) {
      if (text === '<') angle++;
      else if (text === '>') angle--;
      else if (text === '>>') angle = Math.max(0, angle - 2);
      continue;
    }
    const previous = out[out.length - 1];
    if (text === '<' && previous?.kind === 'identifier' && previous.text !== 'operator') {
      angle = 1;
      continue;
    }
    out.push(token);
    if (text === '(' || text === '[') depth = 1;
  }
  return out;
}

/** Declares the names a statement (tokens[start, end)) declares in `scope`. */
function declareStatement(tokens: Token[], start: number, end: number, scope: Scope, afterBody: number): void {
  const head = tokens.slice(start, end);
  if (head.length === 0) return;
  const first = head[0].text;
  if (first === 'using') {
    if (head[1]?.text === 'namespace') {
      const name = head.slice(2).filter((token) => token.kind === 'identifier').pop();
      if (name) scope.usings.push(name.text);
    } else {
      const equals = head.findIndex((token) => token.text === '=');
      const name = equals > 0 ? head[equals - 1] : head.filter((token) => token.kind === 'identifier').pop();
      if (name?.kind === 'identifier') scope.names.add(name.text);
    }
    return;
  }
  const depth0 = atDepthZero(afterBody >= 0 ? tokens.slice(afterBody, end) : head);
  if (first === 'typedef') {
    const name = head.filter((token, index) => token.kind === 'identifier' && (head[index - 1]?.text === '*' || head[index + 1] === undefined || DECLARATOR_ENDS.has(head[index + 1].text) || head[index + 1].text === ')')).pop();
    if (name) scope.names.add(name.text);
    return;
  }
  if (NOT_TYPES.has(first) && first !== 'template') return;
  // `class Foo;` / `struct Foo;` declare the type.
  const tag = depth0.findIndex((token) => ['class', 'struct', 'union', 'enum'].includes(token.text));
  if (tag >= 0 && depth0.length === tag + 2 && depth0[tag + 1].kind === 'identifier') {
    scope.names.add(depth0[tag + 1].text);
    return;
  }
  let declaring = afterBody >= 0;
  for (let index = 0; index < depth0.length; index++) {
    const token = depth0[index];
    if (token.kind !== 'identifier' || NOT_TYPES.has(token.text)) continue;
    const before = depth0[index - 1];
    const after = depth0[index + 1];
    if (after && !DECLARATOR_ENDS.has(after.text)) continue;
    if (after?.text === ':' && scope.kind !== 'class') continue;
    if (before?.text === '::' || before?.text === '.' || before?.text === '->') continue;
    const typed = before !== undefined && ((before.kind === 'identifier' && !NOT_TYPES.has(before.text)) || ['*', '&', '&&', '>', '...'].includes(before.text));
    const listed = declaring && (before === undefined || before.text === ',' || before.text === '*' || before.text === '&');
    if (!typed && !listed) continue;
    scope.names.add(token.text);
    declaring = true;
    // A function's name ends its declarators here; `int a = 1, b;` goes on.
    if (after?.text === '(') break;
    if (after?.text === '=') {
      while (index + 1 < depth0.length && depth0[index + 1].text !== ',') index++;
    }
  }
}

/** Names of a function head's parameters: `void f(int pin, Servo &s)` → pin, s. */
function parameterNames(head: Token[]): string[] {
  const close = head.map((token) => token.text).lastIndexOf(')');
  let open = -1;
  let depth = 0;
  for (let index = close; index >= 0; index--) {
    if (head[index].text === ')') depth++;
    if (head[index].text === '(' && --depth === 0) {
      open = index;
      break;
    }
  }
  if (open < 0) return [];
  const names: string[] = [];
  let nesting = 0;
  for (let index = open + 1; index < close; index++) {
    const token = head[index];
    if (token.text === '(' || token.text === '[' || token.text === '<') nesting++;
    if (token.text === ')' || token.text === ']' || token.text === '>') nesting--;
    const next = head[index + 1]?.text;
    if (nesting === 0 && token.kind === 'identifier' && (next === ',' || next === ')' || next === '=' || next === '[') && index > open + 1 && head[index - 1].text !== ',' && head[index - 1].text !== '(') names.push(token.text);
  }
  return names;
}
