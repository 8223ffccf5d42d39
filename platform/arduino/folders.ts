// Looking at folders without failing: a missing or unreadable folder is simply not there.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
      isDir: entry.isDirectory() || (entry.isSymbolicLink() && isDir(join(dir, entry.name))),
    }));
  } catch {
    return [];
  }
}
