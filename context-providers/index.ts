// The context providers boardbridge knows, in the order they are asked.
import type { ContextProvider } from './types.js';

export function allProviders(): ContextProvider[] {
  return [];
}

export type * from './types.js';
