// `serve` remembers the agent picked on its panel as `defaultAgent` in the config
// file, so the next `serve` (or `chat`) starts it without being told. The rest of
// the file is kept as it was; a file that cannot be read as an object is left alone.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { configPath } from '../agents/resolve.js';
import { errorMessage } from '../errors.js';

/** Saves the choice; returns one line for the terminal saying where, or why not. */
export function rememberAgent(agent: string, file: string = configPath()): string {
  try {
    const config: unknown = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    if (typeof config !== 'object' || config === null || Array.isArray(config)) return `(not remembering ${agent}: ${file} does not hold a JSON object)`;
    mkdirSync(path.dirname(file), { recursive: true });
    const next = `${file}.${process.pid}.tmp`;
    writeFileSync(next, `${JSON.stringify({ ...config, defaultAgent: agent }, null, 2)}\n`);
    renameSync(next, file);
    return `Remembered ${agent} as defaultAgent in ${file}: the next boardbridge serve starts it.`;
  } catch (error) {
    return `(not remembering ${agent} in ${file}: ${errorMessage(error)})`;
  }
}
