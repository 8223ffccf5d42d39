// Keeps a reader's CoreFacts per board until one of the files it read (or looked for) changes,
// so a warm context build does not preprocess the core's headers again.
import { stamp } from '../cache.js';
import type { CoreFacts } from './core-facts.js';

interface Entry {
  stamps: Array<[string, string]>;
  facts: CoreFacts;
}

export class FactsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = 64) {}

  get(key: string): CoreFacts | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.stamps.some(([file, previous]) => stamp(file) !== previous)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.facts;
  }

  set(key: string, facts: CoreFacts): CoreFacts {
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { stamps: [...new Set(facts.files)].map((file) => [file, stamp(file)]), facts });
    return facts;
  }
}
