// Keeps built contexts until one of their inputs changes: each input's mtime and size (or its
// absence) is the fingerprint, so an unchanged sketch and platform are never read twice.
import { statSync } from 'node:fs';
import type { HardwareContext } from '../types.js';

interface Entry {
  stamps: Map<string, string>;
  context: HardwareContext;
}

export function stamp(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.mtimeMs}:${stats.size}`;
  } catch {
    return 'missing';
  }
}

export class ContextCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = 32) {}

  /** The cached context for `key` when none of its inputs changed since it was stored. */
  get(key: string): HardwareContext | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    for (const [file, previous] of entry.stamps) {
      if (stamp(file) !== previous) {
        this.entries.delete(key);
        return undefined;
      }
    }
    return entry.context;
  }

  /** Stores a context; `extraWatched` are files whose appearance must also rebuild (e.g. *.local.txt). */
  set(key: string, context: HardwareContext, extraWatched: string[] = []): void {
    const stamps = new Map<string, string>();
    for (const file of [...context.inputs, ...extraWatched]) stamps.set(file, stamp(file));
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { stamps, context });
  }

  clear(): void {
    this.entries.clear();
  }
}
