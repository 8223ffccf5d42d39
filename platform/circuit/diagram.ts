// Wokwi's diagram.json (docs.wokwi.com/diagram-format): the parts (id, type, attrs) and the
// connections, each `["part:pin", "part:pin", color, [placement…]]`, read with the line of
// every part and wire so an error can say where it is.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Node, ParseError } from 'jsonc-parser';

// Loaded when a diagram is read: the context of every sketch imports this module, few have a diagram.
let jsonc: typeof import('jsonc-parser') | undefined;
const jsoncParser = () => (jsonc ??= createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser'));

export interface DiagramPart {
  id: string;
  type: string;
  /** Wokwi writes every attribute as a string; numbers are kept as their text. */
  attrs: Record<string, string>;
  line: number;
  /** Where Wokwi's editor placed it (pixels) and its rotation in degrees, when the file says. */
  top?: number;
  left?: number;
  rotate?: number;
}

export interface Terminal {
  part: string;
  pin: string;
}

export interface DiagramWire {
  from: Terminal;
  to: Terminal;
  line: number;
  /** The wire's colour as the file gives it ("green", "#f00"). */
  color?: string;
}

export interface Diagram {
  file: string;
  parts: DiagramPart[];
  wires: DiagramWire[];
}

export class DiagramError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    problem: string,
  ) {
    super(`${file}:${line}: ${problem}`);
    this.name = 'DiagramError';
  }
}

export function readDiagram(file: string): Diagram {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new DiagramError(file, 1, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseDiagram(text, file);
}

export function parseDiagram(text: string, file: string): Diagram {
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  const errors: ParseError[] = [];
  const { getNodeValue, parseTree, printParseErrorCode } = jsoncParser();
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0 || !root) {
    const first = errors[0];
    const what = first ? printParseErrorCode(first.error) : 'no JSON value';
    throw new DiagramError(file, first ? lineAt(first.offset) : 1, `not valid JSON (${what}); Wokwi's diagram.json is one JSON object with "parts" and "connections"`);
  }
  const fail = (node: Node, problem: string): never => {
    throw new DiagramError(file, lineAt(node.offset), problem);
  };
  if (root.type !== 'object') fail(root, 'the diagram is not a JSON object');
  const field = (node: Node, key: string): Node | undefined =>
    node.children?.find((pair) => pair.children?.[0]?.value === key)?.children?.[1];

  const parts: DiagramPart[] = [];
  const partsNode = field(root, 'parts');
  if (partsNode && partsNode.type !== 'array') fail(partsNode, '"parts" is not an array');
  const ids = new Set<string>();
  for (const node of partsNode?.children ?? []) {
    if (node.type !== 'object') fail(node, 'a part is not an object with "id" and "type"');
    const id = field(node, 'id');
    const type = field(node, 'type');
    if (id?.type !== 'string' || id.value === '') fail(node, 'a part has no "id" string');
    if (type?.type !== 'string') fail(node, `part "${id!.value}" has no "type" string (e.g. "wokwi-led")`);
    if (ids.has(id!.value)) fail(node, `two parts have the id "${id!.value}"; each part needs its own`);
    ids.add(id!.value);
    const attrs: Record<string, string> = {};
    const attrsNode = field(node, 'attrs');
    if (attrsNode && attrsNode.type !== 'object') fail(attrsNode, `part "${id!.value}": "attrs" is not an object`);
    for (const pair of attrsNode?.children ?? []) {
      const [key, value] = pair.children ?? [];
      if (key && value) attrs[key.value as string] = typeof value.value === 'object' ? JSON.stringify(getNodeValue(value)) : String(value.value);
    }
    const place: { top?: number; left?: number; rotate?: number } = {};
    for (const key of ['top', 'left', 'rotate'] as const) {
      const value = field(node, key);
      if (value === undefined) continue;
      if (value.type !== 'number') fail(value, `part "${id!.value}": "${key}" is not a number`);
      place[key] = value.value as number;
    }
    parts.push({ id: id!.value, type: type!.value, attrs, line: lineAt(node.offset), ...place });
  }

  const wires: DiagramWire[] = [];
  const connections = field(root, 'connections');
  if (connections && connections.type !== 'array') fail(connections, '"connections" is not an array');
  for (const node of connections?.children ?? []) {
    const [from, to, color] = node.children ?? [];
    if (node.type !== 'array' || from?.type !== 'string' || to?.type !== 'string') {
      fail(node, 'a connection is not ["part:pin", "part:pin", color, […]]');
    }
    wires.push({ from: terminal(from!, fail), to: terminal(to!, fail), line: lineAt(node.offset), ...(color?.type === 'string' ? { color: color.value as string } : {}) });
  }
  return { file, parts, wires };
}

function terminal(node: Node, fail: (node: Node, problem: string) => never): Terminal {
  const text = node.value as string;
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) fail(node, `"${text}" is not "part:pin" (e.g. "uno:13" or "led1:A")`);
  return { part: text.slice(0, colon), pin: text.slice(colon + 1) };
}
