// Reading a project or platform file that must be a regular file. readFile opens the
// name as it is: a FIFO blocks the open until something writes to it (the synchronous
// read stalls the whole bridge, the asynchronous one a thread of libuv's small pool and
// the context load waiting for it), and a device may never end. These open without
// blocking (O_NONBLOCK, no controlling tty), fstat the descriptor they hold and read
// only a regular file; anything else is an error saying what it is.
import { closeSync, constants, fstatSync, openSync, promises as fs, readFileSync, type Stats } from 'node:fs';

const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** What a file that is not a regular one is, for messages: "a FIFO (named pipe)", "a folder", ... */
export function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** The error for a name that is not a regular file; it has no system error code, and shows as its message alone. */
export class NotRegularFile extends Error {
  constructor(readonly file: string, readonly kind: string) {
    super(`${kind}, not a regular file`);
  }

  override toString(): string {
    return this.message;
  }
}

function check(stats: Stats, file: string): void {
  if (!stats.isFile()) throw new NotRegularFile(file, fileKind(stats));
}

export function readRegularFileSync(file: string): Buffer;
export function readRegularFileSync(file: string, encoding: BufferEncoding): string;
export function readRegularFileSync(file: string, encoding?: BufferEncoding): Buffer | string {
  const fd = openSync(file, FLAGS);
  try {
    check(fstatSync(fd), file);
    return encoding ? readFileSync(fd, encoding) : readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

export async function readRegularFile(file: string, encoding: BufferEncoding): Promise<string> {
  const handle = await fs.open(file, FLAGS);
  try {
    check(await handle.stat(), file);
    return await handle.readFile(encoding);
  } finally {
    await handle.close();
  }
}
