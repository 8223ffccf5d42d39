// analogWrite on a PWM pin whose timer a library takes. Servo gives each object an index as it is
// constructed (Servo::Servo, ServoCount++); the object with index k runs on the
// (k / SERVOS_PER_TIMER)th timer of ServoTimers.h's sequence once it is attached. So the sketch's
// Servo objects are counted in declaration order (file-scope declarations, arrays of a constant
// size), and a timer is taken when an object of its range is attached. When the count or the
// attached objects cannot be told from the source, only the first timer is known to be taken.
import { basename } from 'node:path';
import type { Finding } from '../types.js';
import type { Token } from './c-tokens.js';
import type { LibraryTimers } from './library-timers.js';

/** What the check needs of the sketch's symbols: its active tokens and the values of an argument. */
export interface SketchValues {
  tokens: Token[];
  valueOf(tokens: Token[]): number | undefined;
  valuesOf(tokens: Token[], at: number): number[] | undefined;
}

interface ServoUse {
  /** Whether any servo is attached at all. */
  attached: boolean;
  /** The timers (their place in the sequence) the attached objects run on; undefined when not countable. */
  timers?: Set<number>;
  /** Servo objects the sketch declares, when countable. */
  objects?: number;
}

const isMember = (tokens: Token[], index: number): boolean => ['.', '->', '::'].includes(tokens[index - 1]?.text ?? '');

function closing(tokens: Token[], open: number, pair: [string, string]): number {
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    if (tokens[index].text === pair[0]) depth++;
    else if (tokens[index].text === pair[1] && --depth === 0) return index;
  }
  return tokens.length;
}

/** The receiver of `x.attach(` or `x[i].attach(`, or undefined when it is not a plain name. */
function receiverOf(tokens: Token[], dot: number): string | undefined {
  let index = dot - 1;
  if (tokens[index]?.text === ']') {
    let depth = 0;
    for (; index >= 0; index--) {
      if (tokens[index].text === ']') depth++;
      else if (tokens[index].text === '[' && --depth === 0) break;
    }
    index--;
  }
  const token = tokens[index];
  return token?.kind === 'identifier' && !isMember(tokens, index) ? token.text : undefined;
}

/** The sketch's `Servo` objects in construction order, and which timers the attached ones take. */
export function servoUse(values: SketchValues, perTimer: number, type = 'Servo'): ServoUse {
  const { tokens } = values;
  const objects: Array<{ name: string; count: number }> = [];
  let countable = true;
  let depth = 0;
  for (let index = 0; index < tokens.length; index++) {
    const text = tokens[index].text;
    if (text === '{') depth++;
    if (text === '}') depth--;
    if (text !== type || tokens[index].kind !== 'identifier' || isMember(tokens, index)) continue;
    const before = tokens[index - 1]?.text;
    const after = tokens[index + 1];
    // A parameter, pointer or reference makes no new object; a class of that name is no object.
    if (before === '(' || before === ',' || before === 'class' || before === 'struct' || after?.text === '*' || after?.text === '&' || after?.text === '::') continue;
    // `new Servo`, `Servo` members or locals, containers of them: objects this count does not see.
    if (before === 'new' || before === '<' || after?.kind !== 'identifier' || depth > 0) {
      countable = false;
      continue;
    }
    // `Servo a, b[4];`: each declarator up to the semicolon.
    let at = index + 1;
    while (at < tokens.length && tokens[at].kind === 'identifier') {
      const name = tokens[at].text;
      let count = 1;
      at++;
      if (tokens[at]?.text === '[') {
        const end = closing(tokens, at, ['[', ']']);
        const size = values.valueOf(tokens.slice(at + 1, end));
        if (size === undefined) countable = false;
        count = size ?? 1;
        at = end + 1;
      }
      objects.push({ name, count });
      while (at < tokens.length && tokens[at].text !== ',' && tokens[at].text !== ';') at = tokens[at].text === '(' ? closing(tokens, at, ['(', ')']) + 1 : at + 1;
      if (tokens[at]?.text !== ',') break;
      at++;
    }
  }
  const attachedNames = new Set<string>();
  let attached = false;
  for (let index = 1; index < tokens.length - 1; index++) {
    const arrow = tokens[index - 1].text;
    if (tokens[index].text !== 'attach' || tokens[index + 1].text !== '(' || (arrow !== '.' && arrow !== '->')) continue;
    attached = true;
    const receiver = arrow === '.' ? receiverOf(tokens, index - 1) : undefined;
    // Through a pointer, or on an object this count does not see: which index is not known.
    if (receiver && objects.some((object) => object.name === receiver)) attachedNames.add(receiver);
    else countable = false;
  }
  if (!countable || objects.length === 0) return { attached };
  const timers = new Set<number>();
  let next = 0;
  for (const object of objects) {
    if (attachedNames.has(object.name)) for (let index = next; index < next + object.count; index++) timers.add(Math.floor(index / perTimer));
    next += object.count;
  }
  return { attached, timers, objects: next };
}

/** WARNING at each analogWrite on a pin of a timer the sketch's servos take. */
export function libraryTimerFindings(timers: LibraryTimers[], values: SketchValues, pwmPins: number[], boardName: string): Finding[] {
  const findings: Finding[] = [];
  const { tokens } = values;
  for (const entry of timers) {
    const per = entry.perTimer ?? Number.POSITIVE_INFINITY;
    const use = servoUse(values, per);
    if (!use.attached) continue;
    // Not countable: the first timer of the sequence is taken by any attached servo; the others are unknown.
    const taken = [...(use.timers ?? [0])].sort((a, b) => a - b).filter((order) => order < entry.timers.length);
    const takenPins = new Set(taken.flatMap((order) => entry.timers[order].pins));
    const free = pwmPins.filter((pin) => !takenPins.has(pin));
    for (let index = 0; index < tokens.length - 1; index++) {
      if (tokens[index].text !== 'analogWrite' || tokens[index + 1].text !== '(' || isMember(tokens, index)) continue;
      const end = closing(tokens, index + 1, ['(', ')']);
      let comma = index + 2;
      for (let nesting = 0; comma < end && !(nesting === 0 && tokens[comma].text === ','); comma++) nesting += tokens[comma].text === '(' ? 1 : tokens[comma].text === ')' ? -1 : 0;
      const pins = values.valuesOf(tokens.slice(index + 2, comma), index) ?? [];
      const pin = pins.find((value) => takenPins.has(value));
      if (pin === undefined) continue;
      const order = taken.find((place) => entry.timers[place].pins.includes(pin))!;
      const timer = entry.timers[order];
      const range = Number.isFinite(per) && entry.timers.length > 1 ? ` for servos ${order * per + 1}–${(order + 1) * per}` : '';
      const count = use.objects !== undefined ? `; this sketch declares ${use.objects} ${use.objects === 1 ? 'servo' : 'servos'}` : entry.timers.length > 1 ? '; how many servos the sketch attaches is not known, so only the first timer is checked' : '';
      findings.push({
        severity: 'warning',
        code: 'library-timer',
        file: tokens[index].file,
        line: tokens[index].line,
        message: `analogWrite(${pin}, …): pin ${pin}'s PWM comes from ${timer.timer}, which the ${entry.library} library takes${range} on ${boardName} (${basename(timer.source.file)}:${timer.source.line})${count}: ${entry.silencesPwm ? `while a servo is attached, pin ${pin} gives no PWM` : 'analogWrite there and the servos disturb each other'}`,
        suggestion: `Use a PWM pin on a timer ${entry.library} leaves free${free.length > 0 ? ` (${free.map((other) => `D${other}`).join(', ')})` : ''}, or detach the servos before analogWrite.`,
      });
    }
  }
  return findings;
}
