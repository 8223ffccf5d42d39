// The agents a panel offers when none is ready: every agent boardbridge has a
// profile for, installed or not, each with one command that installs it and one
// that logs in. Built from the profiles alone; this is the one place to point at
// richer readiness checks (logged in or not) once the agents' own files are read.
import { findExecutable } from '../../boards/executables.js';
import { KNOWN_AGENTS, type AgentProfile } from '../agents/profiles.js';
import { locate } from '../agents/resolve.js';
import type { AgentChoice } from './protocol.js';

export function agentChoices(env: NodeJS.ProcessEnv = process.env): AgentChoice[] {
  return KNOWN_AGENTS.map((profile) => {
    const found = locate(profile, env);
    const keys = profile.authEnv.map((h) => h.env);
    const login = loginOf(profile);
    const program = login.login?.split(/\s+/)[0];
    let loginNeeds: string | undefined;
    if (program && !findExecutable(program, env.PATH)) {
      // The agent logs in with its own executable (`gemini`): the one found, also outside PATH.
      if (found && profile.executables.includes(program)) login.login = `${shellQuoted(found.command)}${login.login!.slice(program.length)}`;
      // An adapter's login may need the agent's own CLI (`claude /login`), which the adapter does not bring.
      else loginNeeds = program;
    }
    return {
      id: profile.id,
      title: profile.title,
      installed: Boolean(found),
      ...(found ? { command: found.command } : {}),
      ...(profile.npmPackage ? { install: `npm install -g ${profile.npmPackage}` } : {}),
      ...login,
      ...(loginNeeds ? { loginNeeds } : {}),
      keyEnv: keys,
      keySet: keys.filter((k) => env[k]),
    };
  });
}

// A profile's login line may carry advice after the command: `gemini   (choose … once)`.
function loginOf(profile: AgentProfile): { login?: string; loginNote?: string } {
  if (!profile.loginCommand) return {};
  const [command, note] = profile.loginCommand.split(/\s{2,}/, 2);
  return { login: command.trim(), ...(note ? { loginNote: note.replace(/^\((.*)\)$/, '$1').trim() } : {}) };
}

const shellQuoted = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
