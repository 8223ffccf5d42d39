// Reads text from an already verified file descriptor: the whole file up to a size
// limit, or only the lines asked for, streamed so memory stays bounded whatever the
// file's size.
import type { FileHandle } from 'node:fs/promises';
import { RequestError } from '@agentclientprotocol/sdk';

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/** The whole file as UTF-8 text; refuses files over `maxBytes` (saying `what` to do), binary and non-UTF-8 content. */
export async function readWholeText(handle: FileHandle, shown: string, maxBytes: number, what = 'read it in parts with line and limit'): Promise<string> {
  const { size } = await handle.stat();
  if (size > maxBytes) {
    throw RequestError.invalidParams({ path: shown, size }, `${shown} is ${size} bytes; ${what}`);
  }
  // Read to the end rather than trusting the size: the file may grow while it is read.
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK);
    const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > maxBytes) throw RequestError.invalidParams({ path: shown, size: total }, `${shown} grew past ${maxBytes} bytes while it was read; ${what}`);
    chunks.push(chunk.subarray(0, bytesRead));
  }
  return decodeText(Buffer.concat(chunks, total), shown);
}

/**
 * Lines `line` (1-based) to `line + limit - 1`, joined by "\n", exactly as
 * `text.split("\n").slice(line - 1, line - 1 + limit).join("\n")` would give them,
 * without holding more of the file than the answer (at most `maxBytes`).
 */
export async function readLineRange(handle: FileHandle, shown: string, line: number | undefined, limit: number | undefined, maxBytes: number): Promise<string> {
  const first = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined ? Infinity : first + Math.max(0, limit);
  if (end <= first) return '';
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let newlines = 0; // newlines seen so far: the current byte belongs to line `newlines` (0-based)
  const chunk = Buffer.allocUnsafe(CHUNK);
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
    if (bytesRead === 0) break;
    const data = chunk.subarray(0, bytesRead);
    let at = 0;
    while (at < bytesRead) {
      const nl = data.indexOf(NEWLINE, at);
      const stop = nl === -1 ? bytesRead : nl;
      if (newlines >= first) {
        // Inside the range: keep the bytes, and the newline itself unless it ends the last line.
        const through = stop < bytesRead && newlines + 1 < end ? stop + 1 : stop;
        keptBytes += through - at;
        if (keptBytes > maxBytes) {
          throw RequestError.invalidParams({ path: shown, line, limit }, `lines ${first + 1}-${end === Infinity ? 'end' : end} of ${shown} are more than ${maxBytes} bytes; ask for fewer lines (a smaller limit)`);
        }
        kept.push(Buffer.from(data.subarray(at, through)));
      }
      if (stop === bytesRead) break;
      newlines++;
      if (newlines >= end) return decodeText(Buffer.concat(kept, keptBytes), shown);
      at = stop + 1;
    }
  }
  return decodeText(Buffer.concat(kept, keptBytes), shown);
}

export function decodeText(bytes: Buffer, shown: string): string {
  if (bytes.includes(0)) {
    throw RequestError.invalidParams({ path: shown }, `${shown} is a binary file (it contains NUL bytes), not text`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw RequestError.invalidParams({ path: shown }, `${shown} is not valid UTF-8 text`);
  }
}
