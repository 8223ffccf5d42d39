// `openmv.config` on a camera's drive: an INI file ([BoardConfig] REPLUart, WiFiDebug, ...;
// [WiFiConfig]) that the firmware reads at boot. Parsed with the `ini` package; each entry keeps
// the line it came from so the context can cite it.
import ini from 'ini';
import type { Finding } from '../types.js';
import { readRegularFile } from '../../platform/regular-file.js';

export const OPENMV_CONFIG = 'openmv.config';

export interface ConfigEntry {
  section: string;
  key: string;
  value: string;
  line?: number;
}

export interface OpenMvConfig {
  path: string;
  entries: ConfigEntry[];
  warnings: Finding[];
}

export async function readOpenMvConfig(path: string): Promise<OpenMvConfig | undefined> {
  let text: string;
  try {
    text = await readRegularFile(path, 'utf8');
  } catch {
    return undefined;
  }
  return parseOpenMvConfig(path, text);
}

export function parseOpenMvConfig(path: string, text: string): OpenMvConfig {
  const lines = text.split(/\r?\n/);
  const entries: ConfigEntry[] = [];
  const warnings: Finding[] = [];
  const parsed = ini.parse(text) as Record<string, unknown>;
  let searchFrom = 0;
  for (const [section, body] of Object.entries(parsed)) {
    if (typeof body !== 'object' || body === null) {
      // A key before any [section]: the firmware only reads keys inside sections.
      warnings.push({ code: 'openmv-config', severity: 'warning', file: path, message: `${section} is outside any [section] and is ignored` });
      continue;
    }
    const header = lines.findIndex((line, i) => i >= searchFrom && line.trim() === `[${section}]`);
    if (header >= 0) searchFrom = header;
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      const index = lines.findIndex((line, i) => i > searchFrom && line.trim().startsWith(key));
      const line = index >= 0 ? index + 1 : undefined;
      if (value === true && index >= 0 && !lines[index].includes('=')) {
        warnings.push({ code: 'openmv-config', severity: 'warning', file: path, line, message: `"${key}" has no "=": not a setting` });
        continue;
      }
      entries.push({ section, key, value: String(value), line });
    }
  }
  return { path, entries, warnings };
}
