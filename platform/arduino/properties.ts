// The Arduino properties-file format (boards.txt, platform.txt, programmers.txt and their
// .local.txt companions), as arduino-cli's go-properties-orderedmap reads it. This file knows
// the format and nothing about boards.
import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, readSync, statSync, type Stats } from 'node:fs';
import type { Finding, SourceRef } from '../finding.js';
import { openRegularFileSync, readLinePiecesSync, readRegularTextPiecesSync } from '../regular-file.js';
import { PROPERTIES_SCAN_WASM } from './properties-scan-wasm.js';
import { instantiateWasm } from '../wasm-module.js';

/** Operating-system suffix arduino-cli strips from keys (`tools.x.cmd.linux` → `tools.x.cmd`). */
export type OsSuffix = 'linux' | 'windows' | 'macosx';

export function currentOsSuffix(): OsSuffix {
  if (process.platform === 'win32') return 'windows';
  if (process.platform === 'darwin') return 'macosx';
  return 'linux';
}

/** Expansion stops after this many rounds, so self-referencing values cannot loop (platform spec). */
export const EXPANSION_ROUNDS = 10;
/**
 * Expansion also stops before its text grows past this many characters: a value that refers
 * to itself n times grows n-fold each round (five times makes 5^10 copies in ten rounds).
 */
export const MAX_EXPANDED_LENGTH = 1 << 20;

/** Groups of keys by their first segment, in order of first appearance (Properties.firstLevelGroups). */
export interface FirstLevelGroups {
  readonly size: number;
  has(head: string): boolean;
  get(head: string): Properties | undefined;
  keys(): IterableIterator<string>;
  delete(head: string): boolean;
}

/**
 * An ordered key/value map that remembers where each key was last set. Setting an existing key
 * moves it to the end, as arduino-cli does: the order decides board order and menu defaults.
 */
export class Properties {
  private values = new Map<string, string>();
  private origins = new Map<string, SourceRef>();

  get size(): number {
    return this.values.size;
  }

  get(key: string): string | undefined {
    return this.values.get(key);
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  source(key: string): SourceRef | undefined {
    return this.origins.get(key);
  }

  set(key: string, value: string, source?: SourceRef): void {
    if (this.values.has(key)) this.values.delete(key);
    this.values.set(key, value);
    if (source) this.origins.set(key, source);
    else this.origins.delete(key);
  }

  // Keys taken from another map under one prefix are unique, so the re-ordering check of set()
  // is not needed; this keeps grouping a 14,000-key boards.txt cheap.
  private append(key: string, value: string, source: SourceRef | undefined): void {
    this.values.set(key, value);
    if (source) this.origins.set(key, source);
  }

  delete(key: string): void {
    this.values.delete(key);
    this.origins.delete(key);
  }

  keys(): string[] {
    return [...this.values.keys()];
  }

  entries(): IterableIterator<[string, string]> {
    return this.values.entries();
  }

  /**
   * Visits each key and its value in order. A board's thousands of keys are walked several times in
   * every first context, which runs without the optimizing compilers (bridge/cli/main.ts): there a
   * for...of over entries() makes an iterator result and an entry array per key, and this makes none.
   */
  forEach(visit: (value: string, key: string) => void): void {
    this.values.forEach(visit);
  }

  /** Later maps win; keys they set move to the end. */
  merge(...others: Properties[]): this {
    // forEach, not for...of (Properties.forEach says why).
    for (const other of others) other.values.forEach((value, key) => this.set(key, value, other.origins.get(key)));
    return this;
  }

  /** A copy made with native Map copies: cheap even for thousands of keys. */
  clone(): Properties {
    const copy = new Properties();
    copy.values = new Map(this.values);
    copy.origins = new Map(this.origins);
    return copy;
  }

  /** The underlying maps, for a caller that owns this object and drops it afterwards. */
  release(): { values: Map<string, string>; origins: Map<string, SourceRef> } {
    return { values: this.values, origins: this.origins };
  }

  /** The keys under `prefix.` with that prefix removed (`SubTree`). */
  subTree(prefix: string): Properties {
    const head = `${prefix}.`;
    const result = new Properties();
    this.values.forEach((value, key) => {
      if (key.startsWith(head)) result.append(key.slice(head.length), value, this.origins.get(key));
    });
    return result;
  }

  /** First segments of the keys, in order of first appearance (`FirstLevelKeys`). */
  firstLevelKeys(): string[] {
    const seen = new Set<string>();
    for (const key of this.values.keys()) {
      const dot = key.indexOf('.');
      seen.add(dot < 0 ? key : key.slice(0, dot));
    }
    return [...seen];
  }

  /** Groups dotted keys by their first segment in one pass (`FirstLevelOf`); undotted keys are skipped. */
  firstLevelOf(): Map<string, Properties> {
    const groups = this.firstLevelGroups();
    return new Map([...groups.keys()].map((head) => [head, groups.get(head)!]));
  }

  /**
   * The groups of firstLevelOf, each made the first time it is asked for: pico's boards.txt has
   * 44,000 keys in 152 boards and a context needs one. This map must not change while they are used.
   */
  firstLevelGroups(): FirstLevelGroups {
    const keysOf = new Map<string, string[]>();
    for (const key of this.values.keys()) {
      const dot = key.indexOf('.');
      if (dot < 0) continue;
      const head = key.slice(0, dot);
      const keys = keysOf.get(head);
      if (keys) keys.push(key);
      else keysOf.set(head, [key]);
    }
    const made = new Map<string, Properties>();
    const get = (head: string): Properties | undefined => {
      let group = made.get(head);
      if (group) return group;
      const keys = keysOf.get(head);
      if (!keys) return undefined;
      made.set(head, (group = new Properties()));
      for (const key of keys) group.append(key.slice(head.length + 1), this.values.get(key)!, this.origins.get(key));
      return group;
    };
    return {
      get size() {
        return keysOf.size;
      },
      has: (head) => keysOf.has(head),
      get,
      keys: () => keysOf.keys(),
      delete: (head) => {
        made.delete(head);
        return keysOf.delete(head);
      },
    };
  }

  /** Replaces `{key}` with this map's values, recursively, for at most EXPANSION_ROUNDS rounds. */
  expand(text: string): string {
    return expandReferences(text, (key) => this.values.get(key));
  }

  toObject(): Record<string, string> {
    return Object.fromEntries(this.values);
  }
}

const REFERENCE = /\{([^{}]+)\}/g;

/** `{x}` with no value is left as written, as arduino-cli does; a round that would pass MAX_EXPANDED_LENGTH is not made. */
export function expandReferences(text: string, lookup: (key: string) => string | undefined): string {
  let current = text;
  for (let round = 0; round < EXPANSION_ROUNDS; round++) {
    if (!current.includes('{')) break;
    let length = current.length;
    let tooLong = false;
    const next = current.replace(REFERENCE, (whole, key: string) => {
      const value = tooLong ? undefined : lookup(key);
      if (value === undefined) return whole;
      length += value.length - whole.length;
      tooLong = length > MAX_EXPANDED_LENGTH;
      return value;
    });
    if (tooLong || next === current) break;
    current = next;
  }
  return current;
}

/**
 * The keys whose values refer back to themselves, directly or through other keys: each
 * cycle once, as its path of keys (`a → b → a` is ['a', 'b']). At most `limit` cycles.
 */
export function referenceCycles(keys: Iterable<string>, lookup: (key: string) => string | undefined, limit = 20): string[][] {
  // The keys a value refers to that have values, each once, in the order they appear. Most values
  // refer to none: a board's thousands of keys are looked at in every first context.
  const refs = (key: string): string[] => {
    const value = lookup(key);
    if (value === undefined || !value.includes('{')) return [];
    const found: string[] = [];
    // exec, not matchAll: no iterator objects where a first context runs (Properties.forEach).
    const reference = new RegExp(REFERENCE.source, 'g');
    for (let match = reference.exec(value); match; match = reference.exec(value)) if (!found.includes(match[1]) && lookup(match[1]) !== undefined) found.push(match[1]);
    return found;
  };
  const done = new Set<string>();
  const onPath = new Map<string, number>();
  const cycles: string[][] = [];
  for (const start of keys) {
    if (done.has(start) || lookup(start) === undefined) continue;
    // Depth-first without recursion: a chain of thousands of keys must not overflow the stack.
    const path: Array<{ key: string; next: string[]; at: number }> = [{ key: start, next: refs(start), at: 0 }];
    onPath.set(start, 0);
    while (path.length) {
      const top = path[path.length - 1];
      if (top.at === top.next.length) {
        path.pop();
        onPath.delete(top.key);
        done.add(top.key);
        continue;
      }
      const key = top.next[top.at++];
      const seenAt = onPath.get(key);
      if (seenAt !== undefined) {
        cycles.push(path.slice(seenAt).map((step) => step.key));
        if (cycles.length >= limit) return cycles;
      } else if (!done.has(key)) {
        onPath.set(key, path.length);
        path.push({ key, next: refs(key), at: 0 });
      }
    }
  }
  return cycles;
}

/** The `{x}` references in `text` that have no value after expansion. */
export function unresolvedReferences(text: string, lookup: (key: string) => string | undefined): string[] {
  const expanded = expandReferences(text, lookup);
  return [...expanded.matchAll(REFERENCE)].map((match) => match[1]).filter((key) => lookup(key) === undefined);
}

export interface ParsedProperties {
  properties: Properties;
  warnings: Finding[];
}

/**
 * Parses one file's text. A line without `=` is a warning with file:line (arduino-cli refuses the
 * whole file there; we keep the rest so a typo does not hide the board).
 */
export function parseProperties(text: string, file: string, os: OsSuffix = currentOsSuffix()): ParsedProperties {
  const properties = new Properties();
  const warnings: Finding[] = [];
  const suffix = `.${os}`;
  const lines = (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text).split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].trim();
    if (line === '' || line.startsWith('#')) continue;
    const equals = line.indexOf('=');
    if (equals < 0) {
      warnings.push(malformedLine(file, index + 1, line));
      continue;
    }
    let key = line.slice(0, equals).trim();
    if (key.endsWith(suffix)) key = key.slice(0, -suffix.length);
    properties.set(key, line.slice(equals + 1).trim(), { file, line: index + 1 });
  }
  return { properties, warnings };
}

/** A properties file's text; a missing file is no text and no warning (arduino-cli's SafeLoad). */
function readPropertiesText(file: string): { text?: string; warnings: Finding[] } {
  const read = readPropertiesPieces(file, Infinity);
  return { ...(read.pieces ? { text: read.pieces[0] } : {}), warnings: read.warnings };
}

/** A large boards.txt is read in pieces of this many bytes (readRegularTextPiecesSync). */
const PIECE_BYTES = 256 * 1024;

/** readPropertiesText's text in pieces that end at line ends (readRegularTextPiecesSync); one piece when `pieceBytes` is Infinity. */
function readPropertiesPieces(file: string, pieceBytes: number): { pieces?: string[]; warnings: Finding[] } {
  try {
    // Invalid UTF-8 bytes decode to U+FFFD instead of throwing.
    return { pieces: readRegularTextPiecesSync(file, pieceBytes), warnings: [] };
  } catch (error) {
    return { warnings: unreadable(file, error) };
  }
}

/** Reads a properties file; a missing file is an empty map (arduino-cli's SafeLoad). */
export function loadPropertiesFile(file: string, os?: OsSuffix): ParsedProperties {
  const { text, warnings } = readPropertiesText(file);
  return text === undefined ? { properties: new Properties(), warnings } : parseProperties(text, file, os);
}

// What String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator), by code.
function isTrimmed(code: number): boolean {
  if (code > 32 && code < 127) return false;
  return (
    code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/** What one line of a properties file is to its groups (lineParts). */
type LinePart =
  /** Blank, a comment, an undotted key, or the running OS's `<head><suffix>` (the undotted `head`). */
  | { kind: 'none' }
  /** No `=`: its text, trimmed. */
  | { kind: 'malformed'; text: string }
  /** A key line of the group `head`, whose text starts at `first`. */
  | { kind: 'key'; first: number; head: string };

const NO_GROUP: LinePart = { kind: 'none' };

/**
 * What the line text[start, end) (no line end in it) is, as parseProperties reads it and
 * Properties.firstLevelGroups groups its key: the one place the text reader and the byte
 * scanner's lines from 0x80 up are judged (properties-scan.wat judges the other lines alike).
 */
function lineParts(text: string, start: number, end: number, suffix: string): LinePart {
  let first = start;
  let last = end;
  while (first < last && isTrimmed(text.charCodeAt(first))) first++;
  while (last > first && isTrimmed(text.charCodeAt(last - 1))) last--;
  if (first === last || text.charCodeAt(first) === 35 /* # */) return NO_GROUP;
  const equals = text.indexOf('=', first);
  if (equals < 0 || equals >= last) return { kind: 'malformed', text: text.slice(first, last) };
  let keyEnd = equals;
  while (keyEnd > first && isTrimmed(text.charCodeAt(keyEnd - 1))) keyEnd--;
  const dot = text.indexOf('.', first);
  // Undotted keys are in no group; `name.linux` is the undotted `name` once its suffix goes.
  if (dot < 0 || dot >= keyEnd || (dot === keyEnd - suffix.length && text.startsWith(suffix, dot))) return NO_GROUP;
  return { kind: 'key', first, head: text.slice(first, dot) };
}

/**
 * The key lines of a properties file and its .local.txt, found by group (loadGroupedWithLocal): a
 * group's places, in the order they were read, and a way to read a group's lines from them.
 */
interface ScannedLines {
  /** True when the files' text is held (the text reader), false when a group's lines are read from the files when asked for. */
  held: boolean;
  warnings: Finding[];
  /** Per group, its places: numbers only eachLine reads. */
  runsOf: Map<string, number[]>;
  /**
   * Visits each key line of a group's `runs` in order: its text (trimmed), its file, its position
   * (which file, then where in it: later lines have larger ones) and, when `numbered`, its number.
   * False, with nothing visited, when the lines are no longer what the scan found (the byte
   * scanner's files changed since): the caller reads the files again.
   */
  eachLine(head: string, runs: number[], numbered: boolean, visit: (line: string, file: string, position: number, number: number) => void): boolean;
}

/**
 * `name.txt` with `name.local.txt` merged over it, grouped by the keys' first segment, as
 * `loadWithLocal(dir, name).properties.firstLevelGroups()` gives them, without making the whole
 * map: pico's boards.txt has 44,000 keys in 152 boards and a context needs one. The files are
 * scanned once for each group's places and the malformed lines: by the byte scanner (scanBytes)
 * when boards.txt is larger than BYTES_SCANNED_ABOVE, else, and where WebAssembly is not available,
 * by the text reader (scanText); `scanner` names one for the tests. A group's keys and values are
 * read, and its lines numbered, the first time it is asked for, and the groups' order (keys()) when
 * it is asked for. The files are read through a buffer of `pieceBytes`, made larger only for a line
 * longer than it.
 */
export function loadGroupedWithLocal(
  dir: string,
  base: 'boards' | 'platform',
  os: OsSuffix = currentOsSuffix(),
  pieceBytes = PIECE_BYTES,
  scanner: 'auto' | 'bytes' | 'text' = 'auto',
): { groups: FirstLevelGroups; warnings: Finding[] } {
  const files = [`${dir}/${base}.txt`, `${dir}/${base}.local.txt`];
  const suffix = `.${os}`;
  const bytes = scanner === 'bytes' || (scanner === 'auto' && sizeOf(files[0]) > BYTES_SCANNED_ABOVE);
  let scanned = (bytes ? scanBytes(files, suffix, pieceBytes) : undefined) ?? scanText(files, suffix, pieceBytes);
  const { warnings } = scanned;
  const deleted = new Set<string>();
  /** The files' text now, which stays in memory: when the byte scanner's files changed since it read them, or every group is wanted. */
  const readAgain = (): void => {
    scanned = scanText(files, suffix, pieceBytes);
    for (const head of deleted) scanned.runsOf.delete(head);
  };
  const eachLineOf = (head: string, numbered: boolean, visit: (line: string, file: string, position: number, number: number) => void): void => {
    const runs = scanned.runsOf.get(head);
    if (runs && !scanned.eachLine(head, runs, numbered, visit)) {
      readAgain();
      const again = scanned.runsOf.get(head);
      if (again) scanned.eachLine(head, again, numbered, visit);
    }
  };
  const made = new Map<string, Properties>();
  const keyOf = (line: string): string => {
    const key = line.slice(0, line.indexOf('=')).trim();
    return key.endsWith(suffix) ? key.slice(0, -suffix.length) : key;
  };
  const get = (head: string): Properties | undefined => {
    let group = made.get(head);
    if (group) return group;
    if (!scanned.runsOf.has(head)) return undefined;
    // eachLine visits every line of the group or none (its files changed: read again, then visited).
    const lines = new Properties();
    eachLineOf(head, true, (line, file, _position, number) => {
      lines.set(keyOf(line).slice(head.length + 1), line.slice(line.indexOf('=') + 1).trim(), { file, line: number });
    });
    if (!scanned.runsOf.has(head)) return undefined;
    made.set(head, (group = lines));
    return group;
  };
  // A key set again moves to the end (Properties.set), so a group comes where its first key that is
  // not set again later stands; that is where its first line stands unless a key is set twice.
  let order: string[] | undefined;
  const keys = (): IterableIterator<string> => {
    // The order needs every line of every group: the files' text, read once, costs less than reading each group's lines from them.
    if (!order && !scanned.held) readAgain();
    while (!order) {
      // Positions of one reading only: when the files are read again part of the way, the order is taken again.
      const reading = scanned;
      const last = new Map<string, number>();
      const entries: Array<[head: string, key: string]> = [];
      for (const head of [...scanned.runsOf.keys()]) {
        eachLineOf(head, false, (line, _file, position) => {
          const key = keyOf(line);
          last.set(key, Math.max(last.get(key) ?? -1, position));
          entries.push([head, key]);
        });
      }
      if (scanned !== reading) continue;
      const firstOf = new Map<string, number>();
      for (const [head, key] of entries) firstOf.set(head, Math.min(firstOf.get(head) ?? Infinity, last.get(key)!));
      order = [...firstOf.keys()].sort((a, b) => firstOf.get(a)! - firstOf.get(b)!);
    }
    return order.filter((head) => scanned.runsOf.has(head))[Symbol.iterator]();
  };
  return {
    groups: {
      get size() {
        return scanned.runsOf.size;
      },
      has: (head) => scanned.runsOf.has(head),
      get,
      keys,
      delete: (head) => {
        made.delete(head);
        deleted.add(head);
        return scanned.runsOf.delete(head);
      },
    },
    warnings,
  };
}

/**
 * A boards.txt larger than this is read by the byte scanner (scanBytes); a smaller one by the text
 * reader, whose text costs less than making the scanner (compiling it: 0.4 ms) and its first call.
 */
const BYTES_SCANNED_ABOVE = PIECE_BYTES;

/** A file's size, or 0 when it cannot be stat'ed (the reader says why). */
function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** A file read as places: a position's file is its index among the files read, above this. */
const FILE_POSITION = 2 ** 32;

/**
 * The text reader: each file's text, kept in pieces that end at line ends (a large boards.txt is
 * read in several), and per group its runs of lines as [text index, start, end] in the order they
 * were read; a run is one or more whole lines of one piece, each a key of the group. Where
 * WebAssembly is not available (`node --jitless`), and when the byte scanner's files changed under it.
 */
function scanText(files: string[], suffix: string, pieceBytes: number): ScannedLines {
  const warnings: Finding[] = [];
  const texts: Array<{ text: string; file: string; fileIndex: number; firstLine?: number; counted?: { offset: number; line: number } }> = [];
  const runsOf = new Map<string, number[]>();
  /** The number of a piece's first line: 1 for a file's first piece, else the line after the previous piece's last (counted when first asked for). */
  const firstLine = (which: number): number => {
    const piece = texts[which];
    piece.firstLine ??= lineAt(which - 1, texts[which - 1].text.length);
    return piece.firstLine;
  };
  /** The number of the line at `offset`, counted from the last offset asked for (they mostly rise). */
  const lineAt = (which: number, offset: number): number => {
    const piece = texts[which];
    if (!piece.counted || offset < piece.counted.offset) piece.counted = { offset: 0, line: firstLine(which) };
    const { text, counted } = piece;
    let line = counted.line;
    for (let at = text.indexOf('\n', counted.offset); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) line++;
    Object.assign(counted, { offset, line });
    return line;
  };
  // A key line and the lines after it that are keys of its group too, matched natively (most of a
  // boards.txt is runs of one board's lines): its head up to the first dot, the rest of its line, then
  // each line that starts with the same head and a dot, has an `=` and is not the key `<head><suffix>`
  // (the undotted `head`). One pattern for every group, so V8 compiles it once.
  const run = new RegExp(`([^.\\n]*)\\.[^\\n]*(?:\\n|$)(?:\\1\\.(?!${suffix.slice(1)}[^\\S\\n]*=)[^\\n=]*=[^\\n]*(?:\\n|$))*`, 'y');
  // Text offsets grow by fewer than a piece's bytes, so a position (piece index × FILE_POSITION + offset) keeps reading order.
  for (let fileIndex = 0; fileIndex < files.length; fileIndex++) {
    const file = files[fileIndex];
    const read = readPropertiesPieces(file, pieceBytes);
    warnings.push(...read.warnings);
    const pieces = read.pieces ?? [];
    for (let piece = 0; piece < pieces.length; piece++) {
      // A piece ends after a newline, so a CR LF is never split between two.
      const text = pieces[piece].includes('\r') ? pieces[piece].replace(/\r\n?/g, '\n') : pieces[piece];
      const which = texts.push({ text, file, fileIndex, ...(piece === 0 ? { firstLine: 1 } : {}) }) - 1;
      scanPiece(text, file, which);
    }
  }
  function scanPiece(text: string, file: string, which: number): void {
    for (let start = 0; start <= text.length; ) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const next = end + 1;
      const parts = lineParts(text, start, end, suffix);
      if (parts.kind !== 'key') {
        if (parts.kind === 'malformed') warnings.push(malformedLine(file, lineAt(which, start), parts.text));
        start = next;
        continue;
      }
      run.lastIndex = parts.first;
      // The run's end: after its last line's newline, or the text's end (next is then past it).
      const runEnd = run.test(text) ? Math.max(run.lastIndex, next) : next;
      const runs = runsOf.get(parts.head);
      if (runs) runs.push(which, parts.first, runEnd);
      else runsOf.set(parts.head, [which, parts.first, runEnd]);
      start = runEnd;
    }
  }
  return {
    held: true,
    warnings,
    runsOf,
    eachLine: (_head, runs, numbered, visit) => {
      for (let index = 0; index < runs.length; index += 3) {
        const which = runs[index];
        const { text, file } = texts[which];
        const end = runs[index + 2];
        let number = numbered ? lineAt(which, runs[index + 1]) : 0;
        for (let start = runs[index + 1]; start < end; number++) {
          let stop = text.indexOf('\n', start);
          if (stop < 0 || stop > end) stop = end;
          visit(text.slice(start, stop).trim(), file, which * FILE_POSITION + start, number);
          start = stop + 1;
        }
      }
      return true;
    },
  };
}

/** The byte scanner's exports (properties-scan.wat). */
interface ByteScanner {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  stop: { value: number };
  line: { value: number };
  scan(start: number, end: number, out: number, capacity: number, suffix: number, suffixLength: number, holds: number): number;
}

/** The scanner, made on first use; null where WebAssembly (or its SIMD) is not available. */
let byteScanner: ByteScanner | null | undefined;

function loadByteScanner(): ByteScanner | undefined {
  if (byteScanner === undefined) byteScanner = instantiateWasm<ByteScanner>(PROPERTIES_SCAN_WASM) ?? null;
  return byteScanner ?? undefined;
}

/** The scanner's memory: records (six i32 each) at 0, the OS suffix after them, then the file's bytes. */
const RECORDS = 1024;
const SUFFIX_AT = RECORDS * 24;
const BYTES_AT = SUFFIX_AT + 16;

/** What a file's fstat says of its contents: when it differs, the file is not the one scanned. */
function contentStamp(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/**
 * The byte scanner: each file read through one buffer in the scanner's memory and never decoded
 * whole (pico's 3 MB boards.txt decoded into text is 3 MB of memory the process touches first, a
 * page fault each 4 KB, and then a pattern run over it), and per group its places as [file index,
 * start, end, line] (bytes start..end of the file, lines from `line` on), or [file index, start,
 * -1 - i, line] for a line with a byte from 0x80 up, decoded as UTF-8 (literals[i]). A group's
 * lines are read from the files again when it is asked for, after checking they are the files scanned.
 * Undefined when the scanner is not available.
 */
function scanBytes(files: string[], suffix: string, pieceBytes: number): ScannedLines | undefined {
  const scanner = loadByteScanner();
  if (!scanner) return undefined;
  const warnings: Finding[] = [];
  const runsOf = new Map<string, number[]>();
  const literals: string[] = [];
  const stamps: string[] = [];
  const memoryFor = (bytes: number): Buffer => {
    const needed = BYTES_AT + bytes + 16 - scanner.memory.buffer.byteLength;
    if (needed > 0) scanner.memory.grow(Math.ceil(needed / 65536));
    return Buffer.from(scanner.memory.buffer);
  };
  for (let fileIndex = 0; fileIndex < files.length; fileIndex++) {
    const file = files[fileIndex];
    // This file's places, kept apart until it has been read to its end: a file that fails part of the way gives none, as the text reader's.
    const found: Array<[head: string, places: number[]]> = [];
    const fileWarnings: Finding[] = [];
    let opened: { fd: number; stats: Stats };
    try {
      opened = openRegularFileSync(file);
    } catch (error) {
      warnings.push(...unreadable(file, error));
      continue;
    }
    try {
      memoryFor(0).write(suffix, SUFFIX_AT, 'latin1');
      scanner.line.value = 1;
      // The file's bytes are read into the scanner's memory after its records and the suffix.
      readLinePiecesSync(opened.fd, Math.max(1, Math.min(pieceBytes, 1 << 30)), (bytes) => memoryFor(bytes).subarray(BYTES_AT, BYTES_AT + bytes), (piece, base) => {
        const cut = piece.length;
        // What the scanner need not look for in these bytes (found natively, with SIMD where Node has it).
        const holds = (isAscii(piece) ? 0 : 1) | (piece.indexOf(13) >= 0 ? 2 : 0);
        const memory = Buffer.from(scanner.memory.buffer);
        for (let at = 0; at < cut; ) {
          const count = scanner.scan(BYTES_AT + at, BYTES_AT + cut, 0, RECORDS, SUFFIX_AT, suffix.length, holds);
          const records = new Int32Array(scanner.memory.buffer, 0, count * 6);
          for (let index = 0; index < records.length; index += 6) {
            const start = base + records[index + 1] - BYTES_AT;
            const line = records[index + 3];
            if (records[index] === 0) {
              const head = memory.toString('latin1', records[index + 4], records[index + 4] + records[index + 5]);
              found.push([head, [fileIndex, start, base + records[index + 2] - BYTES_AT, line]]);
            } else if (records[index] === 1) {
              fileWarnings.push(malformedLine(file, line, memory.toString('latin1', records[index + 1], records[index + 2])));
            } else {
              const text = memory.toString('utf8', records[index + 1], records[index + 2]);
              const parts = lineParts(text, 0, text.length, suffix);
              if (parts.kind === 'malformed') fileWarnings.push(malformedLine(file, line, parts.text));
              else if (parts.kind === 'key') found.push([parts.head, [fileIndex, start, -1 - (literals.push(text) - 1), line]]);
            }
          }
          at = scanner.stop.value - BYTES_AT;
        }
      });
      stamps[fileIndex] = contentStamp(fstatSync(opened.fd));
    } catch (error) {
      warnings.push(...unreadable(file, error));
      continue;
    } finally {
      closeSync(opened.fd);
    }
    warnings.push(...fileWarnings);
    for (const [head, places] of found) {
      const runs = runsOf.get(head);
      if (runs) runs.push(...places);
      else runsOf.set(head, places);
    }
  }
  // A line longer than a piece made the scanner's memory grow, which WebAssembly never gives back: a
  // long-lived process (the ACP proxy, the panel) drops that scanner, and the next scan makes a new one.
  if (scanner.memory.buffer.byteLength > BYTES_AT + 2 * pieceBytes + 65536) byteScanner = undefined;
  return {
    held: false,
    warnings,
    runsOf,
    eachLine: (head, runs, numbered, visit) => {
      // Every line is read, and checked to be what the scan found, before any is visited.
      // Each line as four entries (its text, file, position and number), not an array of its own: a board's hundreds of lines.
      const lines: Array<string | number> = [];
      const open = new Map<number, number>();
      try {
        for (let index = 0; index < runs.length; index += 4) {
          const [fileIndex, start, end, first] = runs.slice(index, index + 4);
          const file = files[fileIndex];
          if (end < 0) {
            lines.push(literals[-1 - end].trim(), file, fileIndex * FILE_POSITION + start, first);
            continue;
          }
          let fd = open.get(fileIndex);
          if (fd === undefined) {
            const opened = openRegularFileSync(file);
            open.set(fileIndex, (fd = opened.fd));
            if (contentStamp(opened.stats) !== stamps[fileIndex]) return false;
          }
          const bytes = Buffer.allocUnsafe(end - start);
          if (readSync(fd, bytes, 0, bytes.length, start) !== bytes.length || !isAscii(bytes)) return false;
          // Its lines: key lines of the group, and lines in no group (blank, comments) between them.
          const raw = bytes.toString('latin1');
          const text = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
          let number = first;
          for (let at = 0; at < text.length; number++) {
            let stop = text.indexOf('\n', at);
            if (stop < 0) stop = text.length;
            const parts = lineParts(text, at, stop, suffix);
            if (parts.kind === 'key') {
              if (parts.head !== head) return false;
              // The run's bytes hold more than its lines, so its k-th line's position, start + k, stays inside the run's.
              lines.push(text.slice(parts.first, stop).trim(), file, fileIndex * FILE_POSITION + start + (number - first), number);
            } else if (parts.kind === 'malformed') return false;
            at = stop + 1;
          }
        }
      } catch {
        // A file that cannot be read again is not the file scanned.
        return false;
      } finally {
        for (const fd of open.values()) closeSync(fd);
      }
      for (let index = 0; index < lines.length; index += 4) {
        visit(lines[index] as string, lines[index + 1] as string, lines[index + 2] as number, numbered ? (lines[index + 3] as number) : 0);
      }
      return true;
    },
  };
}

/** The warning for a properties file that exists and cannot be read; none for a missing one (arduino-cli's SafeLoad). */
function unreadable(file: string, error: unknown): Finding[] {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return [];
  return [
    {
      severity: 'warning',
      code: 'properties-unreadable',
      message: `${file}: cannot be read (${code ?? String(error)})`,
      file,
      suggestion: 'Check the file permissions.',
    },
  ];
}

function malformedLine(file: string, line: number, text: string): Finding {
  return {
    severity: 'warning',
    code: 'properties-malformed-line',
    message: `${file}:${line}: line is not key=value, ignored: ${text.slice(0, 80)}`,
    file,
    line,
    suggestion: 'Fix or comment out the line (a comment starts with #).',
  };
}

/** `name.txt` with `name.local.txt` merged over it, as the platform specification defines. */
export function loadWithLocal(dir: string, base: 'boards' | 'platform', os?: OsSuffix): ParsedProperties {
  const main = loadPropertiesFile(`${dir}/${base}.txt`, os);
  const local = loadPropertiesFile(`${dir}/${base}.local.txt`, os);
  main.properties.merge(local.properties);
  return { properties: main.properties, warnings: [...main.warnings, ...local.warnings] };
}
