// Restores the files one agent session changed. A file edited again since the
// agent wrote it is a conflict: it is left alone unless the person forces it. Every
// read, restore and removal goes through the workspace guard and the confined file
// operations: undo never follows a link out of the workspace, nor touches a file there.
import { RequestError } from '@agentclientprotocol/sdk';
import { openTarget, removeConfined, writeConfined, type ConfinedTarget } from './confined-files.js';
import { readWholeText } from './file-text.js';
import { markUndone, type JournalEntry, type SessionJournal } from './journal.js';
import { WorkspaceGuard } from './workspace-guard.js';

export interface UndoStep {
  path: string;
  /** `none`: the agent's write never reached the file (the bridge stopped first), nothing to take back. */
  action: 'restore' | 'delete' | 'none';
  /** The file no longer holds what the agent last wrote. */
  conflict: boolean;
  original: string | null;
  /** Why the file cannot be touched at all (outside the workspace, no longer a regular file). */
  refused?: string;
}

/** The guard undo works under: the workspace the session ran in, read-write, nothing else. */
export function journalGuard(journal: Pick<SessionJournal, 'header'>): WorkspaceGuard {
  return new WorkspaceGuard([journal.header.workspace]);
}

export async function planUndo(journal: Pick<SessionJournal, 'header' | 'writes'>, guard = journalGuard(journal)): Promise<UndoStep[]> {
  const byPath = new Map<string, JournalEntry[]>();
  for (const write of journal.writes) byPath.set(write.path, [...(byPath.get(write.path) ?? []), write]);
  const steps: UndoStep[] = [];
  for (const [file, writes] of byPath) {
    const original = writes[0].before;
    // What the file may hold now if nobody else touched it: after a confirmed write its
    // content; after an unconfirmed one either that or what it held before.
    let possible: Array<string | null> = [original];
    for (const write of writes) possible = write.unconfirmed ? [...possible, write.after] : [write.after];
    const longest = Math.max(0, ...possible.map((p) => (p === null ? 0 : Buffer.byteLength(p))));
    const current = await currentText(guard, file, longest + 1);
    if (typeof current === 'object' && current !== null) {
      steps.push({ path: file, action: original === null ? 'delete' : 'restore', conflict: true, original, refused: current.refused });
      continue;
    }
    const neverWritten = writes.every((w) => w.unconfirmed) && current === original;
    steps.push({
      path: file,
      action: neverWritten ? 'none' : original === null ? 'delete' : 'restore',
      conflict: current === undefined || !possible.includes(current),
      original,
    });
  }
  return steps;
}

/** Puts one file back as the step says; throws (naming the file) when the guard refuses it. */
export async function restoreStep(step: UndoStep, guard: WorkspaceGuard): Promise<void> {
  if (step.refused) throw new Error(step.refused);
  if (step.action === 'none') return;
  if (step.original === null) await removeConfined(guard, step.path);
  else await writeConfined(guard, step.path, step.original);
}

export async function applyUndo(journal: SessionJournal, steps: UndoStep[], force: boolean, guard = journalGuard(journal)): Promise<UndoStep[]> {
  const done: UndoStep[] = [];
  for (const step of steps) {
    if (step.refused || (step.conflict && !force)) continue;
    await restoreStep(step, guard);
    done.push(step);
  }
  if (done.length === steps.length) markUndone(journal);
  return done;
}

// The file's text; null when it is gone; undefined when it holds something the agent never
// wrote (too long, binary); `refused` when the guard will not let undo near it.
async function currentText(guard: WorkspaceGuard, file: string, maxBytes: number): Promise<string | null | undefined | { refused: string }> {
  let target: ConfinedTarget;
  try {
    target = await openTarget(guard, file, 'write');
  } catch (error) {
    return isMissing(error) ? null : { refused: errorText(error) };
  }
  try {
    const handle = await target.dir.openFile(target.name, file);
    if (!handle) return null;
    try {
      return await readWholeText(handle, file, maxBytes);
    } catch {
      return undefined;
    } finally {
      await handle.close();
    }
  } catch (error) {
    return isMissing(error) ? null : { refused: errorText(error) };
  } finally {
    await target.dir.close();
  }
}

const isMissing = (error: unknown) => error instanceof RequestError && error.code === -32002;
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
