// The OpenMV analysis never throws or hangs: a script too deeply nested or with a word
// too long to parse gets a finding that says so (the parser and tree walks recurse per
// level and ran out of stack, "Cannot read properties of undefined (reading
// 'isAnonymous')" from @lezer/common; error recovery re-reads a long word per attempt).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeScript } from '../../../context-providers/openmv/analyze-script.js';
import { lookupBoard } from '../../../context-providers/openmv/board-facts.js';
import { scriptExtents } from '../../../context-providers/openmv/python-limits.js';

const fixtures = fileURLToPath(new URL('../../fixtures/openmv/', import.meta.url));
const repo = path.resolve(fixtures, '..', '..', '..');
const found = lookupBoard('OPENMV4');
const board = found.ok ? found.board : undefined!;

describe('a deeply nested OpenMV script', () => {
  it('with parentheses 10,000 deep gets a finding naming the line, not an exception', () => {
    const script = readFileSync(`${fixtures}scripts/vga_rgb565_h7.py`, 'utf8');
    const lines = script.split('\n');
    const text = [...lines.slice(0, 3), `x = ${'('.repeat(10_000)}1${')'.repeat(10_000)}`, ...lines.slice(3)].join('\n');
    const analysis = analyzeScript(text, { board, file: 'main.py' });
    expect(analysis.findings).toContainEqual(
      expect.objectContaining({ code: 'script-not-analysed', severity: 'warning', line: 4, file: 'main.py', message: expect.stringContaining('brackets nest 10000 deep at line 4') }),
    );
    expect(analysis.frames).toEqual([]);
  });

  it('that exhausts the parser stack another way is reported the same way (a node process with a small stack)', () => {
    const code = `
      const { analyzeScript, knownBoards } = await import(${JSON.stringify(path.join(repo, 'dist/context-providers/openmv/index.js'))});
      const analysis = analyzeScript('import sensor\\nx = 1' + '+1'.repeat(5000) + '\\n', { board: knownBoards()[0] });
      console.log(JSON.stringify(analysis.findings));`;
    const run = spawnSync(process.execPath, ['--stack-size=200', '--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const findings = JSON.parse(run.stdout) as Array<{ code: string; message: string }>;
    expect(findings[0]).toMatchObject({ code: 'script-not-analysed', message: expect.stringMatching(/^the script is not analysed: (the Python parser gave up on it|a check failed on it) \(Maximum call stack size exceeded\)/) });
  });

  it('is measured outside strings and comments', () => {
    expect(scriptExtents('x = "((((" # ((((\ny = [(1)]\n').nesting).toEqual({ size: 2, line: 2 });
    expect(scriptExtents("s = '''\n(((\n'''\nf(a[{}])").nesting).toEqual({ size: 3, line: 4 });
  });

  it('with a 60,000-digit number in a broken call is not parsed (found by the fuzz suite: the parser took 4 to 10 s)', () => {
    const text = `import sensor\nsensor.reset()\nsensor.set_framesize(sensor.${'9'.repeat(60_000)})\n`;
    const analysis = analyzeScript(text, { board, file: 'main.py' });
    expect(analysis.findings).toContainEqual(
      expect.objectContaining({ code: 'script-not-analysed', line: 3, message: 'the script is not analysed: line 3 has a name or number of 60007 characters, longer than the 1000 boardbridge reads' }),
    );
    expect(scriptExtents('x = "' + 'z'.repeat(5000) + '"  # ' + 'w'.repeat(5000)).word.size).toBe(1);
  });
});
