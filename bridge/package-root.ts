// Where boardbridge itself is and where the person who started it stands: read by the CLI's own
// entry (cli-entry.ts) and by what finds agents (bridge/agents), so it sits beneath both.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder that holds boardbridge's package.json (works from dist/ and from sources). */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dir;
}

/** Where the person typed the command that started boardbridge: npm runs scripts in the package folder, INIT_CWD is where it was typed. */
export function shownAt(env: NodeJS.ProcessEnv = process.env): string {
  return env.INIT_CWD ?? process.cwd();
}
