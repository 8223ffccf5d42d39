// Timers a library takes, read from the installed library's own headers under the board's
// defines: Servo's ServoTimers.h (for its architecture, as Servo.h includes it) lists the timers it
// may use in `timer16_Sequence_t`, in the order it takes them, SERVOS_PER_TIMER servos each. On
// AVR `_timerN` is TimerN; on SAM/SAMD it is the counter TC_FOR_TIMERN names. The PWM pins of a
// taken timer come from the pin map (AVR's digital_pin_to_timer_PGM, a core reader's table).
import { join } from '../../platform/path-join.js';
import type { ContextNote, SourceRef } from '../types.js';
import type { Token } from './c-tokens.js';
import type { Library } from './libraries.js';
import type { PinMap } from './pin-map.js';
import { expandMacros, preprocess } from './preprocessor.js';
import type { ResolvedBoard } from '../../platform/arduino/resolve.js';
import { compileDefines, isInside } from './variant-header.js';

export interface TakenTimer {
  /** As the pin map names it: `Timer 1`, `TC4`. */
  timer: string;
  /** PWM pins of that timer on this board, in pin order. */
  pins: number[];
  source: SourceRef;
}

export interface LibraryTimers {
  library: string;
  /** The `#include` that brings the library in (`Servo.h`). */
  header: string;
  /** In the order the library takes them. */
  timers: TakenTimer[];
  /** Objects one timer serves (Servo's SERVOS_PER_TIMER). */
  perTimer?: number;
  /**
   * AVR's Servo runs its timer in normal mode (TCCRnA = 0), so analogWrite on its pins gives no
   * PWM; elsewhere analogWrite and the servos program one counter, each disturbing the other.
   */
  silencesPwm: boolean;
  files: string[];
}

/** `typedef enum { a, b, … } name;` as its enumerator tokens. */
function enumerators(tokens: Token[], name: string): Token[] {
  const end = tokens.findIndex((token, index) => token.text === name && tokens[index - 1]?.text === '}');
  if (end < 0) return [];
  let open = end - 1;
  while (open >= 0 && tokens[open].text !== '{') open--;
  return tokens.slice(open + 1, end - 1).filter((token, index, list) => token.kind === 'identifier' && (index === 0 || list[index - 1].text === ','));
}

function pwmPinsOf(timer: string, pinMap: PinMap): number[] {
  const pins = new Set<number>();
  for (const [pin, entry] of pinMap.pwmTimers) if (entry.timer === timer) pins.add(pin);
  for (const pin of pinMap.core?.pins ?? []) if (pin.pwm?.timer === timer) pins.add(pin.number);
  return [...pins].sort((a, b) => a - b);
}

/** Servo's timers on this board, when a library the sketch uses states them. */
export function readLibraryTimers(used: Library[], board: ResolvedBoard, pinMap: PinMap): LibraryTimers[] {
  const found: LibraryTimers[] = [];
  for (const library of used) {
    if (!library.headers.includes('Servo.h')) continue;
    const header = join(library.sourceDir, 'Servo.h');
    const result = preprocess([header], { defines: compileDefines(board), includeDirs: [], follow: (path) => isInside(path, library.dir) });
    const sequence = enumerators(result.tokens, 'timer16_Sequence_t');
    const timers: TakenTimer[] = [];
    for (const entry of sequence) {
      const number = /^_timer(\d+)$/.exec(entry.text)?.[1];
      if (number === undefined) continue;
      // SAM and SAMD name the counter behind each logical timer; AVR's _timerN is TimerN itself.
      const counter = result.macros.get(`TC_FOR_TIMER${number}`);
      const name = counter ? expandMacros(counter.body, result.macros).map((token) => token.text).join('') : board.architecture === 'avr' ? `Timer ${number}` : undefined;
      if (!name) continue;
      timers.push({ timer: name, pins: pwmPinsOf(name, pinMap), source: { file: entry.file ?? header, line: entry.line } });
    }
    if (timers.length === 0) continue;
    const perTimer = Number(expandMacros(result.macros.get('SERVOS_PER_TIMER')?.body ?? [], result.macros).map((token) => token.text).join(''));
    found.push({ library: library.name, header: 'Servo.h', timers, ...(Number.isInteger(perTimer) && perTimer > 0 ? { perTimer } : {}), silencesPwm: board.architecture === 'avr', files: result.files });
  }
  return found;
}

/** "Servo uses Timer 1: analogWrite on D9, D10 gives no PWM while a servo is attached". */
export function libraryTimerNotes(timers: LibraryTimers[]): ContextNote[] {
  return timers.flatMap((entry) => {
    const withPins = entry.timers.filter((timer) => timer.pins.length > 0);
    if (withPins.length === 0) return [];
    const pins = (timer: TakenTimer): string => timer.pins.map((pin) => `D${pin}`).join(', ');
    const per = entry.perTimer;
    const only = entry.timers[0];
    const text = entry.timers.length === 1
      ? entry.silencesPwm
        ? `${entry.library} uses ${only.timer}: analogWrite on ${pins(only)} gives no PWM while a servo is attached`
        : `${entry.library} uses ${only.timer}, the PWM timer of ${pins(only)}: analogWrite there and the servos disturb each other`
      : `${entry.library} takes ${entry.timers.map((timer, index) => `${timer.timer}${per ? ` (servos ${index * per + 1}–${(index + 1) * per})` : ''}`).join(', then ')}: while a servo on a timer is attached, analogWrite ${entry.silencesPwm ? 'gives no PWM on' : 'disturbs it through'} that timer's pins: ${withPins.map((timer) => `${timer.timer}: ${pins(timer)}`).join('; ')}`;
    return [{ topic: entry.library, text, source: entry.timers[0].source }];
  });
}
