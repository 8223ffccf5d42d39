// `npm run bench`: runs every benchmark in dist/bench one after another; each prints its figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const file of readdirSync(here).filter((f) => f.endsWith('.js') && f !== 'run-all.js').sort()) {
  process.stdout.write(`\n== ${file.replace(/\.js$/, '')}\n`);
  spawnSync(process.execPath, [path.join(here, file)], { stdio: 'inherit' });
}
