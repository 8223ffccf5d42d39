// Fully Qualified Board Names: `VENDOR:ARCH:BOARD[:opt=val,opt2=val2]` (arduino-cli pkg/fqbn).
import { editDistance } from '../edit-distance.js';

export interface Fqbn {
  vendor: string;
  architecture: string;
  boardId: string;
  /** Options in the order written; a value may itself contain `=`. */
  options: Map<string, string>;
}

export type FqbnResult = { ok: true; fqbn: Fqbn } | { ok: false; error: string };

const ID = /^[A-Za-z0-9._-]+$/;
const OPTION = /^[A-Za-z0-9_-]+$/;
const VALUE = /^[A-Za-z0-9=_.-]*$/;

export function parseFqbn(text: string): FqbnResult {
  const parts = text.trim().split(':');
  if (parts.length < 3 || parts.length > 4) {
    return { ok: false, error: `"${text}" is not an FQBN: expected VENDOR:ARCH:BOARD[:option=value,...], e.g. arduino:avr:uno` };
  }
  const [vendor, architecture, boardId, config] = parts;
  for (const [label, value] of [['vendor', vendor], ['architecture', architecture], ['board id', boardId]] as const) {
    if (!ID.test(value)) return { ok: false, error: `FQBN "${text}": invalid ${label} "${value}" (letters, digits, . _ - only)` };
  }
  const options = new Map<string, string>();
  if (config !== undefined) {
    if (config === '') return { ok: false, error: `FQBN "${text}": empty option list after the last ":"` };
    for (const pair of config.split(',')) {
      const equals = pair.indexOf('=');
      if (equals <= 0) return { ok: false, error: `FQBN "${text}": option "${pair}" is not option=value` };
      const option = pair.slice(0, equals);
      const value = pair.slice(equals + 1);
      if (!OPTION.test(option)) return { ok: false, error: `FQBN "${text}": invalid option name "${option}"` };
      if (!VALUE.test(value)) return { ok: false, error: `FQBN "${text}": invalid value "${value}" for option "${option}"` };
      options.set(option, value);
    }
  }
  return { ok: true, fqbn: { vendor, architecture, boardId, options } };
}

export function formatFqbn(fqbn: Fqbn): string {
  const base = `${fqbn.vendor}:${fqbn.architecture}:${fqbn.boardId}`;
  if (fqbn.options.size === 0) return base;
  return `${base}:${[...fqbn.options].map(([option, value]) => `${option}=${value}`).join(',')}`;
}

export function nearestMatch(word: string, choices: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const choice of choices) {
    const distance = choice.toLowerCase().includes(word.toLowerCase()) ? 0.5 : editDistance(word.toLowerCase(), choice.toLowerCase());
    if (distance < bestDistance) {
      best = choice;
      bestDistance = distance;
    }
  }
  return best;
}

/** "unknown X "y"; did you mean "z"? Valid: a, b, c" with long lists cut short. */
export function describeChoices(what: string, given: string, choices: string[], limit = 40): string {
  const nearest = nearestMatch(given, choices);
  const shown = choices.length > limit ? `${choices.slice(0, limit).join(', ')}, … (${choices.length} in all)` : choices.join(', ');
  const hint = nearest ? ` Did you mean "${nearest}"?` : '';
  return `unknown ${what} "${given}".${hint} Valid: ${shown || '(none)'}`;
}
