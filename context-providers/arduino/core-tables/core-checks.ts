// A core's own sketch check made from JSON-safe input under a rule name, so that CoreFacts read
// in one process can be stored (pin-map-store.ts) and checked with in another: each reader
// defines its rule once here (defineCoreCheck) and builds its check from it. A check made any
// other way (a closure over the reader's live tables: esp32, stm32) runs only in the process
// that read it, and a pin map that holds one is not stored.
import type { Finding } from '../../types.js';
import type { CoreCheck, CoreSketchView, StoredCoreCheck } from './core-facts.js';

export type { CoreCheck, StoredCoreCheck } from './core-facts.js';

const RULES = new Map<string, (sketch: CoreSketchView, input: never) => Finding[]>();

/** Names a rule once (at a reader's module load); returns the maker of its checks. */
export function defineCoreCheck<I>(rule: string, run: (sketch: CoreSketchView, input: I) => Finding[]): (input: I) => CoreCheck {
  if (RULES.has(rule)) throw new Error(`core check rule ${rule} is defined twice`);
  RULES.set(rule, run as (sketch: CoreSketchView, input: never) => Finding[]);
  return (input) => Object.assign((sketch: CoreSketchView) => run(sketch, input), { stored: { rule, input } });
}

/** The check a stored rule and input make; undefined for a rule this build does not define. */
export function restoreCoreCheck(stored: StoredCoreCheck): CoreCheck | undefined {
  const run = RULES.get(stored.rule);
  return run ? Object.assign((sketch: CoreSketchView) => run(sketch, stored.input as never), { stored }) : undefined;
}
