// Which AVR timer drives each PWM pin, from the variant's digital_pin_to_timer_PGM table (active
// under ARDUINO_MAIN, as wiring_digital.c compiles it), and which timer tone() takes, from the
// core's Tone.cpp tone_pin_to_timer_PGM for this MCU: while a tone plays, the PWM pins of that
// timer stop (Tone.cpp reprograms it), and pins of one timer share its frequency.
import { existsSync } from 'node:fs';
import { join } from '../../platform/path-join.js';
import type { SourceRef } from '../types.js';
import type { Token } from './c-tokens.js';
import { preprocess, type UntokenizedLines } from './preprocessor.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import type { VariantHeader } from './variant-header.js';

export interface AvrTimers {
  /** Timer name (`Timer 2`) → its PWM pins, with the table's line. */
  groups: Array<{ timer: string; pins: number[]; source?: SourceRef }>;
  /** Pin → `Timer 2B`. */
  pinTimers: Map<number, { text: string; timer: string; source: SourceRef }>;
  tone?: { timer: string; source: SourceRef };
  files: string[];
}

/** The initializer of `name[] = { … }` as its elements' tokens. */
function arrayElements(tokens: Token[], name: string): Token[][] | undefined {
  const start = tokens.findIndex((token, index) => token.text === name && tokens[index + 1]?.text === '[');
  if (start < 0) return undefined;
  const open = tokens.findIndex((token, index) => index > start && token.text === '{');
  if (open < 0) return undefined;
  const elements: Token[][] = [[]];
  for (let index = open + 1; index < tokens.length && tokens[index].text !== '}'; index++) {
    if (tokens[index].text === ',') elements.push([]);
    else elements[elements.length - 1].push(tokens[index]);
  }
  return elements.filter((element) => element.length > 0);
}

/**
 * The tokens of `name[] = { … }`, from the runs of lines read untokenized: made only for the runs
 * from the one that declares it on (its initializer may go on across #if lines). Undefined when
 * no run declares it, or its `}` has not been read yet.
 */
function tableTokens(runs: UntokenizedLines[], name: string): Token[] | undefined {
  for (let index = 0; index < runs.length; index++) {
    if (!runs[index].text.includes(name)) continue;
    const tokens = runs.slice(index).flatMap((run) => run.tokens());
    const at = tokens.findIndex((token, next) => token.text === name && tokens[next + 1]?.text === '[');
    if (at < 0) continue;
    const close = tokens.findIndex((token, next) => next > at && token.text === '}');
    return close < 0 ? undefined : tokens.slice(at, close + 1);
  }
  return undefined;
}

export function readAvrTimers(board: ResolvedBoard, variant: VariantHeader): AvrTimers | undefined {
  if (board.architecture !== 'avr' || !variant.header) return undefined;
  // Variants that include another's table (`#include "../standard/pins_arduino.h"`) are followed.
  const variants = join(board.platformPath, 'variants');
  const pinTable = preprocess([variant.header], { defines: { ...variant.defines, ARDUINO_MAIN: '1' }, includeDirs: [], follow: (path) => path.startsWith(`${variants}/`) || (board.variantPath !== undefined && path.startsWith(`${board.variantPath}/`)) });
  const elements = arrayElements(pinTable.tokens, 'digital_pin_to_timer_PGM');
  if (!elements) return undefined;
  const pinTimers: AvrTimers['pinTimers'] = new Map();
  const groups = new Map<string, { timer: string; pins: number[]; source?: SourceRef }>();
  elements.forEach((element, pin) => {
    const match = /^TIMER(\d)([A-D]?)$/.exec(element[0].text);
    if (!match) return;
    const timer = `Timer ${match[1]}`;
    const source = { file: element[0].file ?? variant.header!, line: element[0].line };
    pinTimers.set(pin, { text: `${timer}${match[2]}`, timer, source });
    const group = groups.get(timer) ?? { timer, pins: [], source };
    group.pins.push(pin);
    groups.set(timer, group);
  });
  const result: AvrTimers = { groups: [...groups.values()], pinTimers, files: pinTable.files };
  const toneFile = join(board.corePath, 'Tone.cpp');
  if (existsSync(toneFile)) {
    // The table is a fifth of the way into the file (one for each MCU family, in one #if group):
    // the reading stops once the table is read, and only its lines are tokenized.
    const tone = preprocess([toneFile], {
      defines: variant.defines,
      includeDirs: [],
      follow: () => false,
      tokensOf: () => false,
      until: (read) => tableTokens(read.untokenized, 'tone_pin_to_timer_PGM') !== undefined,
    });
    const first = arrayElements(tableTokens(tone.untokenized, 'tone_pin_to_timer_PGM') ?? [], 'tone_pin_to_timer_PGM')?.[0]?.[0];
    if (first?.kind === 'number') result.tone = { timer: `Timer ${first.text}`, source: { file: toneFile, line: first.line } };
    result.files.push(toneFile);
  }
  return result;
}
