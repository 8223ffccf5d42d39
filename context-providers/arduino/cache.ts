// The one in-memory cache of values built from files (contexts, a core's facts, a workspace's
// loaded context): a value lasts until one of the files it was built from changes, appears or
// disappears (each file's mtime and size, or its absence, is its stamp), and the cache holds at
// most `capacity` values, the least recently used going first.
import { statSync } from 'node:fs';

export function stamp(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.mtimeMs}:${stats.size}`;
  } catch {
    return 'missing';
  }
}

// Set on the process, not in this module: the command line's shell and the context script it runs
// each hold a copy of this module (scripts/bundle-cli.mjs).
const ONE_COMMAND = Symbol.for('boardbridge.oneCommandProcess');

/**
 * Marks this process as one that runs a single command and exits (the context command line): its
 * values are kept for the rest of the command, which reads each file once, without the stamp of
 * every file they were built from (a context's inputs are a hundred files, stat-ed by each cache
 * that keeps it) that only a later command in the same process would compare.
 */
export function markOneCommandProcess(): void {
  (process as unknown as Record<symbol, boolean>)[ONE_COMMAND] = true;
}

function inOneCommandProcess(): boolean {
  return (process as unknown as Record<symbol, boolean | undefined>)[ONE_COMMAND] === true;
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
