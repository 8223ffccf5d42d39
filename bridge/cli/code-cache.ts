// A CommonJS bundle beside the command line (dist/cli/context.cjs), run with V8's code cache:
// the bytecode V8 made for it in an earlier process, so a start neither parses nor compiles it
// again. Node >= 22.1 keeps such a cache for ES modules (module.enableCompileCache, main.ts);
// Node 20 has none, and an ES module cannot be given one, but a script can (vm.Script's
// cachedData), on every runtime down to the Arduino IDE's. The cache is taken after the
// command ran, so it holds the functions that run compiled, not only the top level.
//
// It is kept in <boardbridge cache>/code/, one file per bundle, V8 flags, Node version and architecture;
// a bundle is its path too, so two installs on one runtime (a global one and npx's, a checkout)
// keep a cache each instead of replacing each other's at every run.
// $NODE_DISABLE_COMPILE_CACHE (Node's own switch for its compile cache) turns it off. V8 checks
// a cache against its own version, flags and the source's length and refuses one that does not
// fit (then the bundle compiles as if there were none, and a new cache replaces the refused one);
// the file's name holds the bundle's size, mtime and inode, so a rebuilt bundle never meets the
// cache of the one before it. A cache holds what the runs that wrote it compiled: another kind
// of run (another core's tables and checks) compiles its own functions each time, so the caller
// names the kind, and a kind the cache does not cover yet writes it again, with both.
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import { join } from '../../platform/path-join.js';
import { Script } from 'node:vm';
import { boardbridgeCacheDir } from '../../platform/system-paths.js';
import { readRegularFileSync, readTextSync } from '../../platform/regular-file.js';

export interface CachedBundle<T> {
  exports: T;
  /**
   * Writes the code cache when there was none this run could use, or when it did not cover runs of
   * this `kind` yet; never throws (a cache that cannot be written is only slower). A run that did not
   * finish its work (`kind` undefined: the command failed) compiled only part of what runs of its
   * kind use: its cache is written only where there was none, and covers no kind, so the next run
   * that finishes writes its own.
   */
  save(kind: string | undefined): void;
}

/** Another install's cache not written for this long is taken to be of an install that is gone. */
const UNUSED_INSTALL_MS = 30 * 24 * 3600 * 1000;

/** A short name for the bundle's path (FNV-1a; node:crypto costs a cold command line 4 ms). */
function pathTag(file: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < file.length; index++) hash = Math.imul(hash ^ file.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** The folder of the code caches, or undefined when $NODE_DISABLE_COMPILE_CACHE turns them off. */
function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.NODE_DISABLE_COMPILE_CACHE ? undefined : join(boardbridgeCacheDir(env), 'code');
}

/**
 * What the bundle requires as `./name.cjs`: a script of its own beside it (scripts/bundle-cli.mjs's
 * CONTEXT_SPLITS: the yaml reader, the MPLAB X and OpenMV providers), run with a code cache of its
 * own, as the bundle is. Node's compile cache would keep only what compiling its top level made (the
 * yaml reader's: 12 kB, with none of the parser's functions), so a sketch with a sketch.yaml compiled
 * the parser again at each first context (the Pico's: 292 M instructions against 242 M without one).
 */
const SCRIPT_BESIDE = /^\.\/[\w-]+\.cjs$/;

/**
 * Runs the CommonJS bundle `file` and returns its exports, or undefined when there is no such file
 * (the unbundled build, which imports the ES module instead). `flags` names the V8 flags the caller
 * set for this run, if any: V8 refuses a cache made under other flags, so each set has its own file.
 * The scripts beside it that it requires while it runs (SCRIPT_BESIDE) are run the same way, and
 * `save` writes their caches as it writes the bundle's.
 */
export function loadCachedBundle<T>(file: string, flags?: string): CachedBundle<T> | undefined {
  const scripts = new Map<string, CachedBundle<unknown>>();
  const main = runCached<T>(file, flags, scripts);
  if (!main) return undefined;
  return {
    exports: main.exports,
    save: (kind) => {
      for (const script of scripts.values()) script.save(kind);
    },
  };
}

/** loadCachedBundle for one script; `scripts` holds every script run so far, `file`'s own once it has run. */
function runCached<T>(file: string, flags: string | undefined, scripts: Map<string, CachedBundle<unknown>>): CachedBundle<T> | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let source: string;
  let stamp: string;
  try {
    const stats = fstatSync(fd);
    source = readTextSync(fd, stats);
    stamp = [stats.size, Math.trunc(stats.mtimeMs), stats.ino].map((n) => n.toString(36)).join('-');
  } finally {
    closeSync(fd);
  }
  const dir = codeCacheDir();
  // One bundle (at one path) on one runtime under one set of flags has one cache; the ones of its earlier builds are removed
  // when it is written, and those of other installs that have not been written for a month.
  const runtime = `${basename(file).replace(/\.c?js$/, '')}${flags ? `-${flags}` : ''}-${process.version}-${process.arch}-`;
  const prefix = `${runtime}${pathTag(resolve(file))}-`;
  const cacheFile = dir ? join(dir, `${prefix}${stamp}.bin`) : undefined;
  const coversFile = cacheFile?.replace(/\.bin$/, '.covers');
  let cachedData: Buffer | undefined;
  let covers: string[] = [];
  if (cacheFile) {
    try {
      cachedData = readRegularFileSync(cacheFile);
      covers = readRegularFileSync(coversFile!, 'utf8').split('\n').filter(Boolean);
    } catch {
      // No cache, or one whose kinds are not known: it is written again after this run.
    }
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const used = cachedData !== undefined && script.cachedDataRejected !== true;
  const module = { exports: {} as T };
  const plain = createRequire(file);
  const besideRequire = (id: string): unknown => {
    if (!SCRIPT_BESIDE.test(id)) return plain(id);
    const beside = join(dirname(file), id);
    const ran = scripts.get(beside) ?? runCached(beside, flags, scripts);
    return ran ? ran.exports : plain(id);
  };
  const scriptRequire = Object.assign(besideRequire, { resolve: plain.resolve, cache: plain.cache, main: plain.main, extensions: plain.extensions });
  const cached: CachedBundle<T> = {
    exports: module.exports,
    save: (kind) => {
      if (!cacheFile || !dir || (used && (kind === undefined || covers.includes(kind)))) return;
      const kinds = kind === undefined ? [] : used ? [...covers, kind] : [kind];
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        // The code first, then the kinds it covers: a reader between the two finds fewer kinds, never more.
        writeAtomically(cacheFile, script.createCachedData());
        writeAtomically(coversFile!, kinds.map((name) => `${name}\n`).join(''));
        const now = Date.now();
        for (const name of readdirSync(dir)) {
          const entry = join(dir, name);
          if (entry === cacheFile || entry === coversFile || !name.startsWith(runtime) || !/\.(bin|covers)$/.test(name)) continue;
          if (name.startsWith(prefix) || now - statSync(entry).mtimeMs > UNUSED_INSTALL_MS) rmSync(entry, { force: true });
        }
      } catch {
        // Only slower next time.
      }
    },
  };
  // Known before it runs: a script that requires it back meets its module as Node's require would, part-way.
  scripts.set(file, cached);
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, scriptRequire, module, file, dirname(file));
  cached.exports = module.exports;
  return cached;
}

function writeAtomically(file: string, data: string | Buffer): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, data, { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
