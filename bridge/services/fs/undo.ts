// Restores the files one agent session changed. A file edited again since the
// agent wrote it is a conflict: it is left alone unless the person forces it.
import { promises as fs } from 'node:fs';
import { writeFileAtomic } from './atomic-write.js';
import { markUndone, type SessionJournal } from './journal.js';

export interface UndoStep {
  path: string;
  action: 'restore' | 'delete';
  /** The file no longer holds what the agent last wrote. */
  conflict: boolean;
  original: string | null;
}

export async function planUndo(journal: SessionJournal): Promise<UndoStep[]> {
  const byPath = new Map<string, { original: string | null; last: string }>();
  for (const write of journal.writes) {
    const seen = byPath.get(write.path);
    if (seen) seen.last = write.after;
    else byPath.set(write.path, { original: write.before, last: write.after });
  }
  const steps: UndoStep[] = [];
  for (const [file, { original, last }] of byPath) {
    let current: string | null;
    try {
      current = await fs.readFile(file, 'utf8');
    } catch {
      current = null;
    }
    steps.push({ path: file, action: original === null ? 'delete' : 'restore', conflict: current !== last, original });
  }
  return steps;
}

export async function applyUndo(journal: SessionJournal, steps: UndoStep[], force: boolean): Promise<UndoStep[]> {
  const done: UndoStep[] = [];
  for (const step of steps) {
    if (step.conflict && !force) continue;
    if (step.original === null) await fs.rm(step.path, { force: true });
    else await writeFileAtomic(step.path, step.original);
    done.push(step);
  }
  if (done.length === steps.length) markUndone(journal);
  return done;
}
