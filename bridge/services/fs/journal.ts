// Every agent write is journalled with the content it replaced, per session, so a
// face can show the diff and `boardbridge undo` can put the files back.
import { createHash } from 'node:crypto';
import { promises as fs, appendFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface JournalEntry {
  seq: number;
  time: string;
  path: string;
  /** Content before the write; null when the agent created the file. */
  before: string | null;
  after: string;
}

interface JournalHeader {
  type: 'session';
  workspace: string;
  sessionId: string;
  agent: string;
  startedAt: string;
}

type JournalLine = JournalHeader | ({ type: 'write' } & JournalEntry) | { type: 'undone'; time: string };

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BOARDBRIDGE_STATE_DIR) return env.BOARDBRIDGE_STATE_DIR;
  const base = env.XDG_STATE_HOME || path.join(env.HOME || os.homedir(), '.local', 'state');
  return path.join(base, 'boardbridge');
}

export function journalDir(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256').update(path.resolve(workspace)).digest('hex').slice(0, 16);
  return path.join(stateDir(env), 'journal', hash);
}

export class WriteJournal {
  readonly file: string;
  private seq = 0;
  private readonly listeners = new Set<(entry: JournalEntry) => void>();

  constructor(workspace: string, sessionId: string, agent: string, env: NodeJS.ProcessEnv = process.env) {
    const dir = journalDir(workspace, env);
    const startedAt = new Date().toISOString();
    this.file = path.join(dir, `${startedAt.replace(/[:.]/g, '-')}-${sessionId.replace(/[^\w-]/g, '_')}.jsonl`);
    mkdirSync(dir, { recursive: true });
    const header: JournalHeader = { type: 'session', workspace: path.resolve(workspace), sessionId, agent, startedAt };
    appendFileSync(this.file, JSON.stringify(header) + '\n');
  }

  /** Called for each agent write once the file on disk holds the new content. */
  onEntry(listener: (entry: JournalEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // Appended synchronously before the file is written: a crash in between still leaves the record.
  record(file: string, before: string | null, after: string): JournalEntry {
    const entry: JournalEntry = { seq: ++this.seq, time: new Date().toISOString(), path: file, before, after };
    appendFileSync(this.file, JSON.stringify({ type: 'write', ...entry }) + '\n');
    return entry;
  }

  /** The write `entry` describes is on disk now: tell the faces. */
  written(entry: JournalEntry): void {
    for (const listener of this.listeners) listener(entry);
  }
}

export interface SessionJournal {
  file: string;
  header: JournalHeader;
  writes: JournalEntry[];
  undone: boolean;
}

export async function readJournals(workspace: string, env: NodeJS.ProcessEnv = process.env): Promise<SessionJournal[]> {
  const dir = journalDir(workspace, env);
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
  } catch {
    return [];
  }
  const journals: SessionJournal[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const journal = parseJournal(file, await fs.readFile(file, 'utf8'));
    if (journal) journals.push(journal);
  }
  return journals;
}

function parseJournal(file: string, text: string): SessionJournal | undefined {
  let header: JournalHeader | undefined;
  const writes: JournalEntry[] = [];
  let undone = false;
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    let line: JournalLine;
    try {
      line = JSON.parse(raw) as JournalLine;
    } catch {
      continue; // a torn last line after a crash: the entries before it still count
    }
    if (line.type === 'session') header = line;
    else if (line.type === 'write') writes.push({ seq: line.seq, time: line.time, path: line.path, before: line.before, after: line.after });
    else if (line.type === 'undone') undone = true;
  }
  return header ? { file, header, writes, undone } : undefined;
}

export function markUndone(journal: SessionJournal): void {
  appendFileSync(journal.file, JSON.stringify({ type: 'undone', time: new Date().toISOString() }) + '\n');
}
