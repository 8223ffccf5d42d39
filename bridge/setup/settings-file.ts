// One editor settings file, changed the way a careful person would: under a lock
// (concurrent `setup --write` runs each land, one after the other), through a symlink to
// the file it names, never through a read-only file (the mode bits are checked here, as
// root would otherwise write anyway) or anything but a regular file (a FIFO is refused
// from its stat, never opened), atomically (a temporary file renamed over it, keeping
// its mode), with a timestamped backup of what was there.
import {
  accessSync,
  chmodSync,
  chownSync,
  closeSync,
  constants,
  copyFileSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { tempName } from '../services/fs/atomic-write.js';
import { running } from '../services/fs/stale-temps.js';

/** A reason the file cannot be written, said to the person as it is. */
export class SettingsFileError extends Error {}

const LOCK_WAIT_MS = 30_000;

export interface SettingsFile {
  /** The path as given (the editor's usual one, or --file). */
  file: string;
  /** Where the bytes are: the file itself, or what its symlink points to. */
  real: string;
  /** Undefined when the file does not exist yet. */
  stats?: Stats;
}

/** Finds the file and checks that it can be changed; nothing is opened. */
export function settingsFile(file: string): SettingsFile {
  let link: Stats | undefined;
  try {
    link = lstatSync(file);
  } catch {
    return { file, real: file };
  }
  let real = file;
  if (link.isSymbolicLink()) {
    try {
      real = realpathSync(file);
    } catch {
      throw new SettingsFileError(`${file} is a symlink to a file that does not exist; point it at your settings file (or pass --file) and run setup again — nothing was written`);
    }
  }
  const stats = statSync(real);
  if (!stats.isFile()) throw new SettingsFileError(`${file}${real !== file ? ` (${real})` : ''} is ${kindOf(stats)}, not a settings file; nothing was written (pass --file with the settings file to change)`);
  if ((stats.mode & 0o222) === 0) {
    throw new SettingsFileError(`${file}${real !== file ? ` (${real})` : ''} is read-only (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}); nothing was written — make it writable (chmod u+w) if boardbridge may change it, or add the lines printed above yourself`);
  }
  try {
    accessSync(real, constants.W_OK);
  } catch {
    throw new SettingsFileError(`${file}${real !== file ? ` (${real})` : ''} cannot be written by this user (owner uid ${stats.uid}, mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}); nothing was written`);
  }
  return { file, real, stats };
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * Runs `change` with the file's text (undefined when it does not exist) while holding its
 * lock; writes what it returns (unless undefined) atomically after a backup. The lock is
 * taken before the checks and the read, so a second run reads what the first one wrote.
 */
export function changeSettingsFile(file: string, now: Date, change: (text: string | undefined, target: SettingsFile) => string | undefined): { written: boolean; backup?: string } {
  mkdirSync(path.dirname(file), { recursive: true });
  const first = settingsFile(file);
  const release = lock(`${first.real}.boardbridge-lock`);
  try {
    const target = settingsFile(file);
    const before = target.stats ? readRegular(target) : undefined;
    const after = change(before, target);
    if (after === undefined || after === before) return { written: false };
    const backup = target.stats ? backUp(target, now) : undefined;
    writeAtomically(target, after);
    return { written: true, backup };
  } finally {
    release();
  }
}

// Read through a descriptor opened without blocking and without following a link, checked
// again with fstat: a FIFO put there since the check is refused, not waited on.
function readRegular(target: SettingsFile): string {
  const fd = openSync(target.real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new SettingsFileError(`${target.file} is ${kindOf(stats)}, not a settings file; nothing was written`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

// One backup per run and file, named by the run's time; a second run in the same
// millisecond gets its own (-2, -3, …), never one over another.
function backUp(target: SettingsFile, now: Date): string {
  const base = `${target.file}.boardbridge-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    try {
      copyFileSync(target.real, name, constants.COPYFILE_EXCL);
      return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function writeAtomically(target: SettingsFile, text: string): void {
  const temp = path.join(path.dirname(target.real), tempName());
  let fd: number;
  try {
    fd = openSync(temp, 'wx', target.stats ? target.stats.mode & 0o7777 : 0o644);
  } catch (error) {
    throw new SettingsFileError(`cannot create a file in ${path.dirname(target.real)} to replace ${target.file} atomically (${(error as NodeJS.ErrnoException).code}); nothing was written — the folder must be writable`);
  }
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  if (target.stats) {
    chmodSync(temp, target.stats.mode & 0o7777);
    // Run as root on a person's file: it stays theirs.
    if (process.getuid?.() === 0) chownSync(temp, target.stats.uid, target.stats.gid);
  }
  renameSync(temp, target.real);
}

function lock(file: string): () => void {
  const started = Date.now();
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new SettingsFileError(`cannot create the lock ${file} (${code}); nothing was written — the folder must be writable`);
    }
    const holder = Number(readQuietly(file));
    // A run that died holding the lock left it behind: it holds nothing any more.
    if (holder > 0 && !running(holder)) {
      rmSync(file, { force: true });
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) {
      throw new SettingsFileError(`another boardbridge setup (pid ${holder || 'unknown'}) has held ${file} for ${LOCK_WAIT_MS / 1000} s; nothing was written — if no setup is running, remove that file and run again`);
    }
    Atomics.wait(pause, 0, 0, 10 + Math.floor(Math.random() * 20));
  }
}

function readQuietly(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
