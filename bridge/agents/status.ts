// What is known about each named agent without starting it: installed where, which
// version, logged in or not, and what a person runs to fix what is missing.
import { checkCredentials } from './credentials.js';
import { findNode, nodeInstallHint } from './node-runtime.js';
import { packageOf } from './package-version.js';
import { KNOWN_AGENTS, type AgentProfile } from './profiles.js';
import { locate } from './locate.js';
import { loginHint } from './login-hint.js';

export interface AgentStatus {
  id: string;
  title: string;
  installed: boolean;
  command?: string;
  via?: string;
  version?: string;
  authenticated: boolean;
  /** Where the credentials were found, or what is missing. */
  credentials: string;
  /** Installed, logged in, and runnable (its Node is new enough). */
  ready: boolean;
  install?: string;
  login?: string;
  /** The environment variables that hold a key for it. */
  keyEnv: string[];
  /** What to know about the key (Gemini: a paid one). */
  keyNote?: string;
  /** Set when the agent needs a newer Node than any found. */
  nodeProblem?: string;
  offer: string;
}

export function agentStatus(profile: AgentProfile, env: NodeJS.ProcessEnv = process.env): AgentStatus {
  const found = locate(profile, env);
  const credentials = checkCredentials(profile, env);
  const hint = loginHint(profile, env);
  const nodeProblem =
    profile.minNode && !findNode(profile.minNode, env) ? `needs Node.js ${profile.minNode} or newer (this is ${process.version}); ${nodeInstallHint(profile.minNode, env)}` : undefined;
  return {
    id: profile.id,
    title: profile.title,
    installed: Boolean(found),
    command: found?.command,
    via: found?.via,
    version: found ? packageOf(found.command)?.version : undefined,
    authenticated: credentials.authenticated,
    credentials: credentials.detail,
    ready: Boolean(found) && credentials.authenticated && !nodeProblem,
    install: found ? undefined : profile.npmPackage ? `npm install -g ${profile.npmPackage}` : undefined,
    login: credentials.authenticated ? undefined : hint.login,
    keyEnv: profile.authEnv.map((h) => h.env),
    ...(hint.keyNote ? { keyNote: hint.keyNote } : {}),
    nodeProblem,
    offer: profile.offer,
  };
}

export function agentStatuses(env: NodeJS.ProcessEnv = process.env): AgentStatus[] {
  return KNOWN_AGENTS.map((profile) => agentStatus(profile, env));
}
