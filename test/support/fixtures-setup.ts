// vitest globalSetup: a run without the fixtures folder stops at once, saying where it looked,
// instead of failing forty tests obscurely.
import { fixturesProblem } from './fixtures.js';

export default function setup(): void {
  const problem = fixturesProblem();
  if (problem) throw new Error(problem);
}
