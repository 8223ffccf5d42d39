// The fs service against files an attacker or an accident puts in the workspace:
// FIFOs, links swapped in mid-request, huge files, the longest valid names.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FsService, MAX_READ_BYTES, sliceLines } from '../../bridge/services/fs/fs-service.js';
import { readJournals, WriteJournal } from '../../bridge/services/fs/journal.js';
import { WorkspaceGuard } from '../../bridge/services/fs/workspace-guard.js';

let root: string;
let workspace: string;
let outside: string;
let env: NodeJS.ProcessEnv;
let service: FsService;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'bb-fs-hostile-'));
  workspace = path.join(root, 'Blink');
  outside = path.join(root, 'secrets');
  mkdirSync(workspace);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'key.txt'), 'secret');
  env = { BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
  service = new FsService({ guard: new WorkspaceGuard([workspace]), journal: new WriteJournal(workspace, 'hostile', 'test', env) });
});

const read = (p: string, extra: { line?: number; limit?: number } = {}) => service.read({ sessionId: 's', path: p, ...extra });
const write = (p: string, content: string) => service.write({ sessionId: 's', path: p, content });

describe('the fs service and non-regular files', () => {
  it('refuses to read a FIFO at once, and the next read still works', async () => {
    const fifo = path.join(workspace, 'pipe');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(path.join(workspace, 'Blink.ino'), 'void setup() {}\n');
    await expect(read(fifo)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('FIFO') });
    expect((await read(path.join(workspace, 'Blink.ino'))).content).toBe('void setup() {}\n');
  });

  it('refuses to write over a FIFO, leaving it a FIFO', async () => {
    const fifo = path.join(workspace, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await expect(write(fifo, 'x')).rejects.toMatchObject({ message: expect.stringContaining('only regular files') });
    expect(execFileSync('stat', ['-c', '%F', fifo], { encoding: 'utf8' }).trim()).toBe('fifo');
  });

  it('refuses a device and a folder by name, with what it is', async () => {
    const guard = new WorkspaceGuard(['/dev']);
    const svc = new FsService({ guard, journal: new WriteJournal(workspace, 'dev', 'test', env) });
    await expect(svc.read({ sessionId: 's', path: '/dev/null' })).rejects.toMatchObject({ message: expect.stringContaining('a device') });
    await expect(read(workspace + '/')).rejects.toMatchObject({ code: -32602 });
    mkdirSync(path.join(workspace, 'src'));
    await expect(read(path.join(workspace, 'src'))).rejects.toMatchObject({ message: expect.stringContaining('is a folder') });
  });
});

describe('the fs service under names and sizes at the limits', () => {
  it('writes and reads back a file with a 240-character name, leaving no temporary file', async () => {
    const name = `${'n'.repeat(236)}.ino`;
    await write(path.join(workspace, name), 'void loop() {}\n');
    expect(readdirSync(workspace)).toEqual([name]);
    expect((await read(path.join(workspace, name))).content).toBe('void loop() {}\n');
  });

  it('says a name over 255 bytes is too long, and journals no false write', async () => {
    const name = 'n'.repeat(256);
    await expect(write(path.join(workspace, name), 'x')).rejects.toMatchObject({ message: expect.stringContaining('too long') });
    const [journal] = await readJournals(workspace, env);
    expect(journal?.writes ?? []).toEqual([]);
  });

  it('refuses a write through a dangling folder link, creating nothing where it points and journalling nothing', async () => {
    const target = path.join(outside, 'not-yet');
    symlinkSync(target, path.join(workspace, 'lib'));
    await expect(write(path.join(workspace, 'lib', 'fade.h'), 'x')).rejects.toMatchObject({ message: expect.stringContaining('symbolic link') });
    expect(readdirSync(outside)).toEqual(['key.txt']);
    const [journal] = await readJournals(workspace, env);
    expect(journal?.writes ?? []).toEqual([]);
  });

  it('reads lines of a file over 8 MB with line and limit, and refuses it whole', async () => {
    const big = path.join(workspace, 'log.txt');
    const fd = openSync(big, 'w');
    const block = Array.from({ length: 1000 }, (_, i) => `line ${i} ${'x'.repeat(90)}`).join('\n') + '\n';
    for (let i = 0; i < 100; i++) writeSync(fd, block.replace(/^line (\d+)/gm, (_, n) => `line ${i * 1000 + Number(n)}`));
    closeSync(fd);
    const text = readFileSync(big, 'utf8');
    expect(text.length).toBeGreaterThan(MAX_READ_BYTES);
    await expect(read(big)).rejects.toMatchObject({ message: expect.stringContaining('line and limit') });
    for (const [line, limit] of [[1, 2], [54321, 3], [99999, 5], [100000, 1], [100001, 4], [200000, 4]] as const) {
      expect((await read(big, { line, limit })).content).toBe(sliceLines(text, line, limit));
    }
    await expect(read(big, { line: 2 })).rejects.toMatchObject({ message: expect.stringContaining('fewer lines') });
    await expect(write(big, 'x')).rejects.toMatchObject({ message: expect.stringContaining(`an agent may replace files of up to ${MAX_READ_BYTES} bytes`) });
    expect((await read(big, { line: 99990 })).content).toBe(sliceLines(text, 99990));
  });

  it('matches splitting on newlines exactly for small files, at every line and limit', async () => {
    const file = path.join(workspace, 'Blink.ino');
    for (const text of ['', '\n', 'a', 'a\n', 'a\nb', '\n\nx\n\n', 'é\nü\n']) {
      writeFileSync(file, text);
      for (const line of [1, 2, 3, 5]) {
        for (const limit of [0, 1, 2, 10]) expect((await read(file, { line, limit })).content).toBe(sliceLines(text, line, limit));
        expect((await read(file, { line })).content).toBe(sliceLines(text, line));
      }
    }
  });
});

describe('the fs service and links swapped in after the check', () => {
  it('never reads an outside file through a file swapped for a link, nor writes through a folder swapped for one', async () => {
    const file = path.join(workspace, 'notes.txt');
    const folder = path.join(workspace, 'src');
    mkdirSync(folder);
    writeFileSync(file, 'inside');
    const outsideFolderBefore = readdirSync(outside);
    let outsideContent = 0;
    for (let round = 0; round < 200; round++) {
      // Swap between the guard's check and the open: the service checks, then awaits, then opens.
      const reply = read(file).then(
        (r) => r.content,
        () => undefined,
      );
      const written = write(path.join(folder, 'out.h'), `round ${round}`).catch(() => undefined);
      rmSync(file);
      symlinkSync(path.join(outside, 'key.txt'), file);
      renameSync(folder, `${folder}.real`);
      symlinkSync(outside, folder);
      const content = await reply;
      await written;
      if (content === 'secret') outsideContent++;
      rmSync(file);
      writeFileSync(file, 'inside');
      rmSync(folder);
      renameSync(`${folder}.real`, folder);
    }
    expect(outsideContent).toBe(0);
    expect(readdirSync(outside)).toEqual(outsideFolderBefore);
  });
});
