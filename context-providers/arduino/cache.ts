// The one in-memory cache of values built from files (contexts, a core's facts, a workspace's
// loaded context): a value lasts until one of the files it was built from changes, appears or
// disappears (each file's mtime and size, or its absence, is its stamp), and the cache holds at
// most `capacity` values, the least recently used going first.
import { statSync } from 'node:fs';
import { inOneCommandProcess } from '../../platform/one-command.js';

export function stamp(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.mtimeMs}:${stats.size}`;
  } catch {
    return 'missing';
  }
}

interface Entry<T> {
  stamps: Array<[string, string]>;
  value: T;
}

export class StampedCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly capacity: number) {}

  /** The value stored for `key` when none of its files changed since; a changed one drops it. */
  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.stamps.some(([file, previous]) => stamp(file) !== previous)) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` as built from `files` (those read, and those looked for and absent); returns it. */
  set(key: string, value: T, files: Iterable<string>): T {
    this.entries.delete(key);
    while (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    // A one-command process keeps a value for the rest of its command, which reads each file once: without the stamp of every
    // file (a context's inputs are a hundred files, stat-ed by each cache that keeps it) that only a later command would compare.
    this.entries.set(key, { stamps: inOneCommandProcess() ? [] : [...new Set(files)].map((file) => [file, stamp(file)]), value });
    return value;
  }

  /** Builds the value and stores it as built from the files `filesOf` names. */
  build(key: string, make: () => T, filesOf: (value: T) => Iterable<string>): T {
    const value = make();
    return this.set(key, value, filesOf(value));
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
