// Errors a person can act on: each says what failed and what to do next.
import { shellWord } from './shell-words.js';

export class BridgeError extends Error {
  constructor(
    readonly code: 'agent_not_found' | 'agent_start' | 'agent_exited' | 'auth_required' | 'workspace_not_found' | 'protocol' | 'busy',
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

/** A login the person runs in a terminal (ACP terminal auth): the agent's own command. */
export interface TerminalLogin {
  methodId: string;
  name: string;
  command: string;
  args: string[];
  /** What the method itself sets (shown to faces). */
  env: Record<string, string>;
  /** The launch's environment under it (may hold configured secrets: never shown). */
  launchEnv: Record<string, string>;
}

/** The login as a shell line a person can copy. */
export function commandLine(login: { command: string; args: readonly string[] }): string {
  return [login.command, ...login.args].map(shellWord).join(' ');
}

/** The agent wants a login that only the person can do; `logins` are the terminal ones it offers. */
export class AuthRequiredError extends BridgeError {
  constructor(
    message: string,
    hint: string,
    readonly logins: TerminalLogin[],
    readonly agent: { name?: string; version?: string },
  ) {
    super('auth_required', message, hint);
  }
}

/** JSON-RPC errors arrive as plain objects or RequestError instances; read both. */
export function rpcErrorCode(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'code' in error && typeof (error as { code: unknown }).code === 'number') {
    return (error as { code: number }).code;
  }
  return undefined;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}
