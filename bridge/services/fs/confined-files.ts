// File operations confined to the guard's roots, each on the very object the guard
// checked (see anchored-dir.ts): what the fs service, undo and the panel's review use.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { AnchoredDir, notFound, openError } from './anchored-dir.js';
import { replaceFile, tempName } from './atomic-write.js';
import { readLineRange, readWholeText } from './file-text.js';
import type { Access, WorkspaceGuard } from './workspace-guard.js';

/** The folder holding a checked path, held open, and the file's name in it. */
export interface ConfinedTarget {
  dir: AnchoredDir;
  name: string;
  /** The real path that was checked (and is what gets read or written). */
  file: string;
}

/** Checks `requested` and opens the folder it lies in; `create` makes missing folders (writes). */
export async function openTarget(guard: WorkspaceGuard, requested: string, access: Access, create = false): Promise<ConfinedTarget> {
  const { real, root } = guard.locate(requested, access);
  const relative = path.relative(root, real);
  if (relative === '') {
    throw new RequestError(-32602, `${requested} is the workspace folder itself, not a file`, { path: requested });
  }
  const components = relative.split(path.sep);
  const name = components.pop()!;
  const dir = await AnchoredDir.open(root, components, requested, create);
  return { dir, name, file: real };
}

export interface ReadOptions {
  line?: number;
  limit?: number;
  maxBytes: number;
}

/** The text of a regular file inside the roots, or only lines `line`..`line+limit-1` of it. */
export async function readConfined(guard: WorkspaceGuard, requested: string, options: ReadOptions): Promise<string> {
  const target = await openTarget(guard, requested, 'read');
  try {
    const handle = await target.dir.openFile(target.name, requested);
    if (!handle) throw notFound(requested);
    try {
      return options.line === undefined && options.limit === undefined
        ? await readWholeText(handle, requested, options.maxBytes)
        : await readLineRange(handle, requested, options.line, options.limit, options.maxBytes);
    } catch (error) {
      throw openError(error, requested);
    } finally {
      await handle.close();
    }
  } finally {
    await target.dir.close();
  }
}

/** The current text and mode of a file about to be replaced; null when there is no such file. */
export async function readExisting(target: ConfinedTarget, shown: string, maxBytes: number): Promise<{ text: string; mode: number } | null> {
  const handle = await target.dir.openFile(target.name, shown);
  if (!handle) return null;
  try {
    const mode = (await handle.stat()).mode & 0o7777;
    const text = await readWholeText(handle, shown, maxBytes, `an agent may replace files of up to ${maxBytes} bytes (the journal keeps what it replaced, for undo)`);
    return { text, mode };
  } finally {
    await handle.close();
  }
}

/** Replaces (or creates) a file inside the writable roots with `content`, atomically. */
export async function writeConfined(guard: WorkspaceGuard, requested: string, content: string): Promise<void> {
  const target = await openTarget(guard, requested, 'write', true);
  try {
    const handle = await target.dir.openFile(target.name, requested);
    const mode = handle ? (await handle.stat()).mode & 0o7777 : undefined;
    await handle?.close();
    await replaceFile(target.dir, target.name, tempName(), content, requested, mode);
  } catch (error) {
    throw openError(error, requested);
  } finally {
    await target.dir.close();
  }
}

/** Removes a regular file inside the writable roots; false when it was already gone. */
export async function removeConfined(guard: WorkspaceGuard, requested: string): Promise<boolean> {
  const target = await openTarget(guard, requested, 'write').catch((error: unknown) => {
    if (error instanceof RequestError && error.code === -32002) return undefined; // its folder is gone too
    throw error;
  });
  if (!target) return false;
  try {
    const handle = await target.dir.openFile(target.name, requested);
    if (!handle) return false;
    await handle.close();
    await target.dir.verify(requested);
    await fs.unlink(target.dir.entry(target.name));
    return true;
  } catch (error) {
    throw openError(error, requested);
  } finally {
    await target.dir.close();
  }
}
