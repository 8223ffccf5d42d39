// The contract for board commands that run inside the bridge process, so that
// `terminal/create` for `boardbridge monitor ...` shares the one serial hub
// (docs/architecture.md: one table of board operations, three faces).

export interface CommandIo {
  /** Output as the terminal shows it (UTF-8 text). */
  write(text: string): void;
  /** Aborted on `terminal/kill`, `terminal/release` or the session's end. */
  signal: AbortSignal;
  cwd: string;
  env: Record<string, string>;
  /**
   * Whether output may quote the file `path` (absolute): the agent's fs guard, so compiler
   * diagnostics never show a file the agent could not read. Absent: every file (a person's CLI).
   */
  mayShow?: (path: string) => boolean;
  /** Whether the operation may write the file `path` (absolute): the agent's fs guard. Absent: every file. */
  mayWrite?: (path: string) => boolean;
}

/** Returns the exit code; a thrown error is printed and becomes exit code 1. */
export type InProcessCommand = (argv: string[], io: CommandIo) => Promise<number>;

/** Board commands by name: `compile`, `upload`, `monitor`, ... */
export type CommandTable = Map<string, InProcessCommand>;

/**
 * What a board operation's run answers: the exit code a terminal or the CLI reports, and the typed
 * result (`--json` prints it; an MCP tool returns it as structured content). The text a person
 * reads is what the run wrote to `io` as it went.
 */
export interface Outcome<R = unknown> {
  exitCode: number;
  data?: R;
  /**
   * A PNG still of the circuit as the run left it, drawn only when a face that shows images asks
   * (an MCP tool for an agent that takes images); a terminal's text says the same.
   */
  still?: () => Buffer;
}
