// A parsed MicroPython script (@lezer/python) with what the camera checks need: line numbers,
// import aliases of the camera modules, and the values of names assigned in the same file
// (module constants and variables), evaluated on demand.
import type { SyntaxNode, Tree } from '@lezer/common';
import { parser } from '@lezer/python';
import { PARSE_DEADLINE_MS, pastLimits } from './python-limits.js';
import { childList, expressionChildren, isExpression, numberLiteral, stringLiteral } from './python-nodes.js';

export type CameraModule = 'sensor' | 'csi';

export type PyValue =
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'none' }
  | { kind: 'tuple'; items: PyValue[] }
  /** `sensor.RGB565`, `csi.VGA`, or a name imported from the module. */
  | { kind: 'constant'; module: CameraModule; name: string }
  | { kind: 'module'; module: CameraModule }
  /** `csi.CSI` itself (e.g. after `from csi import CSI`). */
  | { kind: 'csi-class' }
  /** The result of `csi.CSI(...)`; `line` is where it was made. */
  | { kind: 'csi-object'; line: number; cid?: PyValue }
  | { kind: 'unknown'; text: string };

interface Binding {
  from: number;
  /** The assigned expression; undefined for imports (then `value` is set). */
  node?: SyntaxNode;
  value?: PyValue;
}

const CAMERA_MODULES = new Set<string>(['sensor', 'csi']);
// Evaluating `A = B`, `B = A` must end; real scripts never chain names this deep.
const MAX_DEPTH = 20;

function parseWithin(text: string, ms: number): Tree | undefined {
  const parse = parser.startParse(text);
  const deadline = performance.now() + ms;
  for (;;) {
    const tree = parse.advance();
    if (tree) return tree;
    if (performance.now() > deadline) return undefined;
  }
}

export class PythonSource {
  readonly tree: Tree;
  /** Why the script could not be read; then the tree is empty and nothing is known of it. */
  readonly unreadable?: { line: number; reason: string };
  private readonly lineStarts: number[] = [0];
  private readonly bindings = new Map<string, Binding[]>();

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') this.lineStarts.push(i + 1);
    const past = pastLimits(text);
    if (past) {
      this.unreadable = past;
      this.tree = parser.parse('');
      return;
    }
    try {
      const tree = parseWithin(text, PARSE_DEADLINE_MS);
      if (!tree) {
        this.unreadable = { line: 1, reason: `the Python parser did not finish within ${PARSE_DEADLINE_MS / 1000} s` };
        this.tree = parser.parse('');
        return;
      }
      this.tree = tree;
      this.collectBindings();
    } catch (error) {
      // The parser and the walks recurse per level: other deep structures (long operator chains) can exhaust the stack.
      this.unreadable = { line: 1, reason: `the Python parser gave up on it (${error instanceof Error ? error.message : String(error)})` };
      this.tree = parser.parse('');
      this.bindings.clear();
    }
  }

  /** 1-based line of an offset. */
  line(offset: number): number {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  column(offset: number): number {
    return offset - this.lineStarts[this.line(offset) - 1] + 1;
  }

  source(node: SyntaxNode): string {
    return this.text.slice(node.from, node.to);
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStarts[line - 1], this.lineStarts[line] ?? this.text.length).trimEnd();
  }

  /** Every node of `type` in document order. */
  nodesOfType(type: string): SyntaxNode[] {
    const nodes: SyntaxNode[] = [];
    this.tree.iterate({
      enter: (ref) => {
        if (ref.name === type) nodes.push(ref.node);
      },
    });
    return nodes;
  }

  /** Top-level module names the script imports (`import sensor, time`, `from csi import CSI`). */
  importedModules(): string[] {
    const modules = new Set<string>();
    for (const statement of this.nodesOfType('ImportStatement')) {
      const children = childList(statement);
      if (children[0]?.name === 'from') {
        if (children[1]?.name === 'VariableName') modules.add(this.source(children[1]));
        continue;
      }
      children.forEach((child, i) => {
        if (child.name === 'VariableName' && children[i - 1]?.name !== 'as' && children[i - 1]?.name !== '.') {
          modules.add(this.source(child));
        }
      });
    }
    return [...modules];
  }

  /** The value of `node`, following names to their assignments before `node` (or anywhere). */
  evaluate(node: SyntaxNode | null | undefined, depth = 0): PyValue {
    if (!node) return { kind: 'unknown', text: '' };
    const text = this.source(node);
    if (depth > MAX_DEPTH) return { kind: 'unknown', text };
    switch (node.name) {
      case 'Number': {
        const value = numberLiteral(text);
        return value === undefined ? { kind: 'unknown', text } : { kind: 'number', value };
      }
      case 'String':
        return { kind: 'string', value: stringLiteral(text) };
      case 'Boolean':
        return { kind: 'bool', value: text === 'True' };
      case 'None':
        return { kind: 'none' };
      case 'ParenthesizedExpression': {
        const inner = node.firstChild?.nextSibling;
        return inner ? this.evaluate(inner, depth + 1) : { kind: 'unknown', text };
      }
      case 'TupleExpression':
      case 'ArrayExpression':
        return { kind: 'tuple', items: expressionChildren(node).map((child) => this.evaluate(child, depth + 1)) };
      case 'VariableName':
        return this.lookup(text, node.from, depth);
      case 'MemberExpression':
        return this.member(node, depth);
      case 'CallExpression':
        return this.call(node, depth);
      case 'UnaryExpression': {
        const operand = this.evaluate(node.lastChild, depth + 1);
        if (operand.kind === 'number' && text.startsWith('-')) return { kind: 'number', value: -operand.value };
        return operand.kind === 'number' ? operand : { kind: 'unknown', text };
      }
      case 'BinaryExpression':
        return this.arithmetic(node, depth);
      default:
        return { kind: 'unknown', text };
    }
  }

  private lookup(name: string, at: number, depth: number): PyValue {
    const candidates = this.bindings.get(name);
    if (!candidates || candidates.length === 0) return { kind: 'unknown', text: name };
    // The last assignment before the use (bindings are sorted by position); a function body may
    // use a constant defined below it, so with none before, the last one counts.
    let low = 0;
    let high = candidates.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (candidates[mid].from < at) low = mid + 1;
      else high = mid;
    }
    const binding = low > 0 ? candidates[low - 1] : candidates[candidates.length - 1];
    return binding.value ?? this.evaluate(binding.node, depth + 1);
  }

  private member(node: SyntaxNode, depth: number): PyValue {
    const object = this.evaluate(node.firstChild, depth + 1);
    const property = node.lastChild;
    const name = property ? this.source(property) : '';
    if (object.kind === 'module') {
      if (object.module === 'csi' && name === 'CSI') return { kind: 'csi-class' };
      return { kind: 'constant', module: object.module, name };
    }
    return { kind: 'unknown', text: this.source(node) };
  }

  private call(node: SyntaxNode, depth: number): PyValue {
    const callee = this.evaluate(node.firstChild, depth + 1);
    if (callee.kind !== 'csi-class') return { kind: 'unknown', text: this.source(node) };
    const args = this.argumentsOf(node);
    const cid = args.keywords.get('cid') ?? args.positional[0];
    return { kind: 'csi-object', line: this.line(node.from), cid: cid ? this.evaluate(cid, depth + 1) : undefined };
  }

  private arithmetic(node: SyntaxNode, depth: number): PyValue {
    const left = this.evaluate(node.firstChild, depth + 1);
    const right = this.evaluate(node.lastChild, depth + 1);
    const operator = node.firstChild?.nextSibling ? this.source(node.firstChild.nextSibling) : '';
    if (left.kind !== 'number' || right.kind !== 'number') return { kind: 'unknown', text: this.source(node) };
    const a = left.value;
    const b = right.value;
    const results: Record<string, () => number> = {
      '+': () => a + b,
      '-': () => a - b,
      '*': () => a * b,
      '/': () => a / b,
      '//': () => Math.floor(a / b),
      '%': () => a % b,
      '**': () => a ** b,
      '<<': () => a << b,
      '>>': () => a >> b,
    };
    const divides = operator === '/' || operator === '//' || operator === '%';
    const result = Object.hasOwn(results, operator) && !(divides && b === 0) ? results[operator]() : undefined;
    return result === undefined ? { kind: 'unknown', text: this.source(node) } : { kind: 'number', value: result };
  }

  /** Positional and keyword argument nodes of a call. */
  argumentsOf(call: SyntaxNode): { positional: SyntaxNode[]; keywords: Map<string, SyntaxNode> } {
    const positional: SyntaxNode[] = [];
    const keywords = new Map<string, SyntaxNode>();
    const list = call.getChild('ArgList');
    let child = list?.firstChild ?? null;
    while (child) {
      if (child.nextSibling?.name === 'AssignOp' && child.name === 'VariableName') {
        const value = child.nextSibling.nextSibling;
        if (value) keywords.set(this.source(child), value);
        child = value?.nextSibling ?? null;
        continue;
      }
      if (isExpression(child)) positional.push(child);
      child = child.nextSibling;
    }
    return { positional, keywords };
  }

  private bind(name: string, binding: Binding): void {
    const list = this.bindings.get(name) ?? [];
    list.push(binding);
    this.bindings.set(name, list);
  }

  private collectBindings(): void {
    this.collectAssignments();
    for (const list of this.bindings.values()) list.sort((a, b) => a.from - b.from);
  }

  private collectAssignments(): void {
    for (const statement of this.nodesOfType('ImportStatement')) this.bindImport(statement);
    for (const statement of this.nodesOfType('AssignStatement')) {
      const children = childList(statement);
      const assign = children.findIndex((c) => c.name === 'AssignOp');
      if (assign < 1 || this.source(children[assign]) !== '=') continue;
      const targets = children.slice(0, assign).filter(isExpression);
      const values = children.slice(assign + 1).filter(isExpression);
      if (targets.length === 1 && values.length === 1 && targets[0].name === 'VariableName') {
        this.bind(this.source(targets[0]), { from: statement.from, node: values[0] });
      } else if (targets.length > 1 && targets.length === values.length) {
        // `W, H = 320, 240`
        targets.forEach((target, i) => {
          if (target.name === 'VariableName') this.bind(this.source(target), { from: statement.from, node: values[i] });
        });
      }
    }
  }

  private bindImport(statement: SyntaxNode): void {
    const children = childList(statement);
    const names = children.filter((c) => c.name === 'VariableName').map((c) => this.source(c));
    const from = statement.from;
    if (children[0]?.name === 'from') {
      const module = names[0];
      if (!CAMERA_MODULES.has(module)) return;
      // from csi import CSI, RGB565 as FMT
      const imported = children.slice(children.findIndex((c) => c.name === 'import') + 1);
      for (let i = 0; i < imported.length; i++) {
        if (imported[i].name !== 'VariableName') continue;
        const name = this.source(imported[i]);
        const alias = imported[i + 1]?.name === 'as' ? this.source(imported[i + 2]) : name;
        const value: PyValue =
          module === 'csi' && name === 'CSI' ? { kind: 'csi-class' } : { kind: 'constant', module: module as CameraModule, name };
        this.bind(alias, { from, value });
        if (alias !== name) i += 2;
      }
      return;
    }
    for (let i = 0; i < children.length; i++) {
      if (children[i].name !== 'VariableName') continue;
      const module = this.source(children[i]);
      const alias = children[i + 1]?.name === 'as' ? this.source(children[i + 2]) : module;
      if (CAMERA_MODULES.has(module)) this.bind(alias, { from, value: { kind: 'module', module: module as CameraModule } });
      if (alias !== module) i += 2;
    }
  }
}
