// `boardbridge undo`: puts back the files an agent session wrote, from the journal.
import path from 'node:path';
import type { Command } from 'commander';
import { EXIT } from './errors.js';
import { sessionLabel } from './session-label.js';
import { addWorkspaceOption, workspaceOf } from './workspace-option.js';

interface UndoFlags {
  workspace?: string;
  session?: string;
  list?: boolean;
  force?: boolean;
}

export function registerUndo(program: Command): void {
  const command = program
    .command('undo')
    .description("restore the files the agent changed in the last session (or --session ID)")
    .option('--session <id>', 'undo this session instead of the last one')
    .option('--list', 'list the sessions that wrote files')
    .option('--force', 'also restore files edited again since the agent wrote them');
  addWorkspaceOption(command, true).action(async (where: string | undefined, flags: UndoFlags) => {
    process.exitCode = await undo({ ...flags, workspace: workspaceOf(command, where, flags) });
  });
}

async function undo(flags: UndoFlags): Promise<number> {
  // Loaded here, not at start-up: every other command would pay for the ACP SDK they pull in.
  const [{ readJournals }, { removeStaleTemps }, { applyUndo, journalGuard, planUndo }, { WorkspaceGuard }] = await Promise.all([
    import('../services/fs/journal.js'),
    import('../services/fs/stale-temps.js'),
    import('../services/fs/undo.js'),
    import('../services/fs/workspace-guard.js'),
  ]);
  const workspace = path.resolve(flags.workspace ?? process.cwd());
  const all = await readJournals(workspace);
  const out = (s: string) => process.stdout.write(s + '\n');
  // A bridge killed mid-write left its temporary file: no session of its own will remove it.
  if (all.length) for (const tmp of await removeStaleTemps(all, new WorkspaceGuard([workspace]))) out(`removed ${path.relative(workspace, tmp)} (left by a bridge that was killed mid-write)`);
  const journals = all.filter((j) => j.writes.length > 0);
  if (flags.list) {
    if (!journals.length) out(`no agent writes recorded for ${workspace}`);
    for (const j of journals) out(`${sessionLabel(j.header)}  ${j.writes.length} write(s)${j.undone ? '  (undone)' : ''}  --session ${j.header.sessionId}`);
    return EXIT.ok;
  }
  const journal = flags.session ? journals.find((j) => j.header.sessionId === flags.session) : [...journals].reverse().find((j) => !j.undone);
  if (!journal) {
    process.stderr.write(
      flags.session
        ? `boardbridge: no session ${flags.session} wrote files in ${workspace}\n  → list them: boardbridge undo --list\n`
        : `boardbridge: nothing to undo in ${workspace}\n`,
    );
    return flags.session ? EXIT.error : EXIT.ok;
  }
  const guard = journalGuard(journal);
  const steps = await planUndo(journal, guard);
  const done = await applyUndo(journal, steps, Boolean(flags.force), guard);
  for (const step of steps) {
    const rel = path.relative(workspace, step.path) || step.path;
    if (step.refused) out(`left ${rel} alone: ${step.refused}`);
    else if (!done.includes(step)) out(`kept ${rel}: it changed after the agent wrote it (use --force to restore it anyway)`);
    else if (step.action === 'none') out(`nothing to undo in ${rel}: the agent's write never reached it (the bridge stopped before writing)`);
    else out(`${step.action === 'delete' ? 'deleted' : 'restored'} ${rel}`);
  }
  return done.length === steps.length ? EXIT.ok : EXIT.error;
}
