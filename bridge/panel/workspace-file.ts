// A file the page asks to see (a compiler diagnostic's `file:line` link): read
// only when it lies inside the served workspace once links are resolved, like
// every other path the panel touches. Unsaved IDE contents win over the disk.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readConfined } from '../services/fs/confined-files.js';
import { WorkspaceGuard } from '../services/fs/workspace-guard.js';

/** The largest file the page is shown (the editor view holds it whole). */
const PANEL_MAX_BYTES = 32 * 1024 * 1024;

export type WorkspaceFile = { path: string; text: string } | { error: string; hint?: string };

/** `requested` is absolute or relative to the workspace (gcc prints both). */
export async function readWorkspaceFile(workspace: string, requested: string, buffers: Record<string, string> = {}): Promise<WorkspaceFile> {
  const wanted = path.resolve(workspace, requested);
  const outside = { error: `${requested} is outside the workspace ${workspace}`, hint: 'the panel only shows files of the served project' };
  let root: string;
  try {
    root = await fs.realpath(workspace);
  } catch {
    return { error: `the workspace ${workspace} is gone`, hint: 'restart boardbridge serve on the project folder' };
  }
  // Checked before touching the file, so the page learns nothing about files elsewhere
  // (gcc may print the workspace's path with its links resolved: both spellings count).
  if (!inside(workspace, wanted) && !inside(root, wanted)) return outside;
  let real: string;
  try {
    real = await fs.realpath(wanted);
  } catch {
    return { error: `${requested} does not exist`, hint: 'it may have been renamed or deleted since the tool ran' };
  }
  if (!inside(root, real)) return outside;
  if (buffers[wanted] !== undefined) return { path: wanted, text: buffers[wanted] };
  // Read from the very file checked (a link or FIFO swapped in meanwhile is refused, never followed or waited on).
  try {
    return { path: wanted, text: await readConfined(new WorkspaceGuard([root]), real, { maxBytes: PANEL_MAX_BYTES }) };
  } catch (error) {
    return { error: `${requested} could not be read: ${(error as Error).message}` };
  }
}

function inside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
