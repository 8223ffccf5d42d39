// The layers of docs/architecture.md hold: every import of the sources runs down its table of
// ranks, and no file reaches itself through its imports. The same check runs on small trees
// written here, so that a rule it should enforce is seen to fail.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { importViolations, readImports, readLayerTable } from './support/import-rules.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC = 'docs/architecture.md';

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** A repository of its own: a tsconfig compiling `src/`, the rules' table, and the given files. */
function tree(files: Record<string, string>, table = '| 1 | `src/top` | |\n| 2 | `src/middle` | |\n| 3 | `src/bottom` | |\n'): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bb-layers-'));
  trees.push(root);
  const all: Record<string, string> = {
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', resolveJsonModule: true, strict: true }, include: ['src'] }),
    [DOC]: `# Layers\n\n## Import rules\n\n| rank | modules | what |\n|---|---|---|\n${table}\n## Next\n\n| 9 | \`src\` | not a rule: another section |\n`,
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('the import rules of docs/architecture.md', () => {
  it('hold for every source file: imports run down the table, and no file imports itself round a cycle', () => {
    const imports = readImports(repoRoot);
    // The check read the real tree: the layers it guards are there and import each other.
    expect(imports.files).toContain('platform/arduino/resolve.ts');
    expect(imports.edges.some((edge) => edge.from.startsWith('boards/') && edge.to.startsWith('platform/arduino/'))).toBe(true);
    expect(importViolations(repoRoot, DOC, imports)).toEqual([]);
  });

  it('are read from the one table of the document, each row a rank and its modules', () => {
    const rows = readLayerTable(path.join(repoRoot, DOC));
    const ranks = new Map(rows.flatMap((row) => row.modules.map((module) => [module, row.rank] as const)));
    expect(ranks.get('bridge/session')).toBeLessThan(ranks.get('bridge/mcp')!);
    expect(ranks.get('boards')).toBeLessThan(ranks.get('context-providers')!);
    expect(ranks.get('context-providers')).toBeLessThan(ranks.get('platform')!);
    expect(ranks.get('platform')).toBeLessThan(ranks.get('boards/data')!);
  });

  it('allow an import down the table, a type import included', () => {
    const root = tree({
      'src/top/a.ts': "import { b } from '../middle/b.js';\nimport type { C } from '../bottom/c.js';\nexport const a: C = b;\n",
      'src/middle/b.ts': "import { c } from '../bottom/c.js';\nexport const b = c;\n",
      'src/bottom/c.ts': 'export type C = number;\nexport const c: C = 1;\n',
    });
    expect(importViolations(root, DOC)).toEqual([]);
  });

  it('fail an import up the table, naming the file, its line and the import', () => {
    const root = tree({
      'src/top/a.ts': 'export const a = 1;\n',
      'src/bottom/c.ts': "// import { a } from '../top/a.js' in a comment is not an import\n\nimport { a } from '../top/a.js';\nexport const c = a;\n",
    });
    expect(importViolations(root, DOC)).toEqual([
      `src/bottom/c.ts:3 imports "../top/a.js" (src/top/a.ts): src/bottom (rank 3) may not import src/top (rank 1), an import up; ${DOC} lets a module import only lower ranks`,
    ]);
  });

  it('fail a type-only import, an export-from and an import() up the table as well', () => {
    const root = tree({
      'src/top/a.ts': 'export type A = string;\nexport const a = 1;\n',
      'src/bottom/c.ts': "import type { A } from '../top/a.js';\nexport { a } from '../top/a.js';\nexport const later = () => import('../top/a.js');\nexport type Later = import('../top/a.js').A | A;\n",
    });
    expect(importViolations(root, DOC).map((problem) => problem.split(' (')[0])).toEqual([
      'src/bottom/c.ts:1 imports "../top/a.js"',
      'src/bottom/c.ts:2 imports "../top/a.js"',
      'src/bottom/c.ts:3 imports "../top/a.js"',
      'src/bottom/c.ts:4 imports "../top/a.js"',
    ]);
  });

  it('fail an import between two modules of the same rank', () => {
    const root = tree(
      { 'src/left/a.ts': "import { b } from '../right/b.js';\nexport const a = b;\n", 'src/right/b.ts': 'export const b = 1;\n' },
      '| 1 | `src/left`, `src/right` | |\n',
    );
    expect(importViolations(root, DOC)).toEqual([
      `src/left/a.ts:1 imports "../right/b.js" (src/right/b.ts): src/left (rank 1) may not import src/right (rank 1), an import sideways; ${DOC} lets a module import only lower ranks`,
    ]);
  });

  it('fail a cycle among files of one module, naming each import in it', () => {
    const root = tree({
      'src/middle/b.ts': "import type { D } from './d.js';\nexport type B = { d?: D };\n",
      'src/middle/d.ts': "import type { B } from './b.js';\nexport type D = { b?: B };\n",
    });
    expect(importViolations(root, DOC)).toEqual([
      'import cycle among src/middle/b.ts, src/middle/d.ts: src/middle/b.ts:1 imports "./d.js"; src/middle/d.ts:1 imports "./b.js"',
    ]);
  });

  it('fail a file whose folder is in no row, and read a JSON import as one into its module', () => {
    const root = tree({
      'src/stray/e.ts': 'export const e = 1;\n',
      'src/bottom/c.ts': "import data from '../top/facts.json' with { type: 'json' };\nexport const c = data;\n",
      'src/top/facts.json': '{ "pins": 14 }\n',
    });
    expect(importViolations(root, DOC)).toEqual([
      `src/stray/e.ts is in no module of the import rules in ${DOC}: add its folder to the table`,
      `src/bottom/c.ts:1 imports "../top/facts.json" (src/top/facts.json): src/bottom (rank 3) may not import src/top (rank 1), an import up; ${DOC} lets a module import only lower ranks`,
    ]);
  });

  it('stop at a relative import the compiler cannot resolve, naming it', () => {
    const root = tree({ 'src/top/a.ts': "import { gone } from './gone.js';\nexport const a = gone;\n" });
    expect(() => importViolations(root, DOC)).toThrow('src/top/a.ts:1: cannot resolve import "./gone.js"');
  });
});
