// The workspace a session works in: an existing folder, as an absolute path. In a module of its
// own so a command can check it before it starts the agent there, without loading the session.
import { statSync } from 'node:fs';
import path from 'node:path';
import { BridgeError } from '../errors.js';

export function checkWorkspace(dir: string): string {
  const resolved = path.resolve(dir);
  let isDir = false;
  try {
    isDir = statSync(resolved).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    throw new BridgeError('workspace_not_found', `workspace ${resolved} does not exist or is not a folder`, 'run boardbridge in your sketch or project folder, or pass --workspace DIR');
  }
  return resolved;
}
