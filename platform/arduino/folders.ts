// Looking at folders without failing: a missing or unreadable folder is simply not there.
import { readdirSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { join } from '../path-join.js';

/**
 * `join(dir, name)` for a `dir` that is already normalised (and not `.`): the two joined with `/` when that is
 * what join gives (a POSIX separator, `dir` without a trailing one, `name` relative with no empty,
 * `.` or `..` segment), else join itself. A context joins some thousands of these (every include
 * folder tried for every header, every library folder's entries), and join normalises the whole
 * path each time, in the interpreter (the context command runs without TurboFan).
 */
export function childPath(dir: string, name: string): string {
  if (sep !== '/' || dir === '' || dir === '.' || dir.endsWith('/') || !SIMPLE_RELATIVE.test(name) || dir !== normalizedOnce(dir)) return join(dir, name);
  return `${dir}/${name}`;
}

// Segments that are neither empty nor `.` nor `..`, separated by single slashes.
const SIMPLE_RELATIVE = /^(?!\.\.?(?:\/|$))[^/]+(?:\/(?!\.\.?(?:\/|$))[^/]+)*$/;

// Whether a folder is normalised is asked again for every name joined to it: the last few answers are kept.
const normalized = new Map<string, string>();
function normalizedOnce(dir: string): string {
  let result = normalized.get(dir);
  if (result === undefined) {
    if (normalized.size >= 64) normalized.clear();
    normalized.set(dir, (result = join(dir)));
  }
  return result;
}

export function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export interface FolderEntry {
  name: string;
  /** A folder, or a link to one. */
  isDir: boolean;
}

/** A folder's entries and which are folders, from one read of the folder (a link is followed). */
export function listEntries(dir: string): FolderEntry[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((entry) => ({
      name: entry.name,
      isDir: entry.isDirectory() || (entry.isSymbolicLink() && isDir(childPath(dir, entry.name))),
    }));
  } catch {
    return [];
  }
}
