// A file the page asks to see (a compiler diagnostic's `file:line` link): read
// only when it lies inside the served workspace once links are resolved, like
// every other path the panel touches. Unsaved IDE contents win over the disk.
import { promises as fs } from 'node:fs';
import path from 'node:path';

export type WorkspaceFile = { path: string; text: string } | { error: string; hint?: string };

/** `requested` is absolute or relative to the workspace (gcc prints both). */
export async function readWorkspaceFile(workspace: string, requested: string, buffers: Record<string, string> = {}): Promise<WorkspaceFile> {
  const wanted = path.resolve(workspace, requested);
  let real: string;
  let root: string;
  try {
    [real, root] = await Promise.all([fs.realpath(wanted), fs.realpath(workspace)]);
  } catch {
    return { error: `${requested} does not exist`, hint: 'it may have been renamed or deleted since the tool ran' };
  }
  const relative = path.relative(root, real);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    return { error: `${requested} is outside the workspace ${workspace}`, hint: 'the panel only shows files of the served project' };
  }
  if (buffers[wanted] !== undefined) return { path: wanted, text: buffers[wanted] };
  try {
    const stat = await fs.stat(real);
    if (!stat.isFile()) return { error: `${requested} is not a file` };
    return { path: wanted, text: await fs.readFile(real, 'utf8') };
  } catch (error) {
    return { error: `${requested} could not be read: ${(error as Error).message}` };
  }
}
