// One small element tree for every MPLAB X file we read (project.xml,
// configurations.xml, .atdf, .PIC, .mc3), built on fast-xml-parser with the
// line of each element kept so every fact can cite file:line.
import { createRequire } from 'node:module';
import type * as FastXmlParser from 'fast-xml-parser';
import type { Finding } from '../types.js';

// The package's CommonJS build is one bundled file; its ESM entry is some thirty
// small modules whose loading costs more than reading a project on a cold start.
const { XMLParser, XMLValidator } = createRequire(import.meta.url)('fast-xml-parser') as typeof FastXmlParser;

export interface XmlElement {
  /** Tag name without namespace prefix (`edc:Pin` → `Pin`). */
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text content directly inside this element, trimmed. */
  text: string;
  /** 1-based line of the start tag. */
  line: number;
}

export interface XmlDocument {
  file: string;
  root?: XmlElement;
  /** Malformed or truncated input; the tree holds what could be read. */
  problems: Finding[];
}

type OrderedNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  captureMetaData: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Device files nest deeper than ordinary documents; keep a bound all the same.
  maxNestedTags: 200,
});
const metaSymbol = XMLParser.getMetaDataSymbol() as unknown as symbol;

export function parseXml(text: string, file: string): XmlDocument {
  const problems: Finding[] = [];
  const verdict = XMLValidator.validate(text);
  let input = text;
  if (verdict !== true) {
    const { msg, line, col } = verdict.err;
    // A file that simply stops (crashed save, partial copy) is reported by the
    // validator as unclosed tags at line 1; keep everything up to its end then.
    const truncated = /^Invalid '\[.*\]' found/s.test(msg) || /unclosed/i.test(msg);
    const lastLine = lineStarts(text).length;
    problems.push({
      severity: 'warning',
      code: 'mplabx-xml',
      message: truncated
        ? `${file}:${lastLine}: XML ends before its elements are closed (truncated file?); reading what is there`
        : `${file}:${line}: malformed XML (${msg}); reading what precedes it`,
      file,
      line: truncated ? lastLine : line,
    });
    input = truncated ? salvage(text, lastLine + 1, 1) : salvage(text, line, col);
  }
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(input) as OrderedNode[];
  } catch (error) {
    problems.push({
      severity: 'warning',
      code: 'mplabx-xml',
      message: `${file}: could not read XML (${(error as Error).message.split('\n')[0]})`,
      file,
    });
    return { file, problems };
  }
  const lines = lineStarts(text);
  const root = nodes.map((node) => toElement(node, lines)).find((el) => el && !el.name.startsWith('?'));
  return { file, root: root ?? undefined, problems };
}

/** Children of `el` named `name` (namespace prefixes already removed). */
export function childrenNamed(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

export function childNamed(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

/** Every element named `name` below `el`, in document order. */
export function descendantsNamed(el: XmlElement | undefined, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (node: XmlElement): void => {
    for (const c of node.children) {
      if (c.name === name) found.push(c);
      walk(c);
    }
  };
  if (el) walk(el);
  return found;
}

function toElement(node: OrderedNode, lines: number[]): XmlElement | undefined {
  const name = Object.keys(node).find((k) => k !== ':@' && k !== '#text');
  if (!name) return undefined;
  const rawChildren = (node[name] as OrderedNode[] | undefined) ?? [];
  const attrs = (node[':@'] as Record<string, string> | undefined) ?? {};
  const meta = (node as Record<symbol, { startIndex?: number } | undefined>)[metaSymbol];
  const children: XmlElement[] = [];
  const text: string[] = [];
  for (const raw of rawChildren) {
    if ('#text' in raw) text.push(String(raw['#text']));
    else {
      const child = toElement(raw, lines);
      if (child) children.push(child);
    }
  }
  return {
    name,
    attrs: Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k.replace(/^[\w-]+:/, ''), String(v)])),
    children,
    text: text.join('').trim(),
    line: lineOf(lines, meta?.startIndex ?? 0),
  };
}

// A truncated or broken file still holds useful elements before the damage:
// keep the text up to the last complete tag before the bad line and close
// whatever was left open.
function salvage(text: string, badLine: number, badColumn: number): string {
  const lines = lineStarts(text);
  const limit = badLine - 1 < lines.length ? lines[badLine - 1] + Math.max(0, badColumn - 1) : text.length;
  const head = text.slice(0, limit);
  const cut = head.lastIndexOf('>') + 1;
  const kept = head.slice(0, cut);
  const open: string[] = [];
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)[^>]*?(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>/g;
  for (const m of kept.matchAll(tag)) {
    const [, closing, name, selfClosing] = m;
    if (!name || selfClosing) continue;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
    } else open.push(name);
  }
  return kept + open.reverse().map((name) => `</${name}>`).join('');
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
