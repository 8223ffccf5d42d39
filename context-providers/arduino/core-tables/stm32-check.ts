// The sketch checks stm32duino needs: analogRead given the digital number of an analog pin (it reads 0), PWM pins
// whose timer tone() or Servo take over, pins of one timer asked for two frequencies, and two
// interrupt pins on one EXTI line.
import type { Finding, SourceRef } from '../../types.js';
import type { CorePin, CoreSketchView, SketchCall } from './core-facts.js';

/**
 * How a sketch's pin value reaches digitalPin[] (the core's pins_arduino.h): a D-number below
 * `count` as it is; A<n> and PYn (PNUM_ANALOG_BASE + n) through analogInputPin[n & PNUM_ANALOG_INDEX].
 * Plain data (null where analogInputPin[] names no pin), so a stored check reads it as the reader did.
 */
export interface Stm32PinNumbers {
  count: number;
  analogBase?: number;
  analogIndex?: number;
  analogPins: Array<number | null>;
}

/** The digitalPin[] index a sketch's pin value names, or undefined for none. */
export function stm32PinOf(numbers: Stm32PinNumbers, value: number | undefined): number | undefined {
  if (value === undefined || value < 0) return undefined;
  if (value < numbers.count) return value;
  const { analogBase: base, analogIndex: index } = numbers;
  if (base !== undefined && index !== undefined && (value & base) === base && value < 0x100) return numbers.analogPins[value & index] ?? undefined;
  return undefined;
}

/** What the check reads, all of it JSON: the reader's pins, how values reach them, and the timers tone() and Servo take (TIMER_TONE, TIMER_SERVO). */
export interface Stm32CheckFacts {
  pins: CorePin[];
  numbers: Stm32PinNumbers;
  analogCount: number;
  analogSource?: SourceRef;
  timerMacros: Record<string, { timer: string; source?: SourceRef }>;
}

const cite = (source: SourceRef | undefined): string => (source ? ` (${source.file}${source.line ? `:${source.line}` : ''})` : '');
const at = (call: SketchCall): Pick<Finding, 'file' | 'line'> => ({ ...(call.token.file ? { file: call.token.file } : {}), line: call.token.line });
const freeCalls = (sketch: CoreSketchView, name: string): SketchCall[] => sketch.calls.filter((call) => call.name === name && call.receiver === undefined);
const label = (pin: CorePin): string => `D${pin.number}${pin.names?.[0] ? ` (${pin.names[0]})` : ''}`;

export function checkStm32Sketch(sketch: CoreSketchView, facts: Stm32CheckFacts): Finding[] {
  return [...checkAnalogRead(sketch, facts), ...checkTimers(sketch, facts), ...checkExti(sketch, facts)];
}

function checkAnalogRead(sketch: CoreSketchView, facts: Stm32CheckFacts): Finding[] {
  const findings: Finding[] = [];
  if (facts.analogCount === 0) return findings;
  // stm32duino b4bae0d cores/arduino/wiring_analog.c:187-199: analogInputToPinName(p) is NC for a
  // plain number from NUM_ANALOG_INPUTS up, and analogRead then returns 0.
  for (const call of freeCalls(sketch, 'analogRead')) {
    for (const value of new Set(call.values[0] ?? [])) {
      // A pin without an analog input is the generic check's (analog-pin); this one is the trap
      // where the pin has an ADC input but its digital number does not reach it.
      const input = facts.pins[value]?.analog?.input;
      if (value < facts.analogCount || value >= 0xc0 || input === undefined) continue;
      findings.push({
        severity: 'error',
        code: 'stm32-analog-read-digital-number',
        message: `analogRead(${value}) on ${sketch.boardName} reads 0: D${value} is A${input}, but the STM32 core's analogRead takes an analog input number 0-${facts.analogCount - 1} (A0-A${facts.analogCount - 1}) or a PYn name, not a digital pin number${cite(facts.analogSource)}`,
        ...at(call),
        suggestion: `Use analogRead(A${input}).`,
      });
    }
  }
  return findings;
}

function pwmPinsOf(sketch: CoreSketchView, facts: Stm32CheckFacts): Map<number, SketchCall> {
  const pins = new Map<number, SketchCall>();
  for (const call of freeCalls(sketch, 'analogWrite')) {
    for (const value of call.values[0] ?? []) {
      const number = stm32PinOf(facts.numbers, value);
      if (number !== undefined && facts.pins[number]?.pwm && !pins.has(number)) pins.set(number, call);
    }
  }
  return pins;
}

function checkTimers(sketch: CoreSketchView, facts: Stm32CheckFacts): Finding[] {
  const findings: Finding[] = [];
  const pwm = pwmPinsOf(sketch, facts);
  const owners: Array<{ macro: string; user: string; used: boolean }> = [
    { macro: 'TIMER_TONE', user: 'tone()', used: freeCalls(sketch, 'tone').length > 0 },
    { macro: 'TIMER_SERVO', user: 'Servo', used: sketch.identifiers.has('Servo') },
  ];
  for (const owner of owners) {
    const macro = facts.timerMacros[owner.macro];
    const timer = macro?.timer;
    if (!owner.used || !timer) continue;
    for (const [number, call] of pwm) {
      const pin = facts.pins[number];
      if (pin.pwm?.timer !== timer) continue;
      findings.push({
        severity: 'warning',
        code: 'stm32-timer-taken',
        message: `analogWrite on ${label(pin)} uses ${timer}${cite(pin.pwm.source)}, the timer ${owner.user} runs on (${owner.macro}${cite(macro?.source)}): while ${owner.user} runs, that pin's PWM does not keep its frequency`,
        ...at(call),
        suggestion: `Use a PWM pin on another timer, or define ${owner.macro} to a free timer (build_opt.h / hal_conf_extra.h).`,
      });
    }
  }
  const frequencies = new Set(freeCalls(sketch, 'analogWriteFrequency').flatMap((call) => call.values[0] ?? []));
  if (frequencies.size > 1) {
    const byTimer = new Map<string, number[]>();
    for (const number of pwm.keys()) byTimer.set(facts.pins[number].pwm!.timer, [...(byTimer.get(facts.pins[number].pwm!.timer) ?? []), number]);
    for (const [timer, numbers] of byTimer) {
      if (numbers.length < 2) continue;
      findings.push({
        severity: 'warning',
        code: 'stm32-timer-frequency',
        message: `${numbers.map((number) => label(facts.pins[number])).join(', ')} share ${timer}${cite(facts.pins[numbers[0]].pwm!.source)} and the sketch sets analogWriteFrequency to ${[...frequencies].join(' and ')}: one timer has one frequency, so these pins end up at the one set last`,
        ...at(pwm.get(numbers[numbers.length - 1])!),
        suggestion: 'Put pins that need different frequencies on different timers.',
      });
    }
  }
  return findings;
}

function checkExti(sketch: CoreSketchView, facts: Stm32CheckFacts): Finding[] {
  const byLine = new Map<string, Array<{ pin: CorePin; call: SketchCall }>>();
  for (const call of freeCalls(sketch, 'attachInterrupt')) {
    for (const value of call.values[0] ?? []) {
      const number = stm32PinOf(facts.numbers, value);
      const pin = number === undefined ? undefined : facts.pins[number];
      if (!pin?.interrupt?.line) continue;
      const entries = byLine.get(pin.interrupt.line) ?? [];
      if (!entries.some((entry) => entry.pin === pin)) entries.push({ pin, call });
      byLine.set(pin.interrupt.line, entries);
    }
  }
  const findings: Finding[] = [];
  for (const [line, entries] of byLine) {
    if (entries.length < 2) continue;
    findings.push({
      severity: 'warning',
      code: 'stm32-exti-shared',
      message: `${entries.map((entry) => label(entry.pin)).join(' and ')} share ${line}${cite(entries[0].pin.interrupt!.source)}: the STM32 core keeps one handler per EXTI line, so only the last attachInterrupt of them fires`,
      ...at(entries[entries.length - 1].call),
      suggestion: 'Use interrupt pins with different pin bits (PA0 and PB1, not PA0 and PB0).',
    });
  }
  return findings;
}
