// Finds tests that assert nothing: an `it(…)`/`test(…)` (with .each, .runIf, .skipIf, .only,
// .concurrent) whose body calls no assertion. An assertion is a call of `expect…` (expect,
// expect.soft, expectGolden, any imported helper or method named expect…) or of a function of the
// same file that itself asserts.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const TEST_CALL = /^(it|test)(\.\w+(\([^)]*\))?)*$/;

function calls(node: ts.Node): string[] {
  const names: string[] = [];
  const visit = (child: ts.Node): void => {
    if (ts.isCallExpression(child)) {
      let callee: ts.Expression = child.expression;
      while (ts.isPropertyAccessExpression(callee) || ts.isCallExpression(callee)) {
        // A method named expect… (a serial reader's `expect(/pattern/)`) asserts as well.
        if (ts.isPropertyAccessExpression(callee)) names.push(callee.name.text);
        callee = callee.expression;
      }
      if (ts.isIdentifier(callee)) names.push(callee.text);
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return names;
}

/** `file:line: test name` for every test in `file` that calls no assertion. */
export function testsWithoutAssertions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  // Functions of this file by name, and the names each calls.
  const local = new Map<string, string[]>();
  const collect = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name && node.body) local.set(node.name.text, calls(node.body));
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))) {
      local.set(node.name.text, calls(node.initializer.body));
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  const asserting = new Set<string>();
  const asserts = (name: string): boolean => name.startsWith('expect') || asserting.has(name);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, called] of local) {
      if (!asserting.has(name) && called.some(asserts)) {
        asserting.add(name);
        grew = true;
      }
    }
  }
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = ts.isCallExpression(node.expression) ? node.expression.expression : node.expression;
      const body = node.arguments.find((arg) => ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) as ts.ArrowFunction | ts.FunctionExpression | undefined;
      if (TEST_CALL.test(callee.getText(source)) && body && node.arguments[0] && !calls(body.body).some(asserts)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push(`${file}:${line}: ${node.arguments[0].getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
