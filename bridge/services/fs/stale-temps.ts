// Removes the temporary files a killed bridge left behind. Only files this tool
// made are touched: each is named by a journalled intent that never completed, has
// the name pattern tempName() gives, and belongs to a process that no longer runs.
import path from 'node:path';
import { tempOwner } from './atomic-write.js';
import { removeConfined } from './confined-files.js';
import type { SessionJournal } from './journal.js';
import type { WorkspaceGuard } from './workspace-guard.js';

/** Returns the paths removed; a file that cannot be removed is left for the next start. */
export async function removeStaleTemps(journals: SessionJournal[], guard: WorkspaceGuard): Promise<string[]> {
  const removed: string[] = [];
  for (const journal of journals) {
    for (const write of journal.writes) {
      if (!write.unconfirmed || !write.tmp) continue;
      const owner = tempOwner(write.tmp);
      if (owner === undefined || owner === process.pid || running(owner)) continue;
      const tmp = path.join(path.dirname(write.path), write.tmp);
      try {
        if (await removeConfined(guard, tmp)) removed.push(tmp);
      } catch {
        // outside the workspace now, or not a regular file: not ours to remove
      }
    }
  }
  return removed;
}

/** Whether process `pid` still runs (EPERM: it does, as another user). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
