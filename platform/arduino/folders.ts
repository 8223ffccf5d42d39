// Looking at folders without failing: a missing or unreadable folder is simply not there.
import { readdirSync, statSync } from 'node:fs';

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
