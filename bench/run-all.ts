// `npm run bench`: runs every benchmark in dist/bench one after another; each prints its figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Lines a bench prints as `RESULT <figure> <ratio> [(goal G)]` are gathered into the table that ends the run.
const here = path.dirname(fileURLToPath(import.meta.url));
const results: string[] = [];
for (const file of readdirSync(here).filter((f) => f.endsWith('.js') && f !== 'run-all.js').sort()) {
  process.stdout.write(`\n== ${file.replace(/\.js$/, '')}\n`);
  const run = spawnSync(process.execPath, [path.join(here, file)], { stdio: ['inherit', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  process.stdout.write(run.stdout ?? '');
  for (const line of (run.stdout ?? '').split('\n')) if (line.startsWith('RESULT ')) results.push(line.slice('RESULT '.length));
}
process.stdout.write(`\n| figure | ratio | goal |\n|---|---|---|\n`);
for (const result of results) {
  const match = /^(.*) (\d+(?:\.\d+)?)(?: \(goal ([^)]+)\))?$/.exec(result);
  process.stdout.write(match ? `| ${match[1]} | ${match[2]}× | ${match[3] ? (match[3].startsWith('≥') ? match[3] : `≤ ${match[3]}×`) : ''} |\n` : `| ${result} | | |\n`);
}
