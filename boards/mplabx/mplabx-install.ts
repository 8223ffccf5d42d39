// Where MPLAB X is installed: $MPLABX_HOME first, then the installers'
// default folders, newest version first.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from '../../platform/path-join.js';
import { naturalCompare } from '../../context-providers/mplabx/natural-order.js';

export async function mplabxHomes(env: Record<string, string | undefined>): Promise<string[]> {
  const homes = [env.MPLABX_HOME ?? process.env.MPLABX_HOME].filter((h): h is string => Boolean(h));
  for (const install of ['/opt/microchip/mplabx', '/Applications/microchip/mplabx']) {
    const versions = await readdir(install).catch(() => [] as string[]);
    homes.push(...versions.sort((a, b) => naturalCompare(b.replace(/^v/, ''), a.replace(/^v/, ''))).map((v) => join(install, v)));
  }
  return homes;
}

/** The first `<home>/<relative>/<name>` that exists, over every install and name. */
export async function findInMplabx(env: Record<string, string | undefined>, relative: string, names: string[]): Promise<string | undefined> {
  for (const home of await mplabxHomes(env)) {
    for (const name of names) {
      const candidate = join(home, relative, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}
