// Patterns from agents and people run with a time limit: a pattern that backtracks for ever
// is stopped with a clear error instead of stopping the bridge's thread, a simple one runs
// inline, matches are the same as JavaScript's, and the worker never keeps a process alive.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BoundedRegex, RegexTooSlowError, withoutQuantifiers } from '../../boards/bounded-regex.js';
import { parseAnswer, formFields } from '../../bridge/services/elicitation/form-fields.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
// Exponential in JavaScript's backtracking engine: 2^40 ways to fail on a line of a's and a b.
const EVIL = '^(a|a)*$';
const line = `${'a'.repeat(40)}b`;

describe('BoundedRegex', () => {
  it('stops a pattern that backtracks past its budget with RegexTooSlowError, and the next match works', () => {
    const evil = new BoundedRegex(EVIL, '', 300);
    let error: unknown;
    try {
      evil.test(line);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RegexTooSlowError);
    expect((error as Error).message).toContain('/^(a|a)*$/ took longer than 0.3 s on 41 characters');
    // A new worker takes the next pattern.
    expect(new BoundedRegex('temp=(\\d+)\\.(\\d)').exec('boot\ntemp=21.5\n')).toEqual({ groups: ['temp=21.5', '21', '5'], index: 5 });
    expect(new BoundedRegex(EVIL).test('aaaa')).toBe(true);
  });

  it('matches as JavaScript does, with flags, and refuses a pattern that is not one at construction', () => {
    for (const [source, flags, text] of [['READY', '', 'x READY'], ['ready', 'i', 'READY'], ['^b', 'm', 'a\nb'], ['(?<v>\\d+) mV', '', 'at 330 mV'], ['x+', 'g', 'axx']] as const) {
      const native = new RegExp(source, flags.replace('g', '')).exec(text);
      expect(new BoundedRegex(source, flags).exec(text)).toEqual(native ? { groups: [...native], index: native.index } : null);
    }
    expect(() => new BoundedRegex('(unclosed')).toThrow(SyntaxError);
  });

  it('runs a pattern without quantifiers inline: those cannot backtrack beyond a constant factor', () => {
    expect(withoutQuantifiers('hello from the emulated uno')).toBe(true);
    expect(withoutQuantifiers('(?:OK|ERROR) \\d\\*[*+?]')).toBe(true);
    expect(withoutQuantifiers('tick \\d+')).toBe(false);
    expect(withoutQuantifiers('a{2}')).toBe(false);
    expect(withoutQuantifiers('colou?r')).toBe(false);
  });

  it('leaves no worker keeping a process alive after a match', () => {
    const script = `import('${path.join(repoRoot, 'dist/boards/bounded-regex.js')}').then((m) => console.log(new m.BoundedRegex('a+b').test('aab')))`;
    expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 }).trim()).toBe('true');
  });

  it("accepts a form answer when the agent's field pattern backtracks too long (not checked), and still checks a good one", () => {
    const [name] = formFields({ type: 'object', properties: { name: { type: 'string', pattern: EVIL } } });
    expect(parseAnswer(name, line)).toEqual({ value: line });
    const [pin] = formFields({ type: 'object', properties: { pin: { type: 'string', pattern: '^D\\d+$' } } });
    expect(parseAnswer(pin, 'A0')).toEqual({ error: 'must match ^D\\d+$' });
  });
});
