// The context providers boardbridge knows, in the order they are asked.
import { arduinoProvider } from './arduino/index.js';
import { mplabxProvider } from './mplabx/index.js';
import { openmvProvider } from './openmv/index.js';
import type { ContextProvider } from './types.js';

export function allProviders(): ContextProvider[] {
  return [arduinoProvider, mplabxProvider, openmvProvider];
}

export type * from './types.js';
