// Every agent write is journalled with the content it replaced, per session, so a
// face can show the diff and `boardbridge undo` can put the files back. A write is
// journalled in two phases: its intent (with the temporary file it goes through)
// before anything touches the disk, then `done` once the file holds it, or `failed`.
// An intent with neither means the bridge died in between: the file may hold the old
// or the new content, and undo tells which.
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
  /** Only an intent was recorded: the bridge stopped before it knew the write had reached the disk. */
  unconfirmed?: boolean;
  /** The temporary file (a name in the file's folder) the write went through. */
  tmp?: string;
}

interface JournalHeader {
  type: 'session';
  workspace: string;
  sessionId: string;
  /** The launch id (`claude`, or the command's name for --agent-command). */
  agent: string;
  startedAt: string;
  /** What `undo --list` calls the session: absent in journals from before it, and until the first prompt. */
  name?: SessionName;
}

/** The agent's own name for itself (initialize's agentInfo) and the person's first prompt. */
export interface SessionName {
  agentName: string;
  firstPrompt: string;
}

type JournalLine =
  | JournalHeader
  // `intent` is absent on lines of older journals and on edits the agent made itself: both are done.
  | ({ type: 'write'; intent?: boolean } & Omit<JournalEntry, 'unconfirmed'>)
  | { type: 'done' | 'failed'; seq: number }
  | { type: 'undone'; time: string }
  // The name, when the header was already written (a write before the first prompt).
  | ({ type: 'name' } & SessionName);

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
  /** Written with the first write: a session that writes nothing leaves no journal. */
  private header?: JournalHeader;
  private named = false;

  constructor(workspace: string, sessionId: string, agent: string, env: NodeJS.ProcessEnv = process.env) {
    const startedAt = new Date().toISOString();
    this.file = path.join(journalDir(workspace, env), `${startedAt.replace(/[:.]/g, '-')}-${sessionId.replace(/[^\w-]/g, '_')}.jsonl`);
    this.header = { type: 'session', workspace: path.resolve(workspace), sessionId, agent, startedAt };
  }

  /** Names the session once, as its first prompt is sent; a session that writes nothing still leaves no file. */
  name(name: SessionName): void {
    if (this.named) return;
    this.named = true;
    if (this.header) this.header.name = name;
    else this.append({ type: 'name', ...name });
  }

  private append(line: JournalLine): void {
    if (this.header) {
      mkdirSync(path.dirname(this.file), { recursive: true });
      appendFileSync(this.file, JSON.stringify(this.header) + '\n');
      this.header = undefined;
    }
    appendFileSync(this.file, JSON.stringify(line) + '\n');
  }

  /** Called for each agent write once the file on disk holds the new content. */
  onEntry(listener: (entry: JournalEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Appended synchronously before the file is touched: a crash in between still leaves the record. */
  intend(file: string, before: string | null, after: string, tmp: string): JournalEntry {
    const entry: JournalEntry = { seq: ++this.seq, time: new Date().toISOString(), path: file, before, after, tmp };
    this.append({ type: 'write', intent: true, ...entry });
    return entry;
  }

  /** The write `entry` describes is on disk now: record it and tell the faces. */
  done(entry: JournalEntry): void {
    this.append({ type: 'done', seq: entry.seq });
    this.announce(entry);
  }

  /** The write never reached the file: undo has nothing to take back. */
  failed(entry: JournalEntry): void {
    this.append({ type: 'failed', seq: entry.seq });
  }

  /** A change already on disk (an agent that edits files itself): recorded and announced at once. */
  record(file: string, before: string | null, after: string): JournalEntry {
    const entry: JournalEntry = { seq: ++this.seq, time: new Date().toISOString(), path: file, before, after };
    this.append({ type: 'write', ...entry });
    this.announce(entry);
    return entry;
  }

  private announce(entry: JournalEntry): void {
    for (const listener of this.listeners) listener(entry);
  }
}

export interface SessionJournal {
  file: string;
  header: JournalHeader;
  writes: JournalEntry[];
  undone: boolean;
}

/** The workspace's session journals, oldest first; only the `latest` ones when given. */
export async function readJournals(workspace: string, env: NodeJS.ProcessEnv = process.env, latest = Infinity): Promise<SessionJournal[]> {
  const dir = journalDir(workspace, env);
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort().slice(-latest);
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
  const writes: Array<Extract<JournalLine, { type: 'write' }>> = [];
  const settled = new Map<number, 'done' | 'failed'>();
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
    else if (line.type === 'name' && header && !header.name) header = { ...header, name: { agentName: line.agentName, firstPrompt: line.firstPrompt } };
    else if (line.type === 'write') writes.push(line);
    else if (line.type === 'done' || line.type === 'failed') settled.set(line.seq, line.type);
    else if (line.type === 'undone') undone = true;
  }
  if (!header) return undefined;
  const entries = writes
    .filter((w) => settled.get(w.seq) !== 'failed')
    .map((w): JournalEntry => ({
      seq: w.seq,
      time: w.time,
      path: w.path,
      before: w.before,
      after: w.after,
      ...(w.tmp ? { tmp: w.tmp } : {}),
      ...(w.intent && !settled.has(w.seq) ? { unconfirmed: true } : {}),
    }));
  return { file, header, writes: entries, undone };
}

export function markUndone(journal: SessionJournal): void {
  appendFileSync(journal.file, JSON.stringify({ type: 'undone', time: new Date().toISOString() }) + '\n');
}
