// Arduino functions an older ESP32 core does not have (1.0.x declares no analogWrite, tone or
// noTone; 2.0 added them). Calling one is a compile error unless the sketch or a library it
// includes provides it, which many ESP32 "analogWrite"/"Tone32" libraries do: an ERROR only when
// every included header is found and none of them declares the function, else a WARNING. Both
// are read as code (cpp-scopes.ts): a comment or a class member named analogWrite declares nothing.
import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { basename } from 'node:path';
import { join } from '../../../platform/path-join.js';
import type { Finding } from '../../types.js';
import { tokenize } from '../c-tokens.js';
import { readScopes } from '../cpp-scopes.js';
import type { CoreSketchView, SketchCall } from './core-facts.js';
import type { Esp32Facts } from './esp32-facts.js';

const REPLACEMENTS = new Map([
  ['analogWrite', 'ledcSetup(channel, freq, bits), ledcAttachPin(pin, channel) and ledcWrite(channel, duty)'],
  ['tone', 'ledcSetup and ledcAttachPin, then ledcWriteTone(channel, freq)'],
  ['noTone', 'ledcWriteTone(channel, 0)'],
]);

// Standard C/C++ headers declare none of these.
const STANDARD = /^(std\w*|string|math|time|ctype|limits|assert|errno|float|inttypes|stdbool|stddef|stdarg|c\w+|algorithm|vector|map|functional|utility|memory|array)(\.h)?$/;
const MAX_FILES = 5000;

function headersUnder(dir: string, found: string[] = []): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (found.length >= MAX_FILES) break;
    const path = join(dir, entry.name);
    if (entry.isFile() && /\.(h|hpp)$/.test(entry.name)) found.push(path);
    else if (entry.isDirectory() && !entry.name.startsWith('.')) headersUnder(path, found);
  }
  return found;
}

// A header declares the function when its code (every #if branch, directives left out: a branch
// the board skips may be the one that declares it) has it at global scope or in a used namespace.
function declares(text: string, name: string): boolean {
  if (!text.includes(name)) return false;
  const tokens = tokenize(text);
  const code = tokens.filter((token, index) => {
    let start = index;
    while (start > 0 && !tokens[start].bol) start--;
    return !(tokens[start].bol && tokens[start].text === '#');
  });
  return readScopes(code).declares(name, code.length);
}

/** For each call of a function the core lacks: where the sketch or its libraries may supply it. */
export function missingApiFindings(facts: Esp32Facts, view: CoreSketchView): Finding[] {
  if (facts.core.files.length === 0) return [];
  const calls = view.calls.filter((call) => call.receiver === undefined && REPLACEMENTS.has(call.name) && !facts.core.functions.has(call.name));
  if (calls.length === 0) return [];
  const platformLibraries = join(view.board.platformPath, 'libraries');
  const platformHeaders = headersUnder(platformLibraries);
  const readText = (file: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const call of calls) {
    if (reported.has(call.name)) continue;
    reported.add(call.name);
    if (view.declares(call.name, call.at)) continue;
    const verdict = libraryVerdict(call, view, platformLibraries, platformHeaders, readText);
    if (verdict === 'declares') continue;
    findings.push(finding(facts, call, view.boardName, verdict));
  }
  return findings;
}

// The library each included header comes from (one the build uses, else one of the platform's):
// any of its headers may declare the function.
function libraryVerdict(call: SketchCall, view: CoreSketchView, platformLibraries: string, platformHeaders: string[], readText: (file: string) => string): 'declares' | 'absent' | 'unknown' {
  let unknown = false;
  const used = view.libraryDirs.map((dir) => ({ dir, headers: headersUnder(dir) }));
  for (const header of view.includes) {
    const inCore = [view.board.corePath, view.board.variantPath].some((dir) => dir !== undefined && existsSync(join(dir, header)));
    if (inCore || STANDARD.test(header)) continue;
    const suffix = `/${header}`;
    const library = used.find((entry) => entry.headers.some((file) => file.endsWith(suffix)));
    if (library) {
      if (library.headers.some((file) => declares(readText(file), call.name))) return 'declares';
      continue;
    }
    const match = platformHeaders.find((file) => file.endsWith(suffix) || basename(file) === header);
    if (!match) {
      unknown = true;
      continue;
    }
    const root = join(platformLibraries, match.slice(platformLibraries.length + 1).split('/')[0]);
    if (platformHeaders.some((file) => file.startsWith(`${root}/`) && declares(readText(file), call.name))) return 'declares';
  }
  return unknown ? 'unknown' : 'absent';
}

function finding(facts: Esp32Facts, call: SketchCall, boardName: string, verdict: 'absent' | 'unknown'): Finding {
  const where = facts.core.functions.get('ledcSetup');
  const at = { file: call.token.file, line: call.token.line };
  const base = `${call.name} does not exist in ${boardName}'s core: its headers declare no ${call.name}${where ? ` (its PWM API is ledcSetup, ${where.file}:${where.line})` : ''}`;
  return verdict === 'absent'
    ? { severity: 'error', code: 'esp32-missing-api', ...at, message: base, suggestion: `Use ${REPLACEMENTS.get(call.name)}.` }
    : { severity: 'warning', code: 'esp32-missing-api', ...at, message: `${base}, unless a library the sketch includes provides it`, suggestion: `Check that library, or use ${REPLACEMENTS.get(call.name)}.` };
}
