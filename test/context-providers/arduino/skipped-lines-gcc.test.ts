// Ground truth from the real compiler: the preprocessor passes over the rest of a directive line it
// does not read (a skipped group's directives, #else and #endif) natively when the rest holds no
// literal and no /* (c-tokens.ts, PLAIN_REST), and token by token otherwise. 400 groups whose
// directive lines end in the things that decide it (// comments holding quotes and /*, strings and
// character literals holding // and /*, a /* comment that hides the next #endif or #else, digit
// separators, raw strings) must define exactly the macros arm-none-eabi-gcc -E -dM defines.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { preprocess } from '../../../context-providers/arduino/preprocessor.js';
import { TMP } from './paths.js';
import { seeded } from '../../support/seeded-random.js';

// What can end a directive line. Each keeps the file well formed: literals close on their line,
// and a comment that goes on to the next lines closes there.
const RESTS = [
  'plain words + 1',
  'f(a, b) // a comment with \' and " and /* in it',
  '"a string // with /* in it"',
  "'x' '\\'' '\"'",
  '/* a short comment */ after',
  '1\'000\'000 // C++14 digit separators',
  'R"d(raw " \' /* // text)d"',
  'a / b /c',
  '//* a line comment that starts like a block one',
  '/* a comment that goes on',
  '',
];
const DIRECTIVES = ['#if 1', '#ifdef X', '#define Y', '#error words', '#pragma thing', '#endif', '#else', '#elif 1', '#include "missing.h"'];

test('the rest of a line that is not read is passed over as arm-none-eabi-gcc passes over it', () => {
  const random = seeded(27);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const lines: string[] = [];
  for (let group = 0; group < 400; group++) {
    // A skipped group, a directive line in it, and what the compiler decides after it.
    lines.push('#if 0');
    const rest = pick(RESTS);
    const directive = pick(DIRECTIVES);
    // A comment the rest opens closes on the next line, hiding the #endif there; #else, #elif and
    // #endif end a nested group, so the outer one counts as gcc counts it.
    const next = rest.endsWith('goes on') ? '#endif hidden by the comment */' : '';
    if (directive.startsWith('#if')) lines.push(`${directive} ${rest}`, next, '#endif');
    else if (directive === '#endif') lines.push('#if 0 /* nested */', `${directive} ${rest}`, next);
    else if (directive === '#else' || directive.startsWith('#elif')) lines.push('#if 0 /* nested */', `${directive} ${rest}`, next, '#endif');
    else lines.push(`${directive} ${rest}`, next);
    lines.push(`#define SKIPPED_${group}`, '#else', `#define TAKEN_${group}`, '#endif', `#define AFTER_${group}`);
  }
  const dir = join(TMP, 'skipped-lines-gcc');
  mkdirSync(dir, { recursive: true });
  const header = join(dir, 'skipped.h');
  writeFileSync(header, `${lines.join('\n')}\n`);

  const gcc = execFileSync('arm-none-eabi-gcc', ['-E', '-dM', '-x', 'c++', '-std=gnu++17', header], { encoding: 'utf8' });
  const theirs = gcc.split('\n').map((line) => /^#define ((?:SKIPPED|TAKEN|AFTER)_\d+)\b/.exec(line)?.[1]).filter((name): name is string => name !== undefined).sort();
  const ours = [...preprocess([header], { defines: {}, includeDirs: [], follow: () => false }).macros.keys()].sort();
  // The file means something: every group's #else is taken and every group closes.
  expect(theirs.filter((name) => name.startsWith('TAKEN_'))).toHaveLength(400);
  expect(theirs.filter((name) => name.startsWith('AFTER_'))).toHaveLength(400);
  expect(ours).toEqual(theirs);
});
