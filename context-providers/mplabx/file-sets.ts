// The files an MPLAB for VS Code file set names. An entry is a path, or
// `{ include, exclude }` globs in the extension's extglob syntax
// (`**/@(build|_build|out|cmake|.vscode)/**/*`), relative to the workspace
// folder; globs are matched with picomatch against the files there.
import { readdir } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { join } from '../../platform/path-join.js';
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

// Globs the extension writes are a few dozen characters with a group or two of plain names
// (`**/@(build|_build|out|cmake|.vscode)/**/*`). picomatch turns a glob into a regular
// expression that V8 runs by backtracking, and some short globs make it run for ever or abort
// the process: 5,000 nested `!(` ran V8's RegExp compiler out of memory (no catch survives
// that), 150 `!(a)` in a row took 13 s for 200 files, `*a*a*a*ab` 1.5 s for one 250-character
// name, `*(*a)b` more than 20 s for a 62-character one. A glob past these limits is not used.
export const MAX_GLOB_LENGTH = 1000;
export const MAX_GLOB_GROUPS = 16;
/** Wildcards `*` in one path segment (a `**` segment is one); more backtrack as a power of the name's length. */
export const MAX_SEGMENT_STARS = 2;

/** Why boardbridge does not compile `glob`, or undefined when it may. */
function globRefusal(glob: string): string | undefined {
  if (glob === '') return 'it is empty';
  if (glob.length > MAX_GLOB_LENGTH) return `it is ${glob.length} characters long, over the ${MAX_GLOB_LENGTH} boardbridge compiles`;
  const groups = glob.split('(').length - 1;
  if (groups > MAX_GLOB_GROUPS) return `it has ${groups} groups "(", over the ${MAX_GLOB_GROUPS} boardbridge compiles`;
  let depth = 0;
  for (const char of glob) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (depth > 0 && (char === '*' || char === '?' || char === '+')) return `it has a wildcard "${char}" inside a group "( )", which boardbridge does not compile`;
  }
  const busiest = Math.max(...glob.split('/').map((segment) => (segment === '**' ? 1 : segment.split('*').length - 1)));
  if (busiest > MAX_SEGMENT_STARS) return `a path segment has ${busiest} wildcards "*", over the ${MAX_SEGMENT_STARS} boardbridge compiles`;
  return undefined;
}

/** A glob boardbridge does not use (see globRefusal, or picomatch or V8 refused it), and why. */
export interface UnusableGlob {
  glob: string;
  kind: 'include' | 'exclude';
  reason: string;
}

/**
 * The workspace files `entry`'s globs select; `dot` so patterns naming `.vscode` can match it,
 * as the extension's do. A glob that cannot be used (picomatch throws when it compiles it, V8
 * when it first runs the regular expression) selects nothing; one among the excludes leaves
 * the entry's files unknown, so none are listed. Each is returned with why.
 */
export function matchGlobs(entry: { include: string[]; exclude: string[] }, files: string[]): { files: string[]; unusable: UnusableGlob[] } {
  const unusable: UnusableGlob[] = [];
  const selected = (globs: string[], kind: UnusableGlob['kind']): Set<string> => {
    const found = new Set<string>();
    for (const glob of globs) {
      try {
        const refusal = globRefusal(glob);
        if (refusal) throw new Error(refusal);
        const match = picomatch(glob, { dot: true });
        for (const file of files) if (match(file)) found.add(file);
      } catch (error) {
        const reason = error instanceof RangeError ? 'it nests too deeply to compile' : (error as Error).message.replace(/^Invalid regular expression: \/.*\/\w*: /s, 'its regular expression is invalid: ');
        unusable.push({ glob, kind, reason: reason.length > 200 ? `${reason.slice(0, 200)}…` : reason });
      }
    }
    return found;
  };
  const included = selected(entry.include, 'include');
  const excluded = selected(entry.exclude, 'exclude');
  if (unusable.some((u) => u.kind === 'exclude')) return { files: [], unusable };
  return { files: files.filter((file) => included.has(file) && !excluded.has(file)), unusable };
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
