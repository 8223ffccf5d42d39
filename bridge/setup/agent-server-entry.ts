// Puts boardbridge's `agent_servers` entry into a JSON-with-comments settings text
// (Zed's settings.json, JetBrains' acp.json) and changes only what boardbridge owns:
// the entry's `type`, its `command`, and the `acp` flags this run sets in `args`.
// Everything else stays as the person left it: other keys, the entry's `env` (API keys),
// other arguments, comments, a byte-order mark, CRLF line ends, the indentation.
import { applyEdits, modify, parse, printParseErrorCode, stripComments, type FormattingOptions, type ParseError } from 'jsonc-parser';

export interface EntryMerge {
  text: string;
  /** What changed, one line each, for the person. */
  changes: string[];
}

// `boardbridge acp` flags that name the same thing: setting one replaces the others.
const SAME_THING = [['--agent', '--agent-command'], ['--fqbn', '--board']];

/** `value` is the entry boardbridge writes; `name` the entry's key under `agent_servers`. */
export function mergeAgentServer(original: string | undefined, name: string, value: Record<string, unknown> & { args: string[] }, file: string): EntryMerge {
  const bom = original?.startsWith('\uFEFF') ? '\uFEFF' : '';
  let text = (original ?? '').slice(bom.length);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // An empty file, or one of comments only, holds no settings yet: the object goes after the comments.
  if (!stripComments(text).trim()) text = `${text}${text && !text.endsWith('\n') ? eol : ''}{}${eol}`;
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length) {
    const first = errors[0];
    const line = text.slice(0, first.offset).split('\n').length;
    throw new Error(`${file}:${line}: ${printParseErrorCode(first.error)}; fix the file (or pass --file) and run setup again — nothing was written`);
  }
  if (!isObject(root)) throw new Error(`${file}: the settings are ${describe(root)}, not a JSON object; nothing was written`);
  const format = formatting(text, eol);
  const changes: string[] = [];
  const set = (keyPath: string[], v: unknown) => {
    text = applyEdits(text, modify(text, keyPath, v, { formattingOptions: format }));
  };
  const where = `agent_servers.${JSON.stringify(name)}`;
  const servers = root.agent_servers;
  if (servers !== undefined && servers !== null && !isObject(servers)) throw new Error(`${file}: "agent_servers" is ${describe(servers)}, not an object; nothing was written (make it {} or remove it)`);
  const entry = isObject(servers) ? servers[name] : undefined;
  if (servers === null) {
    set(['agent_servers'], { [name]: value });
    changes.push(`agent_servers was null: it is now an object with ${where}`);
  } else if (entry === undefined) {
    set(['agent_servers', name], value);
    changes.push(`added ${where}`);
  } else if (!isObject(entry)) {
    set(['agent_servers', name], value);
    changes.push(`${where} was ${describe(entry)}: replaced by boardbridge's entry`);
  } else {
    for (const key of Object.keys(value)) {
      if (key === 'env') continue;
      const next = key === 'args' ? mergeArgs(entry.args, value.args) : value[key];
      if (JSON.stringify(entry[key]) === JSON.stringify(next)) continue;
      set(['agent_servers', name, key], next);
      changes.push(`${where}.${key}: ${entry[key] === undefined ? '(none)' : JSON.stringify(entry[key])} → ${JSON.stringify(next)}`);
    }
    if (entry.env === undefined && value.env !== undefined) set(['agent_servers', name, 'env'], value.env);
    const kept = Object.keys(entry).filter((k) => !(k in value) || k === 'env');
    if (changes.length && kept.length) changes.push(`${where}: kept ${kept.map((k) => (k === 'env' && isObject(entry.env) ? `env (${Object.keys(entry.env).length} variables)` : k)).join(', ')} as they were`);
  }
  return { text: bom + text, changes };
}

/**
 * boardbridge's arguments first, then the entry's own others: whatever followed `acp`
 * except the flags this run sets (and the flags that name the same thing). An entry
 * whose args never ran `acp` is not boardbridge's: its args are replaced.
 */
export function mergeArgs(existing: unknown, ours: string[]): string[] {
  if (!Array.isArray(existing) || !existing.every((a) => typeof a === 'string')) return ours;
  const at = existing.indexOf('acp');
  if (at < 0) return ours;
  const set = new Set(ours.slice(ours.indexOf('acp') + 1).filter((a) => a.startsWith('--')));
  const owned = new Set([...set, ...SAME_THING.filter((group) => group.some((f) => set.has(f))).flat()]);
  const extras: string[] = [];
  for (let i = at + 1; i < existing.length; i++) {
    const arg = existing[i];
    if (owned.has(arg)) i++;
    else if (!owned.has(arg.split('=')[0])) extras.push(arg);
  }
  return [...ours, ...extras];
}

// The file's own indentation (tabs, or the width of its first indented key).
function formatting(text: string, eol: string): FormattingOptions {
  const indent = /\n([ \t]+)["}/]/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent?.length || 2, eol };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
