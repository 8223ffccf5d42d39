// The agents a panel offers when none is ready: every agent boardbridge has a
// profile for, installed or not, logged in or not (agents/status.ts reads their
// credential files), each with one command that installs it and one that logs in.
import { findExecutable } from '../../boards/executables.js';
import { loginHint } from '../agents/login-hint.js';
import { KNOWN_AGENTS } from '../agents/profiles.js';
import { locate } from '../agents/resolve.js';
import { agentStatus } from '../agents/status.js';
import type { AgentChoice } from './protocol.js';

export function agentChoices(env: NodeJS.ProcessEnv = process.env): AgentChoice[] {
  return KNOWN_AGENTS.map((profile) => {
    const found = locate(profile, env);
    const status = agentStatus(profile, env);
    const keys = profile.authEnv.map((h) => h.env);
    const login = loginHint(profile, env);
    const program = login.login?.split(/\s+/)[0];
    // A login that needs a program which is not there (the adapter not installed yet, or npx missing).
    const loginNeeds = program && program !== 'node' && !program.includes('/') && !findExecutable(program, env.PATH) ? program : undefined;
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

