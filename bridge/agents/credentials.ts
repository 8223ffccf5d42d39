// Whether an agent has credentials, read from its environment variables and the
// files its own login writes: known before the agent is started, never by a turn.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loginHint } from './login-hint.js';
import type { AgentProfile, CredentialFile } from './profiles.js';

export interface CredentialStatus {
  authenticated: boolean;
  /** Where the credentials were found ("GH_TOKEN set", "~/.copilot/config.json"), or why none count. */
  detail: string;
}

export function checkCredentials(profile: AgentProfile, env: NodeJS.ProcessEnv = process.env): CredentialStatus {
  const keys = profile.authEnv.filter((h) => env[h.env]).map((h) => h.env);
  if (keys.length) return { authenticated: true, detail: `${keys.join(', ')} set` };
  const expired: string[] = [];
  for (const spec of profile.credentialFiles) {
    const file = credentialPath(spec, env);
    if (!fileMeans(file, spec)) continue;
    const shown = tildePath(file, env);
    if (spec.expired) {
      expired.push(`${shown}: ${spec.note ?? 'an old login that no longer works'}`);
      continue;
    }
    return { authenticated: true, detail: spec.note ? `${shown} (${spec.note})` : shown };
  }
  const vars = profile.authEnv.map((h) => h.env).join(' or ');
  const { login } = loginHint(profile, env);
  const none = `no ${vars}${login ? `; log in: ${login}` : ''}`;
  return { authenticated: false, detail: expired.length ? `${expired.join('; ')}; ${none}` : none };
}

export function credentialPath(spec: CredentialFile, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || os.homedir();
  const [variable, fallback] = spec.dir.startsWith('$') ? spec.dir.slice(1).split('|') : [undefined, spec.dir];
  const base = (variable && env[variable]) || path.join(home, fallback ?? '.');
  return path.join(base, spec.file);
}

function fileMeans(file: string, spec: CredentialFile): boolean {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  if (spec.means === 'exists') return true;
  if (typeof spec.means === 'object' && 'line' in spec.means) return spec.means.line.test(text);
  const data = parseJsonc(text);
  if (spec.means === 'json-object') return isObject(data) && Object.keys(data).length > 0;
  let value: unknown = data;
  for (const part of spec.means.key.split('.')) value = isObject(value) ? value[part] : undefined;
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return value !== undefined && value !== null && value !== '';
}

// Copilot's config.json starts with `//` comment lines; OpenCode allows .jsonc.
function parseJsonc(text: string): unknown {
  const stripped = text.replace(/^\s*\/\/.*$/gm, '');
  try {
    return JSON.parse(stripped) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tildePath(file: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || os.homedir();
  return file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}
