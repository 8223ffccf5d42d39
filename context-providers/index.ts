// The context providers boardbridge knows, in the order they are asked. Each is
// loaded on first use, so a sketch never pays for the MPLAB X or Python parsers.
import type { ContextKind, ContextProvider } from './types.js';

function lazy(kind: ContextKind, load: () => Promise<ContextProvider>): ContextProvider {
  let instance: ContextProvider | undefined;
  const get = async () => (instance ??= await load());
  return {
    kind,
    detect: async (root) => (await get()).detect(root),
    load: async (project, selection) => (await get()).load(project, selection),
    render: (context) => {
      if (!instance) throw new Error(`the ${kind} provider renders only contexts it loaded`);
      return instance.render(context);
    },
  };
}

export function allProviders(): ContextProvider[] {
  return [
    lazy('arduino', async () => (await import('./arduino/provider.js')).arduinoProvider),
    lazy('mplabx', async () => (await import('./mplabx/index.js')).mplabxProvider),
    lazy('openmv', async () => (await import('./openmv/index.js')).openmvProvider),
  ];
}

export type * from './types.js';
