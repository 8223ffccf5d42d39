// Reading a project or platform file that must be a regular file. readFile opens the
// name as it is: a FIFO blocks the open until something writes to it (the synchronous
// read stalls the whole bridge, the asynchronous one a thread of libuv's small pool and
// the context load waiting for it), and a device may never end. These open without
// blocking (O_NONBLOCK, no controlling tty), fstat the descriptor they hold and read
// only a regular file; anything else is an error saying what it is.
import { isAscii } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, promises as fs, readFileSync, readSync, type Stats } from 'node:fs';

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

/**
 * Bytes as text, as toString('utf8') decodes them (a byte that is not UTF-8 is U+FFFD). Plain ASCII,
 * as most platform files are, is the same text copied without UTF-8's decoding (latin1): pico's
 * 3 MB boards.txt 0.6 ms sooner.
 */
export function decodeText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * Above this size a file read as UTF-8 text is read as bytes and decoded (decodeText): Node 20 and
 * 22 read a file asked for as 'utf8' in C++ (readFileUtf8), which is slower than that once a file
 * passes some tens of KB (stm32duino's 644 KB CMSIS device header: 1.4 ms against 0.55), and a
 * little faster below.
 */
const DECODED_ABOVE = 32 * 1024;

/** The text of the regular file `fd` whose fstat is `stats`, as UTF-8. */
export function readTextSync(fd: number, stats: Stats): string {
  return stats.size > DECODED_ABOVE ? decodeText(readFileSync(fd)) : readFileSync(fd, 'utf8');
}

/**
 * Opens `file` for reading without blocking on a FIFO or a device, and returns its descriptor and
 * fstat; throws NotRegularFile (the descriptor closed) when it is not a regular file. The caller closes it.
 */
export function openRegularFileSync(file: string): { fd: number; stats: Stats } {
  const fd = openSync(file, FLAGS);
  try {
    const stats = fstatSync(fd);
    check(stats, file);
    return { fd, stats };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

export function readRegularFileSync(file: string): Buffer;
export function readRegularFileSync(file: string, encoding: 'utf8'): string;
export function readRegularFileSync(file: string, encoding?: 'utf8'): Buffer | string {
  const { fd, stats } = openRegularFileSync(file);
  try {
    return encoding ? readTextSync(fd, stats) : readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A regular file's text, as readRegularFileSync(file, 'utf8') reads it, in pieces that each end after
 * a newline (the last at the file's end): for a reader that takes a file line by line and keeps the
 * text, such as a platform's boards.txt (pico's is 3 MB). The file is read through one buffer of
 * `pieceBytes`, made larger only for a line longer than it, in place of a buffer as large as the
 * file beside the text: each page of memory a process touches first is a page fault, and on a
 * virtual machine such as this project's CI a fault costs about 2 µs (pico's 3 MB buffer: 1.6 ms).
 * A piece is decoded on its own; a newline is never inside a UTF-8 sequence, so the text is the
 * whole file's. V8 makes a string above 128 KB a large object, which its garbage collector never copies.
 */
export function readRegularTextPiecesSync(file: string, pieceBytes: number): string[] {
  const { fd, stats } = openRegularFileSync(file);
  try {
    if (stats.size <= pieceBytes) return [readTextSync(fd, stats)];
    const pieces: string[] = [];
    let buffer: Buffer | undefined;
    readLinePiecesSync(
      fd,
      pieceBytes,
      (bytes) => (buffer = buffer ? Buffer.concat([buffer], bytes) : Buffer.allocUnsafeSlow(bytes)),
      (piece) => pieces.push(decodeText(piece)),
    );
    return pieces;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the file `fd` from where it stands to its end through one buffer, passing `piece` each run
 * of whole lines at the buffer's start (each ends after a newline; the last at the file's end) and
 * the file offset it starts at. `bufferFor(bytes)` gives the buffer, at least `bytes` long, first
 * `pieceBytes` and twice as long for each line longer than it, keeping the bytes the last one held.
 */
export function readLinePiecesSync(fd: number, pieceBytes: number, bufferFor: (bytes: number) => Buffer, piece: (bytes: Buffer, offset: number) => void): void {
  let capacity = pieceBytes;
  let buffer = bufferFor(capacity);
  let held = 0;
  let offset = 0;
  for (;;) {
    if (held === capacity) buffer = bufferFor((capacity *= 2));
    const read = readSync(fd, buffer, held, capacity - held, null);
    if (read === 0) {
      if (held > 0) piece(buffer.subarray(0, held), offset);
      return;
    }
    held += read;
    const cut = buffer.lastIndexOf(10, held - 1) + 1;
    if (cut === 0) continue;
    piece(buffer.subarray(0, cut), offset);
    buffer.copyWithin(0, cut, held);
    offset += cut;
    held -= cut;
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
