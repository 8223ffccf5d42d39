// An MPLAB for VS Code project (.vscode/*.mplab.json) whose file set globs picomatch cannot
// compile, or compiles into regular expressions V8 backtracks through for ever: found by
// `npm run fuzz` (100,000 inputs: an empty glob, one over 65,536 characters, one too large for
// V8, one nested past the stack each threw) and by hand (5,000 nested `!(` aborted the process,
// `*(*a)b` ran for ever on a 62-character name). Each is a warning naming the file and line;
// the globs that can be used still list their files. `boardbridge context` runs as a real
// process with a timeout, so an abort or a hang fails the test instead of the suite.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliMain, repoRoot } from '../../e2e/run-cli.js';

function projectWithGlobs(include: string[], exclude: string[]) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bb-globs-'));
  const project = path.join(root, 'vscode-blink');
  cpSync(path.join(repoRoot, 'test', 'fixtures', 'mplabx', 'vscode-blink'), project, { recursive: true });
  // A long file name for the backtracking globs to chew on.
  writeFileSync(path.join(project, `${'a'.repeat(60)}.c`), '');
  const file = path.join(project, '.vscode', 'blink.mplab.json');
  const json = JSON.parse(readFileSync(file, 'utf8')) as { fileSets: Array<{ files: unknown[] }> };
  json.fileSets[0].files = [{ include, exclude }];
  writeFileSync(file, JSON.stringify(json, null, 4));
  const run = spawnSync(process.execPath, [cliMain, 'context', project, '--json'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
  });
  expect(run.signal, `boardbridge context did not end (${run.signal})`).toBeNull();
  expect(run.status, run.stderr).toBe(0);
  const context = JSON.parse(run.stdout) as { warnings: Array<{ code: string; message: string }>; project?: unknown };
  return { file, context, text: run.stdout };
}

describe('file set globs in a .mplab.json that picomatch or V8 cannot handle', () => {
  it('are each a warning naming the file and line, and the usable include still lists its files', () => {
    const bad = ['', 'x'.repeat(70_000), '!('.repeat(5000) + 'x' + ')'.repeat(5000), '!(a)'.repeat(150), '*a*a*a*ab', '*(*a)b'];
    const { file, context, text } = projectWithGlobs(['**/*.c', ...bad], []);
    const messages = context.warnings.filter((w) => w.code === 'mplabx-file-set').map((w) => w.message);
    expect(messages).toHaveLength(bad.length);
    for (const message of messages) expect(message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: file set "default": the include glob .* cannot be used \\(.+\\); it selects no file$`));
    expect(messages[0]).toContain('(it is empty)');
    expect(messages[1]).toContain('(70000 characters)');
    expect(messages[2]).toContain('(it is 15001 characters long, over the 1000 boardbridge compiles)');
    expect(messages[3]).toContain('(it has 150 groups "(", over the 16 boardbridge compiles)');
    expect(messages[4]).toContain('wildcards "*"');
    expect(messages[5]).toContain('inside a group');
    expect(text).toContain('src/main.c');
  });

  it('lists no file of an entry whose exclude glob cannot be used, and says so', () => {
    const { context, text } = projectWithGlobs(['**/*.c'], ['*(*a)b']);
    expect(context.warnings.map((w) => w.message)).toContainEqual(expect.stringContaining('the exclude glob "*(*a)b" cannot be used (it has a wildcard "*" inside a group "( )", which boardbridge does not compile); what it leaves out is unknown, so no file of this entry is listed'));
    expect(text).not.toContain('src/main.c');
  });
});
