// A scenario played against a running simulation in simulated time: instant steps run between
// slices, `delay` ends the slice at its exact cycle, `wait-serial` at the byte that completes the
// text. The first failing step ends the run with its name, time, expectation and what was seen.
import type { ChipIo } from '../simulate/simulation.js';
import { AroundCircuit, type Circuit } from './circuit.js';
import type { Scenario, ScenarioStep } from './scenario.js';

/** Serial text kept while waiting for a match: the last this many characters. */
const SERIAL_WINDOW = 64 * 1024;

export interface ScenarioOutcome {
  passed: boolean;
  /** Steps that completed. */
  completed: number;
  total: number;
  /** On a failure or an unfinished run: the step, where it is, what it expected and saw. */
  failure?: { step: number; name?: string; line: number; atSeconds: number; expected: string; seen: string };
}

export class ScenarioRun extends AroundCircuit {
  private index = 0;
  private waitUntil?: number;
  private serial = '';
  private matched = false;
  outcome?: ScenarioOutcome;
  /** One line per step as it completes, for the person watching. */
  onStep?: (text: string) => void;

  constructor(
    readonly scenario: Scenario,
    circuit: Circuit | undefined,
  ) {
    super(circuit);
  }

  onSerial(text: string): void {
    this.serial = (this.serial + text).slice(-SERIAL_WINDOW);
    const step = this.scenario.steps[this.index];
    // Only the tail can hold a match the text before it did not.
    if (step?.kind === 'wait-serial' && !this.matched && this.serial.slice(-(step.text.length + text.length)).includes(step.text)) {
      this.matched = true;
      this.io?.pause();
    }
  }

  afterSlice(): { reason: 'scenario'; detail: string } | undefined {
    const io = this.io!;
    while (this.index < this.scenario.steps.length) {
      const step = this.scenario.steps[this.index];
      if (!this.advance(step, io)) return undefined;
      if (this.outcome) return { reason: 'scenario', detail: this.describe() };
      this.onStep?.(`[${this.scenario.name}] ${(io.cycles() / io.clockHz).toFixed(3)} s: ${label(step, this.index)} done`);
      this.index++;
    }
    this.outcome = { passed: true, completed: this.index, total: this.scenario.steps.length };
    return { reason: 'scenario', detail: this.describe() };
  }

  /** The run ended before the scenario did (time, halt, wall limit): the step it was on fails. */
  unfinished(why: string): ScenarioOutcome {
    if (this.outcome) return this.outcome;
    const io = this.io!;
    const step = this.scenario.steps[this.index];
    const expected = step.kind === 'wait-serial' ? `serial text "${step.text}"` : step.kind === 'delay' ? `${step.text} to pass` : label(step, this.index);
    this.outcome = {
      passed: false,
      completed: this.index,
      total: this.scenario.steps.length,
      failure: { step: this.index + 1, ...(step.name ? { name: step.name } : {}), line: step.line, atSeconds: io.cycles() / io.clockHz, expected, seen: `the run stopped first: ${why}` },
    };
    return this.outcome;
  }

  describe(): string {
    const outcome = this.outcome;
    if (!outcome) return `scenario "${this.scenario.name}" at step ${this.index + 1} of ${this.scenario.steps.length}`;
    if (outcome.passed) return `scenario "${this.scenario.name}" passed (${outcome.total} steps)`;
    const f = outcome.failure!;
    return `scenario "${this.scenario.name}" failed at step ${f.step}${f.name ? ` "${f.name}"` : ''} (${this.scenario.file}:${f.line}) at ${f.atSeconds.toFixed(3)} s simulated: expected ${f.expected}, saw ${f.seen}`;
  }

  /** Runs or continues one step; false while it is still waiting. */
  private advance(step: ScenarioStep, io: ChipIo): boolean {
    const now = io.cycles();
    switch (step.kind) {
      case 'delay':
        if (this.waitUntil === undefined) {
          this.waitUntil = now + Math.round(step.seconds * io.clockHz);
          io.at(this.waitUntil, () => io.pause());
        }
        if (now < this.waitUntil) return false;
        this.waitUntil = undefined;
        return true;
      case 'wait-serial':
        if (!this.matched && !this.serial.includes(step.text)) return false;
        // Wokwi matches each wait on the text that came after the previous match.
        this.serial = this.serial.slice(this.serial.indexOf(step.text) + step.text.length);
        this.matched = false;
        return true;
      case 'write-serial':
        io.writeSerial(step.bytes);
        return true;
      case 'set-control': {
        const problem = this.circuit?.setControl(step.part, step.control, step.value);
        if (problem) this.fail(step, io, `set-control ${step.part} ${step.control}=${step.value} to be taken`, problem);
        return true;
      }
      case 'expect-pin': {
        const seen = this.circuit?.pinLevel(step.part, step.pin) ?? 0;
        if (seen !== step.value) this.fail(step, io, `${step.part}:${step.pin} = ${step.value}`, `${step.part}:${step.pin} = ${seen}`);
        return true;
      }
    }
  }

  private fail(step: ScenarioStep, io: ChipIo, expected: string, seen: string): void {
    this.outcome = {
      passed: false,
      completed: this.index,
      total: this.scenario.steps.length,
      failure: { step: this.index + 1, ...(step.name ? { name: step.name } : {}), line: step.line, atSeconds: io.cycles() / io.clockHz, expected, seen },
    };
  }
}

function label(step: ScenarioStep, index: number): string {
  const what =
    step.kind === 'delay'
      ? `delay ${step.text}`
      : step.kind === 'wait-serial'
        ? `wait-serial "${step.text}"`
        : step.kind === 'write-serial'
          ? `write-serial ${step.bytes.length} bytes`
          : step.kind === 'set-control'
            ? `set-control ${step.part} ${step.control}=${step.value}`
            : `expect-pin ${step.part}:${step.pin}=${step.value}`;
  return `step ${index + 1}${step.name ? ` "${step.name}"` : ''} (${what})`;
}
