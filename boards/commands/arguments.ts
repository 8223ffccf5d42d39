// Argument parsing shared by the board commands: node's parseArgs, with errors that say what
// the command expects instead of a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { BoundedRegex } from '../bounded-regex.js';

/** Input the operation cannot take. Without `usage`, the face that parsed it adds its own (generated from the operation's schema). */
export class UsageError extends Error {
  constructor(message: string, usage?: string) {
    super(usage ? `${message}\nusage: ${usage}` : message);
    this.name = 'UsageError';
  }
}

/** parseArgs with positionals allowed and unknown options refused, as a UsageError. */
export function parseCommand<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
}

/** `5s`, `500ms`, `2m`, or plain seconds. */
export function parseDuration(text: string, usage?: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match) throw new UsageError(`cannot read duration "${text}"; write it like 5s, 500ms or 2m`, usage);
  const value = Number(match[1]);
  return match[2] === 'ms' ? value : match[2] === 'm' ? value * 60_000 : value * 1000;
}

export function parseRegex(text: string, usage?: string): BoundedRegex {
  try {
    return new BoundedRegex(text);
  } catch (error) {
    throw new UsageError(`--until is not a valid regular expression: ${(error as Error).message}`, usage);
  }
}
