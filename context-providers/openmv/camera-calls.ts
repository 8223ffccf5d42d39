// The camera calls of a script, in source order: `sensor.<function>(...)` of firmware 4.x and
// `csi.CSI()` objects with their methods of firmware 5.x, with argument values resolved through
// the script's own names; and every `sensor.<CONSTANT>` / `csi.<CONSTANT>` it mentions.
import type { SyntaxNode } from '@lezer/common';
import type { CameraModule, PythonSource, PyValue } from './python-source.js';

export interface CameraCall {
  api: CameraModule;
  /** `module`: `sensor.reset()`, `csi.CSI()`; `object`: `cam.pixformat(...)` on a csi.CSI object. */
  target: 'module' | 'object';
  name: string;
  line: number;
  column: number;
  positional: PyValue[];
  keywords: Record<string, PyValue>;
  /** For object calls: the line of the `csi.CSI()` that made the object (one state per camera). */
  objectLine?: number;
  /** For object calls: the `cid` the object was made with, when given. */
  cid?: PyValue;
}

export interface ConstantUse {
  module: CameraModule;
  name: string;
  line: number;
  column: number;
}

export interface CameraUse {
  calls: CameraCall[];
  constants: ConstantUse[];
}

export function findCameraUse(source: PythonSource): CameraUse {
  const calls: CameraCall[] = [];
  for (const node of source.nodesOfType('CallExpression')) {
    const call = cameraCall(source, node);
    if (call) calls.push(call);
  }
  // Outer calls come before the calls in their arguments; source order is what the camera sees.
  calls.sort((a, b) => a.line - b.line || a.column - b.column);
  const constants: ConstantUse[] = [];
  for (const node of source.nodesOfType('MemberExpression')) {
    const object = source.evaluate(node.firstChild);
    const property = node.lastChild;
    if (object.kind !== 'module' || !property || property.name !== 'PropertyName') continue;
    const name = source.source(property);
    if (!/^[A-Z]/.test(name)) continue;
    if (object.module === 'csi' && name === 'CSI') continue;
    constants.push({ module: object.module, name, line: source.line(property.from), column: source.column(property.from) });
  }
  return { calls, constants };
}

function cameraCall(source: PythonSource, node: SyntaxNode): CameraCall | undefined {
  const callee = node.firstChild;
  if (!callee) return undefined;
  const where = { line: source.line(callee.from), column: source.column(callee.from) };
  const args = () => {
    const { positional, keywords } = source.argumentsOf(node);
    return {
      positional: positional.map((arg) => source.evaluate(arg)),
      keywords: Object.fromEntries([...keywords].map(([name, arg]) => [name, source.evaluate(arg)])),
    };
  };
  if (callee.name === 'VariableName') {
    // `CSI()` after `from csi import CSI`
    if (source.evaluate(callee).kind !== 'csi-class') return undefined;
    return { api: 'csi', target: 'module', name: 'CSI', ...where, ...args() };
  }
  if (callee.name !== 'MemberExpression') return undefined;
  const object = source.evaluate(callee.firstChild);
  const name = callee.lastChild ? source.source(callee.lastChild) : '';
  if (object.kind === 'module') return { api: object.module, target: 'module', name, ...where, ...args() };
  if (object.kind === 'csi-object') {
    return { api: 'csi', target: 'object', name, ...where, ...args(), objectLine: object.line, cid: object.cid };
  }
  return undefined;
}

/** The argument at `index`, or given by keyword. */
export function argument(call: CameraCall, index: number, keyword: string): PyValue | undefined {
  return call.keywords[keyword] ?? call.positional[index];
}

export function describeValue(value: PyValue | undefined): string {
  if (!value) return 'nothing';
  switch (value.kind) {
    case 'number':
      return String(value.value);
    case 'string':
      return JSON.stringify(value.value);
    case 'bool':
      return value.value ? 'True' : 'False';
    case 'constant':
      return `${value.module}.${value.name}`;
    case 'tuple':
      return `(${value.items.map(describeValue).join(', ')})`;
    case 'unknown':
      return value.text;
    default:
      return value.kind;
  }
}
