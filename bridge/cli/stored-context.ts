// `boardbridge context` when the context is stored: the command line's shell (main.ts) asks this
// before it loads commander and the command modules. It reads only the plainest command lines
// (a path, --fqbn or --board, --json), finds the sketch as the Arduino provider does, and prints
// the stored context when none of its files changed; anything else is left to the command itself
// (context.ts), which builds what is not stored and stores it. Bundled on its own
// (scripts/bundle-cli.mjs), so a hit loads this one file.
import { resolve } from 'node:path';
import type { HardwareContext } from '../../context-providers/types.js';
import { cliProviderOptions, detectSketch, readStoredContext } from '../../context-providers/arduino/stored-context.js';
import { writeAll } from './direct-output.js';

interface ContextRequest {
  target?: string;
  board?: string;
  json: boolean;
}

/** What `context` prints for a context: the whole of it as JSON, or its markdown ending in a newline. */
export function contextText(context: HardwareContext, markdown: string, json: boolean | undefined): string {
  return json ? JSON.stringify(context, null, 2) + '\n' : markdown.endsWith('\n') ? markdown : markdown + '\n';
}

/**
 * The arguments after `context` when they are only `[path]`, `--fqbn <fqbn>`, `--board <id>` and
 * `--json`, each at most once; undefined for anything else (another option, `--opt=value`, help,
 * a second path), which the command's own parser reads.
 */
export function plainContextRequest(args: readonly string[]): ContextRequest | undefined {
  const request: ContextRequest = { json: false };
  let fqbn: string | undefined;
  let board: string | undefined;
  let target: string | undefined;
  const seen = new Set<string>();
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === '--json' || arg === '--fqbn' || arg === '--board') {
      if (seen.has(arg)) return undefined;
      seen.add(arg);
      if (arg === '--json') {
        request.json = true;
        continue;
      }
      const value = args[++index];
      if (value === undefined || value === '' || value.startsWith('-')) return undefined;
      if (arg === '--fqbn') fqbn = value;
      else board = value;
    } else if (arg.startsWith('-') || target !== undefined || arg === '') {
      return undefined;
    } else {
      target = arg;
    }
  }
  return { ...request, target, board: board ?? fqbn };
}

/**
 * Prints the stored context the command line names (`printed`); otherwise says whether one is
 * stored but out of date (`stale`: an edited sketch, whose board and pin map are most likely
 * stored too) or none is (`absent`: a new sketch or board, or no cache), for the command to build it.
 */
export function printStoredContext(args: readonly string[]): 'printed' | 'stale' | 'absent' {
  const request = plainContextRequest(args);
  const options = cliProviderOptions();
  if (!request || !options.cacheDir) return 'absent';
  const project = detectSketch(resolve(request.target ?? process.cwd()));
  if (!project) return 'absent';
  const { stored, kept } = readStoredContext(options, project, { board: request.board });
  if (!stored) return kept ? 'stale' : 'absent';
  writeAll(1, contextText(stored.context, stored.markdown, request.json));
  return 'printed';
}
