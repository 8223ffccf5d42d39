// Runs one fuzz target over seeded inputs: node test/fuzz/run-fuzz.mjs <target> <count> <first seed> [--write-only]
// Input i is the fixture and mutations chosen by seed first+i, so any input can be made again
// from its seed. Prints "start <seed>" before each input (the suite kills a runner whose input
// hangs and remakes that input with --write-only), a JSON line per failure and a summary.
// A failure is a throw, an input slower than BUDGET_MS, or output past the target's limit.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutate, prng } from './mutate.mjs';
import { targets } from './targets.mjs';

const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 5000);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const artifacts = path.join(repo, 'test-artifacts', 'fuzz');

const [name, countText, firstText, flag] = process.argv.slice(2);
const target = targets[name];
if (!target) {
  process.stderr.write(`unknown fuzz target ${name}; one of: ${Object.keys(targets).join(', ')}\n`);
  process.exit(2);
}
const count = Number(countText);
const first = Number(firstText);
const loaded = await target.load();

function inputFor(seed) {
  const rng = prng(seed);
  const fixture = rng.pick(loaded.fixtures);
  return { fixture, input: mutate(fixture.text, rng, loaded) };
}

function writeOut(seed, fixture, input, reason) {
  mkdirSync(artifacts, { recursive: true });
  const file = path.join(artifacts, `${name}-seed${seed}.${target.ext}`);
  writeFileSync(file, input);
  writeFileSync(`${file}.reason.txt`, `target ${name}, seed ${seed}, mutated from ${fixture.file}\nremake: node test/fuzz/run-fuzz.mjs ${name} 1 ${seed}\n${reason}\n`);
  return file;
}

if (flag === '--write-only') {
  const { fixture, input } = inputFor(first);
  process.stdout.write(`${writeOut(first, fixture, input, process.env.FUZZ_REASON ?? 'written on request')}\n`);
  process.exit(0);
}

// The code under test may log (the SDK reports unknown responses on console.error): count it, keep the output readable.
let logged = 0;
console.error = () => void logged++;
console.warn = () => void logged++;
// An error that surfaces after its input returned is blamed on the input that ran last.
let current;
process.on('uncaughtException', (error) => fail(current, `uncaught exception: ${error?.stack ?? error}`));
process.on('unhandledRejection', (error) => fail(current, `unhandled rejection: ${error?.stack ?? error}`));

const failures = [];
function fail(at, reason) {
  const file = writeOut(at.seed, at.fixture, at.input, reason);
  failures.push(at.seed);
  process.stdout.write(`${JSON.stringify({ failure: { seed: at.seed, reason: reason.split('\n')[0], file } })}\n`);
}

const started = performance.now();
let slowest = 0;
for (let seed = first; seed < first + count; seed++) {
  const { fixture, input } = inputFor(seed);
  current = { seed, fixture, input };
  process.stdout.write(`start ${seed}\n`);
  const t0 = performance.now();
  try {
    const { size, limit } = await loaded.run(input, fixture, seed);
    const ms = performance.now() - t0;
    slowest = Math.max(slowest, ms);
    if (ms > BUDGET_MS) fail(current, `took ${ms.toFixed(0)} ms, over the ${BUDGET_MS} ms budget for one input`);
    else if (size > limit) fail(current, `output of ${size} for an input of ${input.length} characters, over the limit of ${limit}`);
  } catch (error) {
    fail(current, `threw: ${error?.stack ?? error}`);
  }
}
const summary = { target: name, inputs: count, first, failures: failures.length, ms: Math.round(performance.now() - started), slowestMs: Math.round(slowest), logged };
process.stdout.write(`${JSON.stringify({ summary })}\n`);
