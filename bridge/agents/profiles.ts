// The agents boardbridge knows by name, how each is launched, and how each is
// given credentials. Any other ACP agent runs through --agent-command.

export interface AuthHint {
  /** Environment variable that holds a key, e.g. GEMINI_API_KEY. */
  env: string;
  /** The agent's auth method to call with `authenticate` when that variable is set. */
  methodId?: string;
}

export interface AgentProfile {
  id: string;
  title: string;
  /** Executable names to look for, in order. */
  executables: string[];
  args: string[];
  /** npm package that provides it (for `npx` and for the doctor's install hint). */
  npmPackage?: string;
  env?: Record<string, string>;
  authEnv: AuthHint[];
  /** What a person runs to log in instead of using a key. */
  loginCommand?: string;
}

export const KNOWN_AGENTS: readonly AgentProfile[] = [
  {
    id: 'gemini',
    title: 'Gemini CLI',
    executables: ['gemini'],
    // Without --skip-trust gemini silently never starts MCP servers in an untrusted folder.
    args: ['--acp', '--skip-trust'],
    npmPackage: '@google/gemini-cli',
    env: { GEMINI_CLI_NO_RELAUNCH: 'true' },
    authEnv: [
      { env: 'GEMINI_API_KEY', methodId: 'gemini-api-key' },
    ],
    loginCommand: 'gemini   (choose "Login with Google" once, then quit)',
  },
  {
    id: 'claude',
    title: 'Claude (ACP adapter)',
    executables: ['claude-agent-acp', 'claude-code-acp'],
    args: [],
    npmPackage: '@agentclientprotocol/claude-agent-acp',
    authEnv: [{ env: 'ANTHROPIC_API_KEY' }],
    loginCommand: 'claude /login',
  },
  {
    id: 'codex',
    title: 'Codex (ACP adapter)',
    executables: ['codex-acp'],
    args: [],
    npmPackage: '@zed-industries/codex-acp',
    authEnv: [{ env: 'OPENAI_API_KEY', methodId: 'openai-api-key' }],
    loginCommand: 'codex login',
  },
];

export const DEFAULT_AGENT = 'gemini';

export function findProfile(id: string): AgentProfile | undefined {
  return KNOWN_AGENTS.find((p) => p.id === id);
}
