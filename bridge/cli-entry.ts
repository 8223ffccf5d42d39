// The file that starts this command line, for what runs it again (the MCP stdio relay an agent
// starts, the command `setup` writes into an editor's settings): the bundle when boardbridge runs
// bundled (dist/cli/boardbridge.js, whose chunks sit in dist/cli/chunks/), else tsc's
// dist/bridge/cli/main.js.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function cliEntry(): string {
  const here = fileURLToPath(import.meta.url);
  if (path.basename(here) === 'cli-entry.js') return path.join(path.dirname(here), 'cli', 'main.js');
  // The sources run directly (the tests): the build's CLI.
  if (path.basename(here) === 'cli-entry.ts') return path.join(path.dirname(here), '..', 'dist', 'bridge', 'cli', 'main.js');
  // Bundled: this code is inlined in the entry file or in one of its chunks.
  const dir = path.dirname(here);
  return path.join(path.basename(dir) === 'chunks' ? path.dirname(dir) : dir, 'boardbridge.js');
}
