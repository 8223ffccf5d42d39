// Finds the provider that recognises the workspace, loads its HardwareContext
// (rebuilt only when one of its input files changed) and renders it for prompts.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { ContextProvider, DetectedProject, HardwareContext, Selection } from '../../context-providers/types.js';

export interface LoadedContext {
  project: DetectedProject;
  context: HardwareContext;
  markdown: string;
}

interface CacheEntry {
  key: string;
  stamps: Map<string, string>;
  loaded: LoadedContext;
}

export class ContextService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(private readonly providers: ContextProvider[]) {}

  async detect(root: string): Promise<{ provider: ContextProvider; project: DetectedProject } | undefined> {
    for (const provider of this.providers) {
      const project = await provider.detect(root);
      if (project) return { provider, project };
    }
    return undefined;
  }

  /** The context for a workspace, or undefined when no provider recognises it. */
  async load(root: string, selection: Selection = {}): Promise<LoadedContext | undefined> {
    const found = await this.detect(root);
    if (!found) return undefined;
    // Everything selected counts (the Arduino IDE's build facts too); hashed, as those can be large.
    const key = JSON.stringify([found.provider.kind, found.project.root, createHash('sha1').update(JSON.stringify(selection)).digest('hex')]);
    const cached = this.cache.get(key);
    if (cached && (await unchanged(cached.stamps))) return cached.loaded;
    const context = await found.provider.load(found.project, selection);
    const loaded = { project: found.project, context, markdown: found.provider.render(context) };
    this.cache.set(key, { key, stamps: await stampAll(context.inputs), loaded });
    return loaded;
  }
}

async function stamp(file: string): Promise<string> {
  try {
    const s = await fs.stat(file);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return 'missing';
  }
}

async function stampAll(files: string[]): Promise<Map<string, string>> {
  const stamps = new Map<string, string>();
  await Promise.all(files.map(async (f) => stamps.set(f, await stamp(f))));
  return stamps;
}

async function unchanged(stamps: Map<string, string>): Promise<boolean> {
  for (const [file, before] of stamps) if ((await stamp(file)) !== before) return false;
  return true;
}
