// Finds the provider that recognises the workspace, loads its HardwareContext
// (rebuilt only when one of its input files changed) and renders it for prompts.
import { StampedCache } from '../../context-providers/arduino/cache.js';
import type { ContextProvider, DetectedProject, HardwareContext, Selection } from '../../context-providers/types.js';
import { discoverProject } from './sketch-discovery.js';

export interface LoadedContext {
  project: DetectedProject;
  context: HardwareContext;
  markdown: string;
}

/** The context of whatever project a workspace holds, with the line that says which it is or why there is none. */
export interface WorkspaceContext {
  loaded?: LoadedContext;
  note?: string;
}

export class ContextService {
  /** Workspaces' loaded contexts, rendered: a long-lived bridge serving many sketches keeps the last 32. */
  private readonly cache = new StampedCache<LoadedContext>(32);

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
    return found ? this.loadProject(found.project, selection) : undefined;
  }

  /**
   * The context for the project a workspace holds, found as sketch-discovery.ts says (the
   * workspace, the open file's project — `selection.files` —, a sketch below it, `sketch`
   * as --sketch names it, or the selected board alone); throws when it cannot be built.
   */
  async loadWorkspace(workspace: string, selection: Selection = {}, sketch?: string): Promise<WorkspaceContext> {
    const found = await discoverProject({
      workspace,
      files: selection.files,
      sketch,
      board: selection.board,
      detect: async (dir) => (await this.detect(dir))?.project,
    });
    if (!found.project) return { note: found.note };
    return { loaded: await this.loadProject(found.project, selection), note: found.note };
  }

  private async loadProject(project: DetectedProject, selection: Selection): Promise<LoadedContext | undefined> {
    const provider = this.providers.find((p) => p.kind === project.kind);
    if (!provider) return undefined;
    // Everything selected counts (the Arduino IDE's build facts too), as it is: the cache keeps 32
    // entries, and a hash would load node:crypto into every command that builds a context (4 ms).
    const key = JSON.stringify([provider.kind, project.root, project.main ?? null, selection]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const context = await provider.load(project, selection);
    return this.cache.set(key, { project, context, markdown: provider.render(context) }, context.inputs);
  }
}
