// Replaces a file so that a reader (or a crash) sees either the old or the new
// content, never half of it: a temporary file created inside the verified folder,
// fsync, the folder verified again, rename within it, fsync of the folder.
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import type { AnchoredDir } from './anchored-dir.js';

const TEMP = /^\.bb-(\d+)-[0-9a-f]{8}\.boardbridge-tmp$/;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * A temporary name of at most 40 bytes whatever the target's (a 255-byte file name
 * must still be writable), carrying this process's id so a later start can tell its
 * own stale files from a live bridge's.
 */
export function tempName(): string {
  return `.bb-${process.pid}-${randomBytes(4).toString('hex')}.boardbridge-tmp`;
}

/** The process that created temporary file `name`, or undefined when boardbridge did not name it. */
export function tempOwner(name: string): number | undefined {
  const match = TEMP.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** Writes `content` to `name` in `dir` through temporary file `tmp` (see tempName). */
export async function replaceFile(dir: AnchoredDir, name: string, tmp: string, content: string, shown: string, mode = 0o666): Promise<void> {
  const handle = await fs.open(dir.entry(tmp), CREATE_FLAGS, mode);
  try {
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The folder must still be the checked one, inside the workspace, when the name moves.
    await dir.verify(shown);
    await fs.rename(dir.entry(tmp), dir.entry(name));
  } catch (error) {
    await fs.rm(dir.entry(tmp), { force: true });
    throw error;
  }
  await dir.handle.sync().catch(() => undefined);
}
