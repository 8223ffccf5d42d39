// Values kept on disk between processes: built contexts, so a `boardbridge context` (or a new
// chat) on an unchanged sketch and platform does not parse a 2.9 MB boards.txt again, and
// resolved boards, so an edited sketch does not either. An entry holds the stamp (mtime and size,
// or absence) of every file the value was built from, as StampedCache (cache.ts) does in memory, and the
// code's own fingerprint: a changed file or a rebuilt boardbridge misses.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { join } from '../../platform/path-join.js';
import { fileURLToPath } from 'node:url';
import { dataFile } from '../../platform/data-files.js';
import { stamp } from './cache.js';

const MAX_ENTRIES = 200;
// Larger contexts are not worth a file of their own (a huge sketch folder's inputs).
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

interface Entry<T> {
  code: string;
  key: string;
  stamps: Array<[string, string]>;
  watched: string[];
  value: T;
}

/** The last key named, and its name: a key is named by get() and again by set(), or by two readers. */
let named: { key: string; name: string } | undefined;

/**
 * A cache file's name for a key: 64 bits of two 32-bit multiplicative hashes over the key's UTF-8
 * bytes, a 32-bit word a turn, in hex. Not node:crypto, whose loading is a tenth of a stored
 * context's time; a name two keys share is only a miss, since an entry holds its whole key and
 * get() compares it. A pin map's key is its board's whole property set (some 50,000 characters on
 * a Nucleo) and the context command runs without TurboFan (main.ts), so this loop runs in the
 * interpreter, where a turn per character (64-bit FNV-1a in two halves, as it was) took 7 ms.
 */
export function fileNameOf(key: string): string {
  if (named?.key === key) return named.name;
  const bytes = Buffer.from(key, 'utf8');
  const whole = bytes.length >>> 2;
  // A copy of the whole words into a buffer of their own, which is aligned for a word view.
  const words = new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + whole * 4));
  let a = 0x811c9dc5 ^ bytes.length;
  let b = 0x5bd1e995 ^ bytes.length;
  for (let index = 0; index < whole; index++) {
    const word = words[index];
    a = Math.imul(a ^ word, 0x01000193);
    a = (a << 13) | (a >>> 19);
    b = Math.imul(b + word, 0x5bd1e995);
    b ^= b >>> 15;
  }
  for (let index = whole * 4; index < bytes.length; index++) {
    a = Math.imul(a ^ bytes[index], 0x01000193);
    b = Math.imul(b + bytes[index], 0x5bd1e995);
  }
  const name = (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
  named = { key, name };
  return name;
}

// The code that builds contexts: every module of this folder, the shared ones above it, and the
// data files it reads, each named with its stamp; the whole list, not a digest of it, so two
// builds never pass for one. Taken once per process and folder of code: contexts and boards share
// it, and so do the two copies of this module a command line holds (shell.cjs, which looks for a
// stored context, and context.cjs beside it, which builds the context on a miss), which is why it
// is kept on the process, under the folders read, rather than in a module variable.
const FINGERPRINTS = Symbol.for('boardbridge.codeFingerprints');

interface CodeFolders {
  dirs: string[];
  /** The bundle's chunks folder, whose files are named by their content's hash. */
  chunks?: string;
  key: string;
}

let codeFolders: CodeFolders | undefined;

function codeFingerprint(): string {
  codeFolders ??= codeFoldersOfThisCopy();
  const holder = process as unknown as { [FINGERPRINTS]?: Map<string, string> };
  const taken = (holder[FINGERPRINTS] ??= new Map<string, string>());
  let code = taken.get(codeFolders.key);
  if (code === undefined) taken.set(codeFolders.key, (code = takeCodeFingerprint(codeFolders)));
  return code;
}

/** A chunk esbuild named by its content's hash (chunkNames '[name]-[hash]'); the entry chunks/program.js is not. */
const HASHED_CHUNK = /-[A-Z0-9]{8}\.js$/;

function codeFoldersOfThisCopy(): CodeFolders {
  const file = fileURLToPath(import.meta.url);
  const here = dirname(file);
  // Bundled (dist/cli/boardbridge.cjs and its chunks), this code is inlined in a chunk: the bundle's
  // files are the code.
  const bundled = !/^disk-cache\.[jt]s$/.test(basename(file));
  const cli = basename(here) === 'chunks' ? dirname(here) : here;
  // esbuild names each chunk by the hash of its content, so the chunks' names are their stamp
  // (a bundle has some hundred and fifty; stat-ing each was most of a stored context's own time);
  // the few files there not so named are stamped.
  const chunks = bundled ? join(cli, 'chunks') : undefined;
  const dirs = bundled ? [cli, chunks!] : [here, join(here, 'core-tables'), join(here, '..'), join(here, '../../boards/data')];
  return { dirs, chunks, key: JSON.stringify([dirs, chunks ?? null]) };
}

function takeCodeFingerprint({ dirs, chunks }: CodeFolders): string {
  const lines: string[] = [];
  // A bundle's data files are the ones it reads, found above its folder (the same for each copy there).
  for (const dir of chunks ? [...dirs, dirname(dataFile('esp32-chips.json'))] : dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const name of names) lines.push(dir === chunks && HASHED_CHUNK.test(name) ? name : `${name}:${stamp(join(dir, name))}`);
  }
  return lines.join('\n');
}

/** One kind of value under `<dir>/<folder>/` (`contexts`, `boards`). */
export class DiskCache<T> {
  constructor(
    private readonly dir: string,
    private readonly folder: string,
  ) {}

  private file(key: string): string {
    return join(this.dir, this.folder, `${fileNameOf(key)}.json`);
  }

  /** True when an entry is kept under `key`, whether or not its files changed since. */
  has(key: string): boolean {
    return existsSync(this.file(key));
  }

  /** The stored value and the extra files it watches, when none of the files it was stored with changed. */
  get(key: string): { value: T; watched: string[] } | undefined {
    let entry: Entry<T>;
    try {
      entry = JSON.parse(readFileSync(this.file(key), 'utf8')) as Entry<T>;
    } catch {
      return undefined;
    }
    if (entry.key !== key || entry.code !== codeFingerprint() || !Array.isArray(entry.stamps) || !Array.isArray(entry.watched)) return undefined;
    for (const [file, previous] of entry.stamps) if (stamp(file) !== previous) return undefined;
    return { value: entry.value, watched: entry.watched };
  }

  /** `inputs` and `watched` are stamped; never fails the caller: a cache that cannot be written is only slower. */
  set(key: string, value: T, inputs: string[], watched: string[] = []): void {
    const stamps: Array<[string, string]> = [...new Set([...inputs, ...watched])].map((file) => [file, stamp(file)]);
    const text = JSON.stringify({ code: codeFingerprint(), key, stamps, watched, value } satisfies Entry<T>);
    if (text.length > MAX_ENTRY_BYTES) return;
    const target = this.file(key);
    const temp = `${target}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(temp, text);
      renameSync(temp, target);
      this.prune(dirname(target));
    } catch {
      rmSync(temp, { force: true });
    }
  }

  // Oldest entries go first once there are more than MAX_ENTRIES.
  private prune(dir: string): void {
    const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    if (names.length <= MAX_ENTRIES) return;
    const aged = names.map((name) => ({ name, time: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.time - b.time);
    for (const { name } of aged.slice(0, names.length - MAX_ENTRIES)) rmSync(join(dir, name), { force: true });
  }
}
