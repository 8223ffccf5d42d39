import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FsService } from '../../bridge/services/fs/fs-service.js';
import { readJournals, WriteJournal } from '../../bridge/services/fs/journal.js';
import { applyUndo, planUndo } from '../../bridge/services/fs/undo.js';
import { WorkspaceGuard } from '../../bridge/services/fs/workspace-guard.js';

let root: string;
let workspace: string;
let outside: string;
let env: NodeJS.ProcessEnv;
let service: FsService;
let buffers: Map<string, string>;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'bb-fs-'));
  workspace = path.join(root, 'Blink');
  outside = path.join(root, 'secrets');
  mkdirSync(workspace);
  mkdirSync(outside);
  writeFileSync(path.join(workspace, 'Blink.ino'), 'void setup() {}\nvoid loop() {}\n// line 3\n');
  writeFileSync(path.join(outside, 'key.txt'), 'secret');
  env = { BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
  buffers = new Map();
  const guard = new WorkspaceGuard([workspace]);
  service = new FsService({ guard, journal: new WriteJournal(workspace, 'sess-1', 'test', env), buffers: () => buffers });
});

const read = (p: string, extra: { line?: number; limit?: number } = {}) => service.read({ sessionId: 's', path: p, ...extra });
const write = (p: string, content: string) => service.write({ sessionId: 's', path: p, content });

describe('the fs service', () => {
  it('reads a workspace file, with line and limit counted from line 1', async () => {
    expect((await read(path.join(workspace, 'Blink.ino'))).content).toContain('void loop');
    expect((await read(path.join(workspace, 'Blink.ino'), { line: 2, limit: 2 })).content).toBe('void loop() {}\n// line 3');
  });

  it('gives unsaved editor contents instead of the disk', async () => {
    buffers.set(path.join(workspace, 'Blink.ino'), 'unsaved text');
    expect((await read(path.join(workspace, 'Blink.ino'))).content).toBe('unsaved text');
  });

  it('journals the unsaved editor text as what a write replaced, so undo brings that back', async () => {
    const ino = path.join(workspace, 'Blink.ino');
    buffers.set(ino, 'unsaved text');
    await write(ino, 'agent text');
    const [journal] = await readJournals(workspace, env);
    expect(journal.writes[0]).toMatchObject({ path: ino, before: 'unsaved text', after: 'agent text' });
    const steps = await planUndo(journal);
    await applyUndo(journal, steps, false);
    expect(readFileSync(ino, 'utf8')).toBe('unsaved text');
  });

  it('refuses relative paths, .. traversal and absolute paths outside the workspace, touching nothing', async () => {
    await expect(read('Blink.ino')).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('relative') });
    await expect(read(path.join(workspace, '..', 'secrets', 'key.txt'))).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('outside the workspace') });
    await expect(write(path.join(outside, 'new.txt'), 'x')).rejects.toMatchObject({ code: -32602 });
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });

  it('refuses a symlink inside the workspace that leads out, for reads and writes', async () => {
    symlinkSync(outside, path.join(workspace, 'link'));
    await expect(read(path.join(workspace, 'link', 'key.txt'))).rejects.toMatchObject({ message: expect.stringContaining('symbolic link') });
    await expect(write(path.join(workspace, 'link', 'key.txt'), 'pwned')).rejects.toMatchObject({ code: -32602 });
    expect(readFileSync(path.join(outside, 'key.txt'), 'utf8')).toBe('secret');
  });

  it('answers a read of a missing file with resource-not-found, naming the file', async () => {
    await expect(read(path.join(workspace, 'missing.h'))).rejects.toMatchObject({ code: -32002, message: expect.stringContaining('missing.h') });
  });

  it('reads a missing file as empty for agents that need it (gemini-cli), so their write tool can create it', async () => {
    const svc = new FsService({ guard: new WorkspaceGuard([workspace]), journal: new WriteJournal(workspace, 'g', 'gemini', env), missingFileAsEmpty: true });
    expect((await svc.read({ sessionId: 's', path: path.join(workspace, 'new.h') })).content).toBe('');
    await expect(svc.read({ sessionId: 's', path: path.join(outside, 'nothing.h') })).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses binary and non-UTF-8 files with a clear error', async () => {
    writeFileSync(path.join(workspace, 'firmware.hex.bin'), Buffer.from([0x0c, 0x94, 0x00, 0x5c]));
    writeFileSync(path.join(workspace, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    await expect(read(path.join(workspace, 'firmware.hex.bin'))).rejects.toMatchObject({ message: expect.stringContaining('binary') });
    await expect(read(path.join(workspace, 'latin1.txt'))).rejects.toMatchObject({ message: expect.stringContaining('UTF-8') });
  });

  it('lets read-only platform folders be read but never written', async () => {
    const guard = new WorkspaceGuard([workspace]);
    guard.allowReadOnly([outside]);
    const svc = new FsService({ guard, journal: new WriteJournal(workspace, 'ro', 'test', env) });
    expect((await svc.read({ sessionId: 's', path: path.join(outside, 'key.txt') })).content).toBe('secret');
    await expect(svc.write({ sessionId: 's', path: path.join(outside, 'key.txt'), content: 'x' })).rejects.toMatchObject({ message: expect.stringContaining('read-only') });
  });

  it('creates parent folders, writes atomically and leaves no temporary files', async () => {
    const target = path.join(workspace, 'src', 'led', 'fade.h');
    await write(target, '#pragma once\n');
    expect(readFileSync(target, 'utf8')).toBe('#pragma once\n');
    expect(readdirSync(path.dirname(target))).toEqual(['fade.h']);
  });

  it('journals every write with the content it replaced, and undo restores and deletes', async () => {
    const ino = path.join(workspace, 'Blink.ino');
    const original = readFileSync(ino, 'utf8');
    await write(ino, 'first edit');
    await write(ino, 'second edit');
    await write(path.join(workspace, 'new.h'), 'created');
    const [journal] = await readJournals(workspace, env);
    expect(journal.writes.map((w) => [path.basename(w.path), w.before === null])).toEqual([
      ['Blink.ino', false],
      ['Blink.ino', false],
      ['new.h', true],
    ]);
    const steps = await planUndo(journal);
    expect(steps.every((s) => !s.conflict)).toBe(true);
    await applyUndo(journal, steps, false);
    expect(readFileSync(ino, 'utf8')).toBe(original);
    expect(existsSync(path.join(workspace, 'new.h'))).toBe(false);
    expect((await readJournals(workspace, env))[0].undone).toBe(true);
  });

  it('tells listeners about a write only once the file on disk holds it', async () => {
    const journal = new WriteJournal(workspace, 'listen', 'test', env);
    const seen: string[] = [];
    journal.onEntry((entry) => seen.push(readFileSync(entry.path, 'utf8')));
    const svc = new FsService({ guard: new WorkspaceGuard([workspace]), journal });
    await svc.write({ sessionId: 's', path: path.join(workspace, 'Blink.ino'), content: 'new content' });
    expect(seen).toEqual(['new content']);
  });

  it('does not undo over a file the person changed after the agent wrote it, unless forced', async () => {
    const ino = path.join(workspace, 'Blink.ino');
    await write(ino, 'agent edit');
    writeFileSync(ino, 'person edit');
    const [journal] = await readJournals(workspace, env);
    const steps = await planUndo(journal);
    expect(steps[0].conflict).toBe(true);
    expect(await applyUndo(journal, steps, false)).toEqual([]);
    expect(readFileSync(ino, 'utf8')).toBe('person edit');
    await applyUndo(journal, steps, true);
    expect(readFileSync(ino, 'utf8')).toContain('void setup');
  });
});

describe('agent writes through an IDE editor', () => {
  const make = (editorWrite: (file: string, text: string) => Promise<boolean>) => {
    const journal = new WriteJournal(workspace, 'sess-ed', 'test', env);
    const written: string[] = [];
    journal.onEntry((entry) => written.push(`${entry.path} ${readFileSync(entry.path, 'utf8')}`));
    return { journal, written, svc: new FsService({ guard: new WorkspaceGuard([workspace]), journal, editorWrite }) };
  };
  const ino = () => path.join(workspace, 'Blink.ino');

  it('lets the editor apply and save a write to an existing file, journalled before and announced after', async () => {
    const asked: string[] = [];
    const { svc, written, journal } = make(async (file, text) => {
      asked.push(file);
      writeFileSync(file, text); // what the IDE's save does
      return true;
    });
    await svc.write({ sessionId: 's', path: ino(), content: 'faded\n' });
    expect(asked).toEqual([ino()]);
    expect(written).toEqual([`${ino()} faded\n`]);
    const journals = await readJournals(workspace, env);
    expect(journals.find((j) => j.file === journal.file)?.writes[0]).toMatchObject({ path: ino(), before: 'void setup() {}\nvoid loop() {}\n// line 3\n', after: 'faded\n' });
  });

  it('writes the file itself when the editor fails, throws, or saves something else; never asks for a new file', async () => {
    for (const editor of [async () => false, async () => Promise.reject(new Error('gone')), async (file: string) => (writeFileSync(file, 'other'), true)]) {
      const { svc } = make(editor);
      await svc.write({ sessionId: 's', path: ino(), content: 'agent text\n' });
      expect(readFileSync(ino(), 'utf8')).toBe('agent text\n');
    }
    const asked: string[] = [];
    const { svc } = make(async (file) => (asked.push(file), true));
    await svc.write({ sessionId: 's', path: path.join(workspace, 'new.h'), content: '#pragma once\n' });
    expect(asked).toEqual([]);
    expect(readFileSync(path.join(workspace, 'new.h'), 'utf8')).toBe('#pragma once\n');
  });
});
