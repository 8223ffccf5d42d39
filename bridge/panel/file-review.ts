// The person's accept/reject of each file the agent changed. The journal holds
// every write with the content it replaced; rejecting puts that content back the
// way `boardbridge undo` does (atomic write, or removal of a created file) and
// refuses when the file changed since the agent wrote it.
import path from 'node:path';
import { readConfined } from '../services/fs/confined-files.js';
import type { JournalEntry, SessionJournal } from '../services/fs/journal.js';
import { journalGuard, planUndo, restoreStep } from '../services/fs/undo.js';
import type { WorkspaceGuard } from '../services/fs/workspace-guard.js';
import type { FileReviewState, ReviewStatus } from './protocol.js';

interface Review {
  entries: JournalEntry[];
  status: ReviewStatus;
  problem?: string;
}

export type ReviewOutcome = { review: FileReviewState } | { error: string; hint?: string };

export class FileReviews {
  private readonly reviews = new Map<string, Review>();

  /** `journal` names the session's journal (its file and header) for the undo planner. */
  constructor(
    private readonly workspace: string,
    private readonly journal: () => Pick<SessionJournal, 'file' | 'header'>,
  ) {}

  /** A new agent write: joins the file's open review, or opens a new one after a decision. */
  record(entry: JournalEntry): FileReviewState {
    const open = this.reviews.get(entry.path);
    if (open && open.status === 'pending') {
      open.entries.push(entry);
      open.problem = undefined;
    } else {
      this.reviews.set(entry.path, { entries: [entry], status: 'pending' });
    }
    return this.view(entry.path)!;
  }

  list(): FileReviewState[] {
    return [...this.reviews.keys()].map((p) => this.view(p)!);
  }

  /** What the file held before the reviewed writes, and what the agent left in it. */
  diff(file: string): { original: string; modified: string } | undefined {
    const review = this.reviews.get(file);
    if (!review) return undefined;
    return { original: review.entries[0].before ?? '', modified: review.entries[review.entries.length - 1].after };
  }

  accept(file: string): ReviewOutcome {
    const review = this.reviews.get(file);
    if (!review) return unknownFile(file);
    if (review.status !== 'pending') return { error: `${this.name(file)} was already ${review.status}` };
    review.status = 'accepted';
    review.problem = undefined;
    return { review: this.view(file)! };
  }

  async reject(file: string): Promise<ReviewOutcome> {
    const review = this.reviews.get(file);
    if (!review) return unknownFile(file);
    if (review.status !== 'pending') return { error: `${this.name(file)} was already ${review.status}` };
    const guard = journalGuard(this.journal());
    const [step] = await planUndo({ ...this.journal(), writes: review.entries }, guard);
    // Restored already (an IDE puts the old text back through its editor, so its undo works).
    if (step.conflict && step.original !== null && (await currentText(step.path, guard)) === step.original) return this.decided(file, review, 'rejected');
    if (step.conflict) {
      review.problem = `${this.name(file)} changed after the agent wrote it; it was left as it is`;
      return { error: review.problem, hint: 'undo your own change first, or edit the file by hand' };
    }
    try {
      await restoreStep(step, guard);
    } catch (error) {
      review.problem = `${this.name(file)} could not be restored: ${(error as Error).message}`;
      return { error: review.problem, hint: 'check the folder permissions; the journal still holds the old content (boardbridge undo)' };
    }
    return this.decided(file, review, 'rejected');
  }

  private decided(file: string, review: Review, status: ReviewStatus): ReviewOutcome {
    review.status = status;
    review.problem = undefined;
    return { review: this.view(file)! };
  }

  private view(file: string): FileReviewState | undefined {
    const review = this.reviews.get(file);
    if (!review) return undefined;
    return {
      path: file,
      name: this.name(file),
      status: review.status,
      created: review.entries[0].before === null,
      seqs: review.entries.map((e) => e.seq),
      problem: review.problem,
    };
  }

  private name(file: string): string {
    const relative = path.relative(this.workspace, file);
    return relative.startsWith('..') ? file : relative;
  }
}

async function currentText(file: string, guard: WorkspaceGuard): Promise<string | null> {
  try {
    return await readConfined(guard, file, { maxBytes: Number.MAX_SAFE_INTEGER });
  } catch {
    return null;
  }
}

function unknownFile(file: string): ReviewOutcome {
  return { error: `the agent has not changed ${file} in this session`, hint: 'pick a file from the list of changes' };
}
