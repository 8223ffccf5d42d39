// Writes a file so that a reader (or a crash) sees either the old or the new
// content, never half of it: temporary file in the same folder, fsync, rename.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  let mode: number | undefined;
  try {
    mode = (await fs.stat(file)).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.boardbridge-tmp`);
  const handle = await fs.open(tmp, 'wx', mode ?? 0o666);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
}
