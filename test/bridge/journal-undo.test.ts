// The write journal's two phases and an undo that tells the truth after a crash,
// never reaching outside the workspace.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readJournals, WriteJournal } from '../../bridge/services/fs/journal.js';
import { removeStaleTemps } from '../../bridge/services/fs/stale-temps.js';
import { applyUndo, planUndo } from '../../bridge/services/fs/undo.js';
import { WorkspaceGuard } from '../../bridge/services/fs/workspace-guard.js';

let root: string;
let workspace: string;
let outside: string;
let env: NodeJS.ProcessEnv;
let journal: WriteJournal;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'bb-journal-'));
  workspace = path.join(root, 'Blink');
  outside = path.join(root, 'elsewhere');
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  mkdirSync(outside);
  env = { BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
  journal = new WriteJournal(workspace, 'sess', 'test', env);
});

const last = async () => (await readJournals(workspace, env)).at(-1)!;

// The pid of a process that has exited: what a SIGKILLed bridge leaves in its temp names.
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

describe('a write journalled in two phases', () => {
  it('tells "never written" from "changed since" for a write whose intent has no done', async () => {
    const ino = path.join(workspace, 'Blink.ino');
    writeFileSync(ino, 'old\n');
    journal.intend(ino, 'old\n', 'new\n', '.bb-1-00000000.boardbridge-tmp'); // the bridge died before the rename
    let [step] = await planUndo(await last());
    expect(step).toMatchObject({ action: 'none', conflict: false });
    writeFileSync(ino, 'new\n'); // it died after the rename, before `done`
    [step] = await planUndo(await last());
    expect(step).toMatchObject({ action: 'restore', conflict: false });
    writeFileSync(ino, 'the person typed this\n');
    [step] = await planUndo(await last());
    expect(step).toMatchObject({ action: 'restore', conflict: true });
  });

  it('forgets a write that failed, so it is neither undone nor a conflict', async () => {
    const ino = path.join(workspace, 'Blink.ino');
    writeFileSync(ino, 'old\n');
    journal.failed(journal.intend(ino, 'old\n', 'new\n', '.bb-1-00000000.boardbridge-tmp'));
    expect((await last()).writes).toEqual([]);
  });

  it('announces a write to the faces only when it is done', async () => {
    const seen: number[] = [];
    journal.onEntry((e) => seen.push(e.seq));
    const entry = journal.intend(path.join(workspace, 'a.h'), null, 'x', '.bb-1-00000000.boardbridge-tmp');
    expect(seen).toEqual([]);
    journal.done(entry);
    expect(seen).toEqual([entry.seq]);
    expect((await last()).writes[0].unconfirmed).toBeUndefined();
  });
});

describe('stale temporary files', () => {
  it('are removed when their bridge is dead, and kept while it runs or when another tool made them', async () => {
    const dead = deadPid();
    const names = {
      dead: `.bb-${dead}-0123abcd.boardbridge-tmp`,
      live: `.bb-${process.ppid}-0123abcd.boardbridge-tmp`,
      foreign: 'Blink.ino.boardbridge-tmp',
    };
    for (const name of Object.values(names)) {
      writeFileSync(path.join(workspace, 'src', name), 'half a file');
      journal.intend(path.join(workspace, 'src', 'fade.h'), null, 'x', name);
    }
    const removed = await removeStaleTemps(await readJournals(workspace, env), new WorkspaceGuard([workspace]));
    expect(removed).toEqual([path.join(workspace, 'src', names.dead)]);
    expect(readdirSync(path.join(workspace, 'src')).sort()).toEqual([names.foreign, names.live].sort());
  });

  it('are never removed through a folder swapped for a link out of the workspace', async () => {
    const name = `.bb-${deadPid()}-0123abcd.boardbridge-tmp`;
    journal.intend(path.join(workspace, 'src', 'fade.h'), null, 'x', name);
    writeFileSync(path.join(outside, name), 'not ours');
    renameSync(path.join(workspace, 'src'), path.join(workspace, 'src.real'));
    symlinkSync(outside, path.join(workspace, 'src'));
    expect(await removeStaleTemps(await readJournals(workspace, env), new WorkspaceGuard([workspace]))).toEqual([]);
    expect(readFileSync(path.join(outside, name), 'utf8')).toBe('not ours');
  });
});

describe('undo through the workspace guard', () => {
  it('deletes nothing and writes nothing outside when the folder became a link out', async () => {
    const created = path.join(workspace, 'src', 'fade.h');
    const replaced = path.join(workspace, 'src', 'pins.h');
    journal.done(journal.intend(created, null, 'agent\n', '.bb-1-00000000.boardbridge-tmp'));
    journal.done(journal.intend(replaced, 'old\n', 'agent\n', '.bb-1-00000001.boardbridge-tmp'));
    // The same names, with the agent's content, outside: a naive undo would delete or overwrite them.
    writeFileSync(path.join(outside, 'fade.h'), 'agent\n');
    writeFileSync(path.join(outside, 'pins.h'), 'agent\n');
    renameSync(path.join(workspace, 'src'), path.join(workspace, 'src.real'));
    symlinkSync(outside, path.join(workspace, 'src'));
    const session = await last();
    const steps = await planUndo(session);
    expect(steps.every((s) => s.refused?.includes('symbolic link'))).toBe(true);
    expect(await applyUndo(session, steps, true)).toEqual([]);
    expect(readFileSync(path.join(outside, 'fade.h'), 'utf8')).toBe('agent\n');
    expect(readFileSync(path.join(outside, 'pins.h'), 'utf8')).toBe('agent\n');
  });

  it('refuses a journal entry outside the workspace, however it got there', async () => {
    const target = path.join(outside, 'key.txt');
    writeFileSync(target, 'agent\n');
    journal.record(target, null, 'agent\n');
    const [step] = await planUndo(await last());
    expect(step.refused).toContain('outside the workspace');
    await applyUndo(await last(), [step], true);
    expect(existsSync(target)).toBe(true);
  });
});
