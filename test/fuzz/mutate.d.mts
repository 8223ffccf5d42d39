// Types of mutate.mjs for the TypeScript fuzz tests (the seeded generator only).
export interface Prng {
  next(): number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  count(max: number): number;
}

export function prng(seed: number): Prng;
