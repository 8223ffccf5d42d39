// The files an MPLAB for VS Code file set names. An entry is a path, or
// `{ include, exclude }` globs in the extension's extglob syntax
// (`**/@(build|_build|out|cmake|.vscode)/**/*`), relative to the workspace
// folder; globs are matched with picomatch against the files there.
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import picomatch from 'picomatch';

/** One entry of a file set: a path as written, or globs. */
export type FileSetEntry = { path: string } | { include: string[]; exclude: string[] };

// A workspace is a project folder; a walk that meets more is pointed at the wrong folder.
export const MAX_WORKSPACE_FILES = 20000;
// Never project files, and often huge.
const skippedFolders = new Set(['.git', 'node_modules']);

export interface WorkspaceFiles {
  /** Relative paths with `/`, sorted. */
  files: string[];
  /** True when the walk stopped at MAX_WORKSPACE_FILES. */
  truncated: boolean;
}

export async function listWorkspaceFiles(root: string): Promise<WorkspaceFiles> {
  const files: string[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const folder = pending.pop() as string;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name)) pending.push(path);
      } else if (entry.isFile()) {
        if (files.length >= MAX_WORKSPACE_FILES) return { files: files.sort(), truncated: true };
        files.push(relative(root, path).split(sep).join('/'));
      }
    }
  }
  return { files: files.sort(), truncated: false };
}

/** The workspace files `entry`'s globs select; `dot` so patterns naming `.vscode` can match it, as the extension's do. */
export function matchGlobs(entry: { include: string[]; exclude: string[] }, files: string[]): string[] {
  const included = picomatch(entry.include, { dot: true });
  const excluded = entry.exclude.length > 0 ? picomatch(entry.exclude, { dot: true }) : () => false;
  return files.filter((file) => included(file) && !excluded(file));
}

/** A `files` entry as the extension writes it; undefined for anything else. */
export function fileSetEntry(value: unknown): FileSetEntry | undefined {
  if (typeof value === 'string') return { path: value.replace(/\\/g, '/') };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const globs = (field: unknown): string[] => (typeof field === 'string' ? [field] : Array.isArray(field) ? field.filter((g): g is string => typeof g === 'string') : []);
  const { include, exclude } = value as { include?: unknown; exclude?: unknown };
  const entry = { include: globs(include), exclude: globs(exclude) };
  return entry.include.length > 0 ? entry : undefined;
}
