// The agents a panel offers when none is ready: every agent boardbridge has a
// profile for, installed or not, logged in or not (agents/status.ts reads their
// credential files), each with one command that installs it and one that logs in.
import { findExecutable } from '../../boards/executables.js';
import { KNOWN_AGENTS, profileLogin } from '../agents/profiles.js';
import { locate } from '../agents/resolve.js';
import { agentStatus } from '../agents/status.js';
import type { AgentChoice } from './protocol.js';

export function agentChoices(env: NodeJS.ProcessEnv = process.env): AgentChoice[] {
  return KNOWN_AGENTS.map((profile) => {
    const found = locate(profile, env);
    const status = agentStatus(profile, env);
    const keys = profile.authEnv.map((h) => h.env);
    const login = profileLogin(profile);
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
      ready: status.ready,
      credentials: status.credentials,
      offer: status.offer,
      ...(status.nodeProblem ? { problem: status.nodeProblem } : {}),
      ...(found ? { command: found.command } : {}),
      ...(profile.npmPackage ? { install: `npm install -g ${profile.npmPackage}` } : {}),
      ...login,
      ...(loginNeeds ? { loginNeeds } : {}),
      keyEnv: keys,
      keySet: keys.filter((k) => env[k]),
    };
  });
}

const shellQuoted = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
