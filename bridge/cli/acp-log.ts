// The log of `boardbridge acp`. Editors show an agent's stderr as errors (Emacs's acp.el
// turns every chunk into an error event), so normal operation writes only to a file; stderr
// gets failures (and, with --verbose, a copy of everything). The file is rotated once it
// passes LOG_LIMIT, so a long-lived proxy never fills the disk.
import { appendFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { stateDir } from '../services/fs/journal.js';

const LOG_LIMIT = 5 * 1024 * 1024;

export interface AcpLog {
  readonly file: string;
  /** One line of normal operation: the file (stderr too with --verbose). */
  log(line: string): void;
  /** One line about a failure: the file and stderr. */
  fail(line: string): void;
  /** The agent's own stderr, as it comes: the file (stderr too with --verbose). */
  raw(text: string): void;
}

/** `$XDG_STATE_HOME/boardbridge/logs/acp.log` (`~/.local/state/…` without it). */
export function defaultAcpLogFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(stateDir(env), 'logs', 'acp.log');
}

export function openAcpLog(file: string, verbose: boolean): AcpLog {
  let size = 0;
  let broken: string | undefined;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    size = existsSync(file) ? statSync(file).size : 0;
  } catch (error) {
    broken = (error as Error).message;
  }
  const stderr = (text: string) => process.stderr.write(text);
  // A log that cannot be written is a failure of its own: said once, and stderr takes its place.
  const append = (text: string): boolean => {
    if (broken) return false;
    try {
      if (size + text.length > LOG_LIMIT) {
        renameSync(file, `${file}.1`);
        size = 0;
      }
      appendFileSync(file, text);
      size += Buffer.byteLength(text);
      return true;
    } catch (error) {
      broken = (error as Error).message;
      stderr(`boardbridge acp: cannot write the log ${file} (${broken}); logging to stderr instead (choose another with --log-file)\n`);
      return false;
    }
  };
  if (broken) stderr(`boardbridge acp: cannot write the log ${file} (${broken}); logging to stderr instead (choose another with --log-file)\n`);
  const line = (text: string, failure: boolean) => {
    const written = append(`${new Date().toISOString()} [${process.pid}] ${text}\n`);
    if (failure || verbose || !written) stderr(`boardbridge acp: ${text}\n`);
  };
  return {
    file,
    log: (text) => line(text, false),
    fail: (text) => line(text, true),
    raw: (text) => {
      if (!append(text) || verbose) stderr(text);
    },
  };
}
