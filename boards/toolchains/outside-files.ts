// Compiler output with the files the agent may not read cut out. gcc quotes the source of the
// file a diagnostic is in (the excerpt and caret, identifiers in the message), so an
// `#include "/home/me/.ssh/id_rsa"` would print a refused file line by line. Whether a file may be
// shown is the fs guard's own rule (the caller's `mayShow`); a diagnostic in any other file keeps
// its severity and loses its place and text.
import path from 'node:path';
import type { CompilerDiagnostic, DiagnosticContext } from './gcc-diagnostics.js';

/** True when the agent may read `file` (absolute): the workspace and the read-only platform folders. */
export type MayShow = (file: string) => boolean;

export const OUTSIDE_FILE = 'a file outside the workspace';

const HEADER = /^(?:In file included from | +from )?(.+?):(\d+)(?::(\d+))?(?:[,:]$|: (?:fatal error|error|warning|note): )/;
const SCOPE = /^(.+?): (?:In|At) .*:$/;

function shown(file: string, mayShow: MayShow): boolean {
  return path.isAbsolute(file) && mayShow(path.resolve(file));
}

export function cutDiagnostics(diagnostics: CompilerDiagnostic[], mayShow: MayShow): CompilerDiagnostic[] {
  return diagnostics.map((d) => {
    const context = d.context?.map((c) => cutPlace(c, mayShow));
    const suggestions = d.suggestions?.filter((note) => shown(note.file, mayShow));
    const kept = shown(d.file, mayShow)
      ? { ...d }
      : { severity: d.severity, file: OUTSIDE_FILE, line: 0, col: 0, message: `${d.severity.toLowerCase()} in ${OUTSIDE_FILE} (not shown)` };
    return { ...kept, ...(context?.length ? { context } : {}), ...(suggestions?.length ? { suggestions } : {}) };
  });
}

function cutPlace(place: DiagnosticContext, mayShow: MayShow): DiagnosticContext {
  if (shown(place.file, mayShow)) return place;
  return { message: place.message === 'included from here' ? place.message : 'within', file: OUTSIDE_FILE };
}

/**
 * A line filter for raw compiler output (verbose builds, the tail shown when nothing parsed):
 * a diagnostic or include line naming a refused file becomes one line saying so, and the
 * excerpt lines under it are dropped until the next diagnostic. Returns undefined for a dropped line.
 */
export function outputCutter(mayShow: MayShow): (line: string) => string | undefined {
  let hiding = false;
  return (line) => {
    const header = HEADER.exec(line) ?? SCOPE.exec(line);
    if (header) {
      hiding = !shown(header[1], mayShow);
      return hiding ? `(${OUTSIDE_FILE}: not shown)` : line;
    }
    // A quoted command line (verbose builds) starts another compiler run.
    if (line.startsWith('"')) hiding = false;
    return hiding ? undefined : line;
  };
}
