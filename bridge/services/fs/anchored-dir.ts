// Opens folders and files so that the object checked is the object used, even while
// something swaps a file or a folder for a symbolic link (issue 12).
//
// Node has no openat(). On Linux, /proc/self/fd/N is a "magic link": a path that
// goes through it continues from the very folder descriptor N holds, not from that
// folder's name, so `/proc/self/fd/N/name` is openat(N, "name"). The walk opens the
// allowed root, then each component below it from the descriptor of the one before,
// every one with O_NOFOLLOW: a component that became a symbolic link fails to open
// (ELOOP or ENOTDIR) instead of being followed, and nothing is ever resolved by name
// again. Before a descriptor is used its real path (readlink of /proc/self/fd/N) must
// still be the one that was checked, which also catches a folder moved out of the
// workspace meanwhile. Files are opened with O_NONBLOCK (a FIFO or a device never
// blocks the open) and fstat'ed: only regular files are read or replaced. One window
// is left on Linux: a folder moved out of the workspace between its last check and a
// rename or unlink in it (Node has no renameat); that takes a process that may write
// outside the workspace already, and still never follows a link.
//
// Elsewhere (macOS, Windows) there is no magic link: each component is opened by its
// full name and accepted only when its fstat device/inode equals the lstat of that name
// and the name's real path is still the checked one. That narrows the window to a
// swap and a swap back between two system calls; it cannot close it.
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, promises as fs, readFileSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { RequestError } from '@agentclientprotocol/sdk';
import { fileKind } from '../../../platform/regular-file.js';

const MAGIC_LINKS = process.platform === 'linux' && existsSync('/proc/self/fd');
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | NOFOLLOW;
/** For reading a file that must be regular: never follows, never blocks, never becomes a controlling tty. */
export const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** A folder held open, whose real path was verified inside an allowed root. */
export class AnchoredDir {
  private constructor(
    readonly handle: FileHandle,
    /** The real path the folder had when it was verified. */
    readonly path: string,
  ) {}

  /**
   * Opens `root` (a canonical allowed root) and then each of `components` below it,
   * creating missing ones when `create` is set. `shown` is the path as the agent gave it.
   */
  static async open(root: string, components: string[], shown: string, create = false): Promise<AnchoredDir> {
    let dir = new AnchoredDir(await openVerified(root, root, shown), root);
    for (const name of components) {
      try {
        dir = await dir.subfolder(name, shown, create);
      } catch (error) {
        await dir.close();
        throw error;
      }
    }
    return dir;
  }

  /** The name to give a system call for `name` inside this folder. */
  entry(name: string): string {
    return MAGIC_LINKS ? `/proc/self/fd/${this.handle.fd}/${name}` : path.join(this.path, name);
  }

  /** Opens `name` in this folder, refusing a symbolic link; undefined when it does not exist. */
  async openFile(name: string, shown: string, flags = READ_FLAGS): Promise<FileHandle | undefined> {
    const full = path.join(this.path, name);
    const before = await lstatOrUndefined(this.entry(name), shown);
    if (!before) return undefined;
    refuseNonRegular(before, shown);
    let handle: FileHandle;
    try {
      handle = await fs.open(this.entry(name), flags);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      throw code === 'ELOOP' ? becameLink(shown) : openError(error, shown);
    }
    try {
      refuseNonRegular(await handle.stat(), shown);
      await verifyDescriptor(handle, full, shown);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Throws unless this folder's real path is still the one it was opened under. */
  async verify(shown: string): Promise<void> {
    await verifyDescriptor(this.handle, this.path, shown);
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  private async subfolder(name: string, shown: string, create: boolean): Promise<AnchoredDir> {
    const full = path.join(this.path, name);
    if (create) {
      await fs.mkdir(this.entry(name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw openError(error, shown);
      });
    }
    const handle = await openVerified(this.entry(name), full, shown);
    await this.close();
    return new AnchoredDir(handle, full);
  }
}

async function openVerified(name: string, expected: string, shown: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fs.open(name, DIRECTORY_FLAGS);
  } catch (error) {
    throw openError(error, shown);
  }
  try {
    if (!(await handle.stat()).isDirectory()) throw RequestError.invalidParams({ path: shown }, `${shown}: ${expected} is not a folder`);
    await verifyDescriptor(handle, expected, shown);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function verifyDescriptor(handle: FileHandle, expected: string, shown: string): Promise<void> {
  const actual = MAGIC_LINKS ? readlinkSync(`/proc/self/fd/${handle.fd}`) : await nameOfDescriptor(handle, expected);
  if (actual !== expected) throw changedWhileOpening(shown, expected, actual);
}

// Without magic links: the name must still lead to the same object, and to no other place.
async function nameOfDescriptor(handle: FileHandle, expected: string): Promise<string> {
  const [held, named, real] = await Promise.all([handle.stat(), fs.lstat(expected).catch(() => undefined), fs.realpath(expected).catch(() => undefined)]);
  if (!named || named.isSymbolicLink() || named.dev !== held.dev || named.ino !== held.ino) return `another object than ${expected}`;
  return real ?? `a vanished ${expected}`;
}

/**
 * For callers that cannot wait (the session journalling an agent's own edit as its update
 * arrives): the text of `file`, a checked real path, read from a descriptor opened without
 * following or blocking and verified to be that path; null when it is missing, not a
 * regular file, over `maxBytes`, or changed while it was opened.
 */
export function readVerifiedTextSync(file: string, maxBytes: number): string | null {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch {
    return null;
  }
  try {
    const held = fstatSync(fd);
    if (!held.isFile() || held.size > maxBytes) return null;
    if (MAGIC_LINKS ? readlinkSync(`/proc/self/fd/${fd}`) !== file : !sameObject(held, file)) return null;
    return readFileSync(fd, 'utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function sameObject(held: Stats, file: string): boolean {
  const named = lstatSync(file);
  return !named.isSymbolicLink() && named.dev === held.dev && named.ino === held.ino && realpathSync(file) === file;
}

function refuseNonRegular(stats: Stats, shown: string): void {
  if (stats.isFile()) return;
  if (stats.isDirectory()) throw RequestError.invalidParams({ path: shown }, `${shown} is a folder, not a file; list it with a terminal command`);
  if (stats.isSymbolicLink()) throw becameLink(shown);
  throw RequestError.invalidParams({ path: shown }, `${shown} is ${fileKind(stats)}; only regular files are read or written`);
}

function becameLink(shown: string): RequestError {
  return new RequestError(-32602, `Access denied: ${shown} became a symbolic link after it was checked; it was not followed`, { path: shown });
}

function changedWhileOpening(shown: string, expected: string, actual: string): RequestError {
  return new RequestError(-32602, `Access denied: ${shown} changed while it was being opened (${expected} now leads to ${actual}); nothing was read or written, try again`, { path: shown });
}

/** A system error on `shown` as an error the agent or person can act on. */
export function openError(error: unknown, shown: string): RequestError {
  if (error instanceof RequestError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'EMLINK') {
    return new RequestError(-32602, `Access denied: a folder on the way to ${shown} is a symbolic link or not a folder; it was not followed`, { path: shown, code });
  }
  if (code === 'ENOENT') return notFound(shown);
  if (code === 'ENAMETOOLONG') return RequestError.invalidParams({ path: shown, code }, `${shown}: a name in the path is too long for the file system (at most 255 bytes each)`);
  return RequestError.internalError({ path: shown, code }, `cannot open ${shown}: ${(error as Error).message}`);
}

async function lstatOrUndefined(name: string, shown: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw openError(error, shown);
  }
}


// The message names ENOENT too: agents that look for it in the text treat the file as new.
export function notFound(shown: string): RequestError {
  return new RequestError(-32002, `Resource not found: ${shown} does not exist (ENOENT)`, { path: shown, uri: shown });
}
