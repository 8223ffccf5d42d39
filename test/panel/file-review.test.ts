// Accepting and rejecting the agent's changes against a real journal and real files.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileReviews } from '../../bridge/panel/file-review.js';
import { WriteJournal } from '../../bridge/services/fs/journal.js';
import { parseClientMessage } from '../../bridge/panel/protocol.js';
import { readWorkspaceFile } from '../../bridge/panel/workspace-file.js';

function setup() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bb-review-'));
  const workspace = path.join(root, 'Blink');
  const env = { BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
  mkdirSync(workspace);
  const journal = new WriteJournal(workspace, 'session-1', 'test-agent', env);
  const header = { type: 'session' as const, workspace, sessionId: 'session-1', agent: 'test-agent', startedAt: '' };
  const reviews = new FileReviews(workspace, () => ({ file: journal.file, header }));
  journal.onEntry((entry) => reviews.record(entry));
  // What the bridge's fs service does for an agent write: journal the intent, write it, journal it done.
  const agentWrites = (file: string, content: string) => {
    const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
    const entry = journal.intend(file, before, content, '.bb-1-00000000.boardbridge-tmp');
    writeFileSync(file, content);
    journal.done(entry);
  };
  return { workspace, reviews, agentWrites };
}

describe('reviewing the files the agent changed', () => {
  it('covers every write to a file since the last decision in one diff, from before the first to after the last', () => {
    const { workspace, reviews, agentWrites } = setup();
    const ino = path.join(workspace, 'Blink.ino');
    writeFileSync(ino, 'original\n');
    agentWrites(ino, 'first\n');
    agentWrites(ino, 'second\n');
    expect(reviews.list()).toEqual([{ path: ino, name: 'Blink.ino', status: 'pending', created: false, seqs: [1, 2], problem: undefined }]);
    expect(reviews.diff(ino)).toEqual({ original: 'original\n', modified: 'second\n' });
    expect(reviews.accept(ino)).toMatchObject({ review: { status: 'accepted' } });
    agentWrites(ino, 'third\n');
    expect(reviews.diff(ino)).toEqual({ original: 'second\n', modified: 'third\n' });
    expect(reviews.list()[0]).toMatchObject({ status: 'pending', seqs: [3] });
  });

  it('rejecting restores the content the file had before the agent, and removes a file the agent created', async () => {
    const { workspace, reviews, agentWrites } = setup();
    const ino = path.join(workspace, 'Blink.ino');
    const notes = path.join(workspace, 'notes.txt');
    writeFileSync(ino, 'original\n');
    agentWrites(ino, 'changed\n');
    agentWrites(notes, 'new file\n');
    expect(await reviews.reject(ino)).toMatchObject({ review: { status: 'rejected' } });
    expect(readFileSync(ino, 'utf8')).toBe('original\n');
    expect(await reviews.reject(notes)).toMatchObject({ review: { status: 'rejected', created: true } });
    expect(existsSync(notes)).toBe(false);
  });

  it('refuses to reject a file that changed after the agent wrote it, and leaves it as it is', async () => {
    const { workspace, reviews, agentWrites } = setup();
    const ino = path.join(workspace, 'Blink.ino');
    writeFileSync(ino, 'original\n');
    agentWrites(ino, 'changed\n');
    writeFileSync(ino, 'the person edited it too\n');
    const outcome = await reviews.reject(ino);
    expect(outcome).toMatchObject({ error: 'Blink.ino changed after the agent wrote it; it was left as it is' });
    expect(readFileSync(ino, 'utf8')).toBe('the person edited it too\n');
    expect(reviews.list()[0]).toMatchObject({ status: 'pending', problem: expect.stringContaining('changed after') });
  });

  it('records a rejection when the file already holds its old content again (an IDE restored it through its editor)', async () => {
    const { workspace, reviews, agentWrites } = setup();
    const ino = path.join(workspace, 'Blink.ino');
    writeFileSync(ino, 'original\n');
    agentWrites(ino, 'changed\n');
    writeFileSync(ino, 'original\n');
    expect(await reviews.reject(ino)).toMatchObject({ review: { status: 'rejected', problem: undefined } });
    expect(readFileSync(ino, 'utf8')).toBe('original\n');
  });

  it('answers decisions about files the agent never touched, or already decided, with an error', async () => {
    const { workspace, reviews, agentWrites } = setup();
    const ino = path.join(workspace, 'Blink.ino');
    agentWrites(ino, 'x\n');
    expect(await reviews.reject('/etc/passwd')).toMatchObject({ error: 'the agent has not changed /etc/passwd in this session' });
    expect(reviews.diff('/etc/passwd')).toBeUndefined();
    reviews.accept(ino);
    expect(reviews.accept(ino)).toEqual({ error: 'Blink.ino was already accepted' });
    expect(await reviews.reject(ino)).toEqual({ error: 'Blink.ino was already accepted' });
    expect(readFileSync(ino, 'utf8')).toBe('x\n');
  });
});

describe('messages from the page', () => {
  it('are read into typed answers, and anything malformed is an error value', () => {
    expect(parseClientMessage('{"type":"permission","id":3,"optionId":"allow"}')).toEqual({ type: 'permission', id: 3, optionId: 'allow' });
    expect(parseClientMessage('{"type":"review","path":"/w/a.ino","decision":"reject"}')).toEqual({ type: 'review', path: '/w/a.ino', decision: 'reject' });
    expect(parseClientMessage('{"type":"review","path":"/w/a.ino","decision":"delete"}')).toEqual({ error: 'review needs a path and decision accept or reject' });
    expect(parseClientMessage('{"type":"prompt","text":""}')).toEqual({ error: 'prompt needs text' });
    expect(parseClientMessage('not json')).toEqual({ error: 'the message is not JSON' });
    expect(parseClientMessage('null')).toEqual({ error: 'the message is not an object' });
    expect(parseClientMessage('{"type":"open_file","path":"Blink.ino"}')).toEqual({ type: 'open_file', path: 'Blink.ino' });
    expect(parseClientMessage('{"type":"open_file"}')).toEqual({ error: 'open_file needs a path' });
    expect(parseClientMessage('{"type":"session/prompt"}')).toEqual({ error: 'unknown message type "session/prompt"' });
    expect(parseClientMessage('{"type":"editor"}')).toEqual({ type: 'editor' });
    expect(parseClientMessage('{"type":"write_applied","id":4,"ok":true}')).toEqual({ type: 'write_applied', id: 4, ok: true });
    expect(parseClientMessage('{"type":"write_applied","id":"4","ok":"yes"}')).toEqual({ error: 'write_applied needs an id and ok' });
  });

  it("take the Arduino IDE's build facts with a selection only when every field has its type", () => {
    const ide = {
      fqbn: 'arduino:avr:uno',
      buildProperties: { 'build.mcu': 'atmega328p', 'upload.maximum_size': '32256' },
      dataDir: '/home/anna/.arduino15',
      lastCompile: { buildPath: '/tmp/b', sections: [{ name: 'text', size: 924, maxSize: 32256 }], libraries: [{ name: 'Servo', version: '1.2.2', extra: 'dropped' }], platform: { id: 'arduino:avr', version: '1.8.6' } },
    };
    expect(parseClientMessage(JSON.stringify({ type: 'selection', board: 'arduino:avr:uno', arduinoIde: ide }))).toEqual({
      type: 'selection',
      board: 'arduino:avr:uno',
      port: undefined,
      arduinoIde: { ...ide, lastCompile: { ...ide.lastCompile, libraries: [{ name: 'Servo', version: '1.2.2' }] } },
    });
    const bad = (arduinoIde: unknown) => parseClientMessage(JSON.stringify({ type: 'selection', arduinoIde }));
    expect(bad({ buildProperties: { 'build.mcu': 328 } })).toEqual({ error: 'selection: arduinoIde.buildProperties must map property names to strings' });
    expect(bad({ buildProperties: ['build.mcu=atmega328p'] })).toEqual({ error: 'selection: arduinoIde.buildProperties must map property names to strings' });
    expect(bad({ lastCompile: { sections: [{ name: 'text', size: '924' }] } })).toEqual({ error: 'selection: arduinoIde.lastCompile.sections must be [{name, size, maxSize}]' });
    expect(bad({ dataDir: 5 })).toEqual({ error: 'selection: arduinoIde.fqbn, dataDir and userDir must be strings' });
    expect(bad('uno')).toEqual({ error: 'selection: arduinoIde must be an object' });
  });
});

describe('files a diagnostic link asks for', () => {
  it('are read by absolute or workspace-relative path, unsaved IDE contents first', async () => {
    const { workspace } = setup();
    const ino = path.join(workspace, 'Blink.ino');
    writeFileSync(ino, 'on disk\n');
    expect(await readWorkspaceFile(workspace, ino)).toEqual({ path: ino, text: 'on disk\n' });
    expect(await readWorkspaceFile(workspace, 'Blink.ino')).toEqual({ path: ino, text: 'on disk\n' });
    expect(await readWorkspaceFile(workspace, 'Blink.ino', { [ino]: 'unsaved\n' })).toEqual({ path: ino, text: 'unsaved\n' });
  });

  it('are refused outside the workspace, through .. or a symbolic link, and when missing', async () => {
    const { workspace } = setup();
    symlinkSync('/etc', path.join(workspace, 'etc'));
    expect(await readWorkspaceFile(workspace, '../state/x.ino')).toMatchObject({ error: expect.stringContaining('outside the workspace') });
    expect(await readWorkspaceFile(workspace, '/etc/hostname')).toMatchObject({ error: expect.stringContaining('outside the workspace') });
    expect(await readWorkspaceFile(workspace, 'etc/hostname')).toMatchObject({ error: expect.stringContaining('outside the workspace') });
    expect(await readWorkspaceFile(workspace, 'Missing.ino')).toMatchObject({ error: 'Missing.ino does not exist' });
  });
});
