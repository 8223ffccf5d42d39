// arduino-cli.yaml and sketch.yaml, read with the `yaml` package under the failsafe schema
// (every scalar a string, as arduino-cli's Go structs take them), with the line of every
// node kept so each fact can cite file:line.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { Finding } from '../finding.js';
import { readRegularFileSync } from '../regular-file.js';

export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue };
export type YamlPath = ReadonlyArray<string | number>;

export interface YamlResult {
  value: YamlValue | undefined;
  warnings: Finding[];
  /** The 1-based line where the value at `path` starts (`['profiles', 'uno', 'fqbn']`), if it is there. */
  lineOf(path: YamlPath): number | undefined;
}

export function readYamlFile(file: string): YamlResult {
  let text: string;
  try {
    text = readRegularFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { value: undefined, warnings: [{ severity: 'warning', code: 'yaml-unreadable', message: `${file}: cannot be read (${code})`, file }], lineOf: () => undefined };
  }
  return parseYaml(text, file);
}

export function parseYaml(text: string, file: string): YamlResult {
  const lines = new LineCounter();
  const document = parseDocument(text, { schema: 'failsafe', lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const warnings: Finding[] = [...document.errors, ...document.warnings].map((problem) => {
    const line = lines.linePos(problem.pos[0]).line;
    // The parser's first line of text says what is wrong; the rest is its excerpt of the file.
    const what = problem.message.split('\n')[0];
    return { severity: 'warning', code: 'yaml-syntax', message: `${file}:${line}: ${what}; the rest of the file is read as far as it parses`, file, line };
  });
  const lineOf = (path: YamlPath): number | undefined => {
    const node = document.getIn(path, true) as Node | undefined;
    return node?.range ? lines.linePos(node.range[0]).line : undefined;
  };
  return { value: toValue(document.contents), warnings, lineOf };
}

function toValue(node: unknown): YamlValue | undefined {
  if (isScalar(node)) return node.value === null || node.value === undefined ? '' : String(node.value);
  if (isSeq(node)) return node.items.map((item) => toValue(item) ?? '');
  if (isMap(node)) {
    // Keys come from the file: no `__proto__` or `toString` of Object's.
    const mapping: { [key: string]: YamlValue } = Object.create(null);
    for (const pair of node.items) {
      const key = toValue(pair.key);
      if (typeof key === 'string') mapping[key] = toValue(pair.value) ?? '';
    }
    return mapping;
  }
  return undefined;
}

/** A mapping's field when it is a string, else undefined. */
export function yamlString(value: YamlValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function yamlMap(value: YamlValue | undefined): { [key: string]: YamlValue } {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : Object.create(null);
}
