// The block-YAML subset that arduino-cli.yaml and sketch.yaml use: nested mappings, sequences of
// scalars or mappings, quoted and plain scalars, comments. Flow collections (`[a, b]`, `{a: b}`)
// are read as plain strings; anchors and multi-line scalars do not occur in these files.
import { readFileSync } from 'node:fs';
import type { Finding } from '../types.js';

export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  indent: number;
  text: string;
  number: number;
}

export interface YamlResult {
  value: YamlValue | undefined;
  warnings: Finding[];
}

export function readYamlFile(file: string): YamlResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { value: undefined, warnings: [{ severity: 'warning', code: 'yaml-unreadable', message: `${file}: cannot be read (${code})`, file }] };
  }
  return parseYaml(text, file);
}

export function parseYaml(text: string, file: string): YamlResult {
  const lines: Line[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const text = stripComment(raw).trimEnd();
    if (text.trim() === '' || text.trim() === '---') return;
    lines.push({ indent: text.length - text.trimStart().length, text: text.trim(), number: index + 1 });
  });
  const warnings: Finding[] = [];
  const state = { position: 0 };
  const value = lines.length === 0 ? undefined : parseBlock(lines, state, lines[0].indent, file, warnings);
  for (; state.position < lines.length; state.position++) {
    const line = lines[state.position];
    warnings.push({ severity: 'warning', code: 'yaml-unexpected-line', message: `${file}:${line.number}: unexpected indentation, line ignored`, file, line: line.number });
  }
  return { value, warnings };
}

function stripComment(line: string): string {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '#' && (index === 0 || /\s/.test(line[index - 1]))) {
      return line.slice(0, index);
    }
  }
  return line;
}

function parseBlock(lines: Line[], state: { position: number }, indent: number, file: string, warnings: Finding[]): YamlValue {
  if (lines[state.position].text.startsWith('- ') || lines[state.position].text === '-') {
    const items: YamlValue[] = [];
    while (state.position < lines.length && lines[state.position].indent === indent && lines[state.position].text.startsWith('-')) {
      const line = lines[state.position];
      const rest = line.text.slice(1).trim();
      if (rest === '') {
        state.position++;
        items.push(nested(lines, state, indent, file, warnings) ?? '');
      } else if (isMappingEntry(rest)) {
        // "- key: value" starts a mapping whose further keys sit under the key's column.
        const inner = indent + (line.text.length - line.text.slice(1).trimStart().length);
        lines[state.position] = { indent: inner, text: rest, number: line.number };
        items.push(parseBlock(lines, state, inner, file, warnings));
      } else {
        state.position++;
        items.push(scalar(rest));
      }
    }
    return items;
  }
  const mapping: { [key: string]: YamlValue } = {};
  while (state.position < lines.length && lines[state.position].indent === indent) {
    const line = lines[state.position];
    if (!isMappingEntry(line.text)) {
      warnings.push({ severity: 'warning', code: 'yaml-malformed-line', message: `${file}:${line.number}: expected "key: value", line ignored`, file, line: line.number });
      state.position++;
      continue;
    }
    const colon = line.text.search(/:(\s|$)/);
    const key = scalar(line.text.slice(0, colon));
    const rest = line.text.slice(colon + 1).trim();
    state.position++;
    mapping[key] = rest === '' ? nested(lines, state, indent, file, warnings) ?? '' : scalar(rest);
  }
  return mapping;
}

function nested(lines: Line[], state: { position: number }, indent: number, file: string, warnings: Finding[]): YamlValue | undefined {
  const next = lines[state.position];
  // A sequence may sit at the same indentation as its parent key.
  if (next && (next.indent > indent || (next.indent === indent && next.text.startsWith('-')))) {
    return parseBlock(lines, state, next.indent, file, warnings);
  }
  return undefined;
}

function isMappingEntry(text: string): boolean {
  if (text.startsWith('"') || text.startsWith("'")) return /^(["']).*?\1\s*:(\s|$)/.test(text);
  return /^[^\s:][^:]*:(\s|$)/.test(text);
}

function scalar(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length >= 2 && (trimmed[0] === '"' || trimmed[0] === "'") && trimmed.endsWith(trimmed[0])) {
    const inner = trimmed.slice(1, -1);
    return trimmed[0] === '"' ? inner.replace(/\\(["\\])/g, '$1') : inner.replaceAll("''", "'");
  }
  return trimmed;
}

/** A mapping's field when it is a string, else undefined. */
export function yamlString(value: YamlValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function yamlMap(value: YamlValue | undefined): { [key: string]: YamlValue } {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}
