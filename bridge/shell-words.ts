// Splits a command line into words the way a POSIX shell quotes them, without
// expanding anything. Used for `--agent-command "<line>"` and to recognise
// `boardbridge <command> ...` lines an agent sends to a terminal.

// Shell syntax beyond quoting: such a line must go to a real shell.
const SHELL_SYNTAX = /[|&;<>()$`*?{}[\]~\n]/;

export interface SplitOptions {
  /** Return undefined for lines that use pipes, redirections, expansions and the like. */
  plainOnly?: boolean;
}

export function splitShellWords(line: string, options: SplitOptions = {}): string[] | undefined {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (quote === '"' && ch === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) current += line[++i];
      else if (quote === '"' && options.plainOnly && (ch === '$' || ch === '`')) return undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (ch === ' ' || ch === '\t' || (ch === '\n' && !options.plainOnly)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else if (options.plainOnly && SHELL_SYNTAX.test(ch)) {
      return undefined;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(current);
  return words;
}

/** `word` as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
