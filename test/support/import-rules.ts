// The import rules of docs/architecture.md, checked on the sources as the compiler reads them:
// every file tsconfig.json compiles, every import, export-from, `import()` and `import('…')` type
// (comments and strings are not imports), resolved with the compiler's own module resolution.
// The rules come from one place: the table under "## Import rules" in the architecture document.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One row of the table: a rank (1 is the top) and the modules on it, each a folder of the repository. */
export interface LayerRow {
  rank: number;
  modules: string[];
}

export interface ImportEdge {
  /** Files relative to the repository, with `/`. */
  from: string;
  to: string;
  /** The specifier as written, and its line in `from`. */
  specifier: string;
  line: number;
}

/**
 * Reads the table under `## Import rules`: `| rank | modules | … |` rows, modules in backticks,
 * comma-separated. Throws, naming the document, when there is none or a row cannot be read.
 */
export function readLayerTable(doc: string): LayerRow[] {
  const text = readFileSync(doc, 'utf8');
  const start = text.search(/^## Import rules\s*$/m);
  if (start < 0) throw new Error(`${doc}: no "## Import rules" section; the import check reads its table`);
  const section = text.slice(start).split(/\n(?=## )/)[0];
  const rows: LayerRow[] = [];
  for (const [index, line] of section.split('\n').entries()) {
    const cells = /^\|\s*(\d+)\s*\|([^|]*)\|/.exec(line);
    if (!cells) continue;
    const modules = [...cells[2].matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\/$/, ''));
    if (modules.length === 0) throw new Error(`${doc}: the import rules' row ${index} names no module in backticks: ${line}`);
    rows.push({ rank: Number(cells[1]), modules });
  }
  if (rows.length === 0) throw new Error(`${doc}: the "## Import rules" section has no | rank | modules | rows`);
  return rows;
}

/**
 * Every import between files of the repository, from the files `tsconfig` compiles and every
 * source file they reach (which the compiler compiles too).
 */
export function readImports(root: string, tsconfig = 'tsconfig.json'): { files: string[]; edges: ImportEdge[] } {
  const configFile = path.join(root, tsconfig);
  const read = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file));
  if (read.error) throw new Error(`${configFile}: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`);
  const config = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
  const cache = ts.createModuleResolutionCache(root, (name) => name, config.options);
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const queue = config.fileNames.filter((file) => !file.endsWith('.d.ts'));
  const seen = new Set(queue);
  const edges: ImportEdge[] = [];
  for (let next = 0; next < queue.length; next++) {
    const file = queue[next];
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const add = (literal: ts.Node) => {
      if (!ts.isStringLiteralLike(literal)) return;
      const specifier = literal.text;
      const resolved = ts.resolveModuleName(specifier, file, config.options, ts.sys, cache).resolvedModule;
      const line = source.getLineAndCharacterOfPosition(literal.getStart()).line + 1;
      if (!resolved) {
        if (specifier.startsWith('.')) throw new Error(`${rel(file)}:${line}: cannot resolve import "${specifier}"`);
        return;
      }
      const target = resolved.resolvedFileName;
      if (resolved.isExternalLibraryImport || path.relative(root, target).startsWith('..')) return;
      edges.push({ from: rel(file), to: rel(target), specifier, line });
      if (/\.[cm]?ts$/.test(target) && !target.endsWith('.d.ts') && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    };
    const visit = (node: ts.Node): void => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) add(node.moduleSpecifier);
      else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) add(node.arguments[0]);
      else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { files: queue.map(rel), edges };
}

/** The module a file belongs to: the longest module of the table its path starts with. */
export function moduleOf(file: string, rows: LayerRow[]): { module: string; rank: number } | undefined {
  let best: { module: string; rank: number } | undefined;
  for (const row of rows) {
    for (const module of row.modules) {
      if ((file === module || file.startsWith(`${module}/`)) && (!best || module.length > best.module.length)) best = { module, rank: row.rank };
    }
  }
  return best;
}

/** Cycles among files, each as the files of one strongly connected component (Tarjan). */
export function fileCycles(files: string[], edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const edge of edges) if (next.has(edge.to)) next.get(edge.from)?.push(edge.to);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || next.get(file)!.includes(file)) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return cycles;
}

/**
 * Every break of the rules, one sentence each: a file in no module of the table, an import that
 * runs up or sideways (to a module of the same or a higher rank), a cycle among files.
 */
export function importViolations(root: string, doc: string, imports = readImports(root)): string[] {
  const rows = readLayerTable(path.join(root, doc));
  const { files, edges } = imports;
  const problems: string[] = [];
  for (const file of files) {
    if (!moduleOf(file, rows)) problems.push(`${file} is in no module of the import rules in ${doc}: add its folder to the table`);
  }
  for (const edge of edges) {
    const from = moduleOf(edge.from, rows);
    const to = moduleOf(edge.to, rows);
    if (!from) continue;
    if (!to) {
      problems.push(`${edge.from}:${edge.line} imports "${edge.specifier}" (${edge.to}), which is in no module of the import rules in ${doc}`);
      continue;
    }
    if (from.module === to.module) continue;
    if (to.rank <= from.rank) {
      const way = to.rank === from.rank ? 'sideways' : 'up';
      problems.push(`${edge.from}:${edge.line} imports "${edge.specifier}" (${edge.to}): ${from.module} (rank ${from.rank}) may not import ${to.module} (rank ${to.rank}), an import ${way}; ${doc} lets a module import only lower ranks`);
    }
  }
  for (const cycle of fileCycles(files, edges)) {
    const inside = edges.filter((edge) => cycle.includes(edge.from) && cycle.includes(edge.to));
    problems.push(`import cycle among ${cycle.join(', ')}: ${inside.map((edge) => `${edge.from}:${edge.line} imports "${edge.specifier}"`).join('; ')}`);
  }
  return problems;
}
