// How the CLI reports a failure: the message, what to try, and an exit code;
// never a stack trace.
import { BridgeError, errorMessage } from '../errors.js';
import { terminalSafe } from './terminal-text.js';

export const EXIT = { ok: 0, error: 1, usage: 2, stopped: 3 } as const;

export function describeError(error: unknown): { message: string; hint?: string; code: string } {
  if (error instanceof BridgeError) return { message: error.message, hint: error.hint, code: error.code };
  return { message: errorMessage(error), code: 'error' };
}

export function printError(error: unknown): void {
  // A message may carry the agent's words (a refused request relayed): shown, never obeyed.
  const { message, hint } = terminalSafe(describeError(error));
  process.stderr.write(`boardbridge: ${message}\n`);
  if (hint) process.stderr.write(`${hint.split('\n').map((l) => `  → ${l}`).join('\n')}\n`);
}
