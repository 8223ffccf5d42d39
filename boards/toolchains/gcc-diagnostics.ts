// gcc's text diagnostics turned into structured ones, in the shape arduino-cli ≥1.0 reports in
// `builder_result.diagnostics` (golden pairs: arduino/compiler_outputs/ in the test fixtures), so
// both toolchain backends give the agent the same file:line:column facts.
import type { Finding } from '../../platform/finding.js';

export type DiagnosticSeverity = 'ERROR' | 'WARNING' | 'FATAL';

export interface DiagnosticContext {
  message: string;
  file: string;
  line?: number;
  col?: number;
}

export interface DiagnosticNote {
  message: string;
  file: string;
  line: number;
  col: number;
}

export interface CompilerDiagnostic {
  severity: DiagnosticSeverity;
  /** gcc's message followed by the source excerpt and caret lines it printed. */
  message: string;
  file: string;
  line: number;
  col: number;
  /** Include chain and enclosing function, outermost first. */
  context?: DiagnosticContext[];
  /** gcc's `note:` lines, such as "suggested alternative". */
  suggestions?: DiagnosticNote[];
}

const INCLUDED_FIRST = /^In file included from (.+?):(\d+)(?::(\d+))?[,:]$/;
const INCLUDED_MORE = /^ +from (.+?):(\d+)(?::(\d+))?[,:]$/;
const DIAGNOSTIC = /^(.+?):(\d+)(?::(\d+))?: (fatal error|error|warning|note): (.*)$/;
const SCOPE = /^(.+?): ((?:In|At) .*:)$/;

const SEVERITIES: Record<string, DiagnosticSeverity> = { error: 'ERROR', 'fatal error': 'FATAL', warning: 'WARNING' };

/**
 * Parses gcc output. Scope lines ("In function …") and include traces apply to the file they
 * name: they carry over between diagnostics in that file and are dropped when another file starts.
 */
export function parseGccDiagnostics(output: string): CompilerDiagnostic[] {
  const diagnostics: CompilerDiagnostic[] = [];
  let includes: DiagnosticContext[] = [];
  let scope: DiagnosticContext | undefined;
  let contextFile: string | undefined;
  let afterInclude = false;
  let current: { message: string } | undefined;

  const enterFile = (file: string): void => {
    if (contextFile !== undefined && contextFile !== file) {
      includes = [];
      scope = undefined;
    }
    contextFile = file;
  };

  for (const line of output.split(/\r?\n/)) {
    const included = INCLUDED_FIRST.exec(line) ?? (afterInclude ? INCLUDED_MORE.exec(line) : null);
    if (included) {
      if (!afterInclude) includes = [];
      includes.push({ message: 'included from here', file: included[1], line: Number(included[2]) });
      scope = undefined;
      contextFile = undefined;
      afterInclude = true;
      current = undefined;
      continue;
    }
    afterInclude = false;

    const scopeLine = SCOPE.exec(line);
    if (scopeLine) {
      enterFile(scopeLine[1]);
      scope = { message: scopeLine[2], file: scopeLine[1] };
      current = undefined;
      continue;
    }

    const diagnostic = DIAGNOSTIC.exec(line);
    if (diagnostic) {
      const [, file, lineText, colText, kind, message] = diagnostic;
      const position = { file, line: Number(lineText), col: colText ? Number(colText) : 0 };
      const latest = diagnostics.at(-1);
      if (kind === 'note') {
        if (!latest) continue;
        const note = { message, ...position };
        (latest.suggestions ??= []).push(note);
        current = note;
        continue;
      }
      enterFile(file);
      const context = scope ? [...includes, scope] : [...includes];
      const entry: CompilerDiagnostic = { severity: SEVERITIES[kind], message, ...position };
      if (context.length > 0) entry.context = context;
      diagnostics.push(entry);
      current = entry;
      continue;
    }

    // A quoted command line (verbose builds) starts another compiler run.
    if (line.startsWith('"')) {
      current = undefined;
      includes = [];
      scope = undefined;
      contextFile = undefined;
      continue;
    }
    if (current && line.length > 0) current.message += `\n${line}`;
  }
  return diagnostics;
}

/** A diagnostic as a Finding for the Arduino context's sketch check. */
export function diagnosticToFinding(diagnostic: CompilerDiagnostic): Finding {
  const suggestion = diagnostic.suggestions?.map((note) => note.message.split('\n')[0]).join('; ');
  return {
    severity: diagnostic.severity === 'WARNING' ? 'warning' : 'error',
    message: diagnostic.message.split('\n')[0],
    file: diagnostic.file,
    line: diagnostic.line,
    column: diagnostic.col,
    ...(suggestion ? { suggestion } : {}),
    code: 'compile-error',
  };
}
