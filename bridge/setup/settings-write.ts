// `boardbridge setup … --write`: puts an editor setup into the editor's files,
// keeping everything else (comments and trailing commas of JSONC included), with
// a backup of each file it changes.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { EditorSetup } from './editor-configs.js';

export interface WriteResult {
  changed: string[];
  backups: string[];
  notes: string[];
}

export function writeSetup(setup: EditorSetup, now: Date = new Date()): WriteResult {
  const result: WriteResult = { changed: [], backups: [], notes: [] };
  if (setup.kind === 'command-line') {
    result.notes.push(`${setup.editor} takes the agent on its command line; there is no settings file to write: run the command above`);
    return result;
  }
  if (setup.kind === 'json') {
    const before = existsSync(setup.file) ? readFileSync(setup.file, 'utf8') : '{}\n';
    const after = mergeJsonc(before, setup.keyPath, setup.value, setup.file);
    if (after !== before || !existsSync(setup.file)) save(setup.file, after, now, result);
    return result;
  }
  const previous = existsSync(setup.file) ? readFileSync(setup.file, 'utf8') : undefined;
  if (previous !== setup.content) save(setup.file, setup.content, now, result);
  if (setup.loadLine) {
    const { file, line } = setup.loadLine;
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (!text.includes(line)) save(file, `${text}${text && !text.endsWith('\n') ? '\n' : ''}${line}\n`, now, result);
  } else {
    result.notes.push(`${setup.file} is a module of its own: use it from your setup as shown above`);
  }
  return result;
}

/** Sets keyPath to value in a JSON-with-comments text, changing nothing else. */
export function mergeJsonc(text: string, keyPath: string[], value: unknown, file: string): string {
  const errors: ParseError[] = [];
  const parsed: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const first = errors[0];
    const line = text.slice(0, first.offset).split('\n').length;
    throw new Error(`${file}:${line}: ${printParseErrorCode(first.error)}; fix the file (or pass --file) and run setup again — nothing was written`);
  }
  if (parsed !== undefined && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) {
    throw new Error(`${file}: the settings are not a JSON object; nothing was written`);
  }
  const edits = modify(text.trim() ? text : '{}\n', keyPath, value, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } });
  return applyEdits(text.trim() ? text : '{}\n', edits);
}

function save(file: string, text: string, now: Date, result: WriteResult): void {
  mkdirSync(path.dirname(file), { recursive: true });
  if (existsSync(file)) {
    const backup = `${file}.boardbridge-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
    copyFileSync(file, backup);
    result.backups.push(backup);
  }
  writeFileSync(file, text);
  result.changed.push(file);
}
