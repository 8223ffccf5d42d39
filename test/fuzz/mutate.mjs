// Deterministic mutations of real files: the same seed gives the same input on every machine.

/** mulberry32: a small, fast PRNG whose whole state is one 32-bit number. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)],
    /** 1..max, small numbers far more often than large ones. */
    count: (max) => Math.max(1, Math.floor(Math.exp(next() * Math.log(max)))),
  };
}

const GENERIC_TOKENS = ['{', '}', '(', ')', '[', ']', '"', "'", '=', ':', ',', '\n', '\r\n', '\t', '\\', '<', '>', '&', '#', '\u0000', '\uffff', '\ud800', '🙂', '-1', '0', '1e309', '99999999999999999999', 'null', 'true', ' '];

const operations = {
  flip: (text, rng, tokens) => {
    const at = rng.int(text.length + 1);
    return text.slice(0, at) + rng.pick(tokens) + text.slice(at + 1);
  },
  insert: (text, rng, tokens) => {
    const at = rng.int(text.length + 1);
    return text.slice(0, at) + rng.pick(tokens) + text.slice(at);
  },
  remove: (text, rng) => {
    const at = rng.int(text.length + 1);
    return text.slice(0, at) + text.slice(at + rng.count(64));
  },
  duplicate: (text, rng) => {
    const from = rng.int(text.length + 1);
    const piece = text.slice(from, from + rng.count(256));
    const at = rng.int(text.length + 1);
    return text.slice(0, at) + piece + text.slice(at);
  },
  // A token many times over: deep nesting, long runs, huge numbers.
  repeat: (text, rng, tokens) => {
    const at = rng.int(text.length + 1);
    return text.slice(0, at) + rng.pick(tokens).repeat(rng.count(10_000)) + text.slice(at);
  },
  moveLine: (text, rng) => {
    const lines = text.split('\n');
    const line = lines[rng.int(lines.length)];
    lines.splice(rng.int(lines.length + 1), 0, line);
    return lines.join('\n');
  },
  truncate: (text, rng) => text.slice(0, rng.int(text.length + 1)),
};

/**
 * One input: a fixture with 1-4 mutations, from the generic ones and the target's own
 * (`extra`: functions (text, rng) => text) and tokens.
 */
export function mutate(text, rng, { tokens = [], extra = [] } = {}) {
  const all = [...GENERIC_TOKENS, ...tokens];
  const ops = [...Object.values(operations), ...extra];
  let result = text;
  for (let i = rng.count(4); i > 0; i--) result = rng.pick(ops)(result, rng, all);
  return result;
}
