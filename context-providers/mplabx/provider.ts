// The MPLAB X / MPLAB for VS Code context provider (ContextProvider contract).
import type { ContextProvider } from '../types.js';
import { loadMplabContext, type MplabxContextOptions } from './context.js';
import { detectMplabProject } from './detect.js';
import { renderMplabContext } from './render.js';

export function createMplabxProvider(options: MplabxContextOptions = {}): ContextProvider {
  return {
    kind: 'mplabx',
    detect: (root) => detectMplabProject(root),
    load: (project, selection) => loadMplabContext(project, selection, options),
    render: (context) => renderMplabContext(context),
  };
}

/** Searches MPLAB X's packs/ and ~/.mchp_packs (plus $BOARDBRIDGE_MPLAB_PACKS). */
export const mplabxProvider: ContextProvider = createMplabxProvider();
