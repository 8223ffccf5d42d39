// The npm package (name and version) an agent's executable comes from, read from
// the nearest package.json above it: no agent is started for it (Copilot's first
// start unpacks 235 MB).
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

export function packageOf(executable: string): { name: string; version: string } | undefined {
  let dir: string;
  try {
    dir = path.dirname(realpathSync(executable));
  } catch {
    return undefined;
  }
  for (; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    let data: { name?: unknown; version?: unknown };
    try {
      data = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as typeof data;
    } catch {
      continue; // none here (or unreadable): keep walking up
    }
    if (typeof data.name === 'string' && typeof data.version === 'string') return { name: data.name, version: data.version };
  }
  return undefined;
}
