// `boardbridge setup … --write`: puts an editor setup into the editor's files. A JSON
// settings file gets boardbridge's entry merged in (agent-server-entry.ts); a file of
// boardbridge's own is written whole; an init file gets one load line appended. Each
// file is changed under its lock, atomically, with a backup (settings-file.ts).
import type { EditorSetup } from './editor-configs.js';
import { mergeAgentServer } from './agent-server-entry.js';
import { changeSettingsFile } from './settings-file.js';

export interface WriteResult {
  changed: string[];
  backups: string[];
  /** What changed inside the files, one line each. */
  changes: string[];
  notes: string[];
}

export function writeSetup(setup: EditorSetup, now: Date = new Date()): WriteResult {
  const result: WriteResult = { changed: [], backups: [], changes: [], notes: [] };
  const record = (file: string, outcome: { written: boolean; backup?: string }) => {
    if (outcome.written) result.changed.push(file);
    if (outcome.backup) result.backups.push(outcome.backup);
  };
  if (setup.kind === 'command-line') {
    result.notes.push(`${setup.editor} takes the agent on its command line; there is no settings file to write: run the command above`);
    return result;
  }
  if (setup.kind === 'json') {
    const [, name] = setup.keyPath;
    let changes: string[] = [];
    record(
      setup.file,
      changeSettingsFile(setup.file, now, (text) => {
        const merged = mergeAgentServer(text, name, setup.value as Record<string, unknown> & { args: string[] }, setup.file);
        changes = merged.changes;
        return merged.changes.length ? merged.text : text;
      }),
    );
    result.changes.push(...changes);
    return result;
  }
  record(setup.file, changeSettingsFile(setup.file, now, () => setup.content));
  if (setup.loadLine) {
    const { file, line } = setup.loadLine;
    record(file, changeSettingsFile(file, now, (text) => withLoadLine(text ?? '', line)));
  } else {
    result.notes.push(`${setup.file} is a module of its own: use it from your setup as shown above`);
  }
  if (setup.note) result.notes.push(setup.note);
  return result;
}

// The line is there when a line of code is exactly it (a commented-out copy does not count);
// otherwise it is appended with the file's own line ends, after any byte-order mark.
function withLoadLine(text: string, line: string): string | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.some((l) => l.trim() === line)) return undefined;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return `${text}${text && !/\n$/.test(text) ? eol : ''}${line}${eol}`;
}
