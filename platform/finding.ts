// What every layer reports about a file: a finding with its place, and where a fact came from.
// Beneath boards/ and context-providers/, which both produce them.

/** Where a fact came from: an absolute file path and a 1-based line when known. */
export interface SourceRef {
  file: string;
  line?: number;
}

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  severity: Severity;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  suggestion?: string;
  /** A stable code for the check, e.g. `pwm-pin`, `unknown-serial`, `framebuffer`. */
  code: string;
}
