// The agents boardbridge knows by name, how each is launched, and where each keeps
// its credentials (so "installed but not logged in" is known without a turn). Any
// other ACP agent runs through --agent-command or the ACP Registry.

export interface AuthHint {
  /** Environment variable that holds a key, e.g. GEMINI_API_KEY. */
  env: string;
  /** The agent's auth method to call with `authenticate` when that variable is set. */
  methodId?: string;
}

/**
 * A file an agent writes when a person logs in. `dir` is a home-relative folder, or
 * an environment variable that replaces it when set (`$CODEX_HOME|.codex`).
 */
export interface CredentialFile {
  dir: string;
  file: string;
  /** What in the file means "logged in": any content, a non-empty JSON object, a non-empty (dotted) JSON key, or a line. */
  means: 'exists' | 'json-object' | { key: string } | { line: RegExp };
  /** What a found file means for the person, when it is not simply "logged in". */
  note?: string;
  /** A login that no longer works (Gemini's Google-account login since 2026-06-18). */
  expired?: boolean;
}

export interface AgentProfile {
  id: string;
  title: string;
  /** Executable names to look for, in order. */
  executables: string[];
  args: string[];
  /** npm package that provides it (for `npx`, the install hint and its version). */
  npmPackage?: string;
  env?: Record<string, string>;
  authEnv: AuthHint[];
  credentialFiles: CredentialFile[];
  /** What a person runs to log in instead of using a key. */
  loginCommand?: string;
  /** The agent is a Node script that needs at least this Node major version. */
  minNode?: number;
  /** One line on what it costs, for the list shown when no agent is ready. */
  offer: string;
}

/**
 * A profile's login line, which may carry advice after the command (`qwen   (choose … provider)`).
 * One that only sets a key (`export GEMINI_API_KEY=...`) is no login: its advice goes with the key.
 */
export function profileLogin(profile: AgentProfile): { login?: string; loginNote?: string; keyNote?: string } {
  if (!profile.loginCommand) return {};
  const [command, advice] = profile.loginCommand.split(/\s{2,}/, 2);
  const note = advice?.replace(/^\((.*)\)$/, '$1').trim();
  if (/^export \w+=/.test(command)) return note ? { keyNote: note } : {};
  return { login: command.trim(), ...(note ? { loginNote: note } : {}) };
}

/**
 * In the order `chat` and `npm start` try them when no agent is named: the first one
 * installed and logged in wins. A free plan first, then subscriptions, then key-only agents.
 */
export const KNOWN_AGENTS: readonly AgentProfile[] = [
  {
    id: 'copilot',
    title: 'GitHub Copilot CLI',
    executables: ['copilot'],
    args: ['--acp'],
    npmPackage: '@github/copilot',
    // Its loader updates itself from the network unless told not to.
    env: { COPILOT_AUTO_UPDATE: 'false' },
    authEnv: [{ env: 'COPILOT_GITHUB_TOKEN' }, { env: 'GH_TOKEN' }, { env: 'GITHUB_TOKEN' }],
    // `copilot login` records the account in config.json (the token goes to the keychain, or there).
    credentialFiles: [{ dir: '$COPILOT_HOME|.copilot', file: 'config.json', means: { key: 'loggedInUsers' } }],
    loginCommand: 'copilot login',
    offer: 'free with the Copilot Free plan (a GitHub account)',
  },
  {
    id: 'claude',
    title: 'Claude (ACP adapter)',
    executables: ['claude-agent-acp', 'claude-code-acp'],
    args: [],
    npmPackage: '@agentclientprotocol/claude-agent-acp',
    authEnv: [{ env: 'ANTHROPIC_API_KEY' }, { env: 'CLAUDE_CODE_OAUTH_TOKEN' }],
    // Claude Code (cli.js of @anthropic-ai/claude-agent-sdk 0.2.44, which the adapter runs) reads its
    // login from `.credentials.json` in its config folder and uses it only when `claudeAiOauth.accessToken` is set.
    credentialFiles: [{ dir: '$CLAUDE_CONFIG_DIR|.claude', file: '.credentials.json', means: { key: 'claudeAiOauth.accessToken' } }],
    // The package's own `--cli` runs the Claude Code CLI it ships (src/index.ts; no separate `claude` install).
    loginCommand: 'claude-agent-acp --cli /login',
    offer: 'a Claude subscription or an Anthropic API key',
  },
  {
    id: 'codex',
    title: 'Codex (ACP adapter)',
    executables: ['codex-acp'],
    args: [],
    npmPackage: '@zed-industries/codex-acp',
    authEnv: [{ env: 'OPENAI_API_KEY', methodId: 'openai-api-key' }, { env: 'CODEX_API_KEY', methodId: 'codex-api-key' }],
    credentialFiles: [{ dir: '$CODEX_HOME|.codex', file: 'auth.json', means: 'json-object' }],
    // codex-acp has no login command: it offers "Login with ChatGPT" to ACP clients only. The Codex CLI's
    // login writes $CODEX_HOME/auth.json, the file codex-acp reads.
    loginCommand: 'npx @openai/codex login   (the Codex CLI; codex-acp reads the ~/.codex/auth.json it writes)',
    offer: 'a ChatGPT plan or an OpenAI API key',
  },
  {
    id: 'opencode',
    title: 'OpenCode',
    executables: ['opencode'],
    args: ['acp'],
    npmPackage: 'opencode-ai',
    authEnv: [{ env: 'ANTHROPIC_API_KEY' }, { env: 'OPENAI_API_KEY' }, { env: 'OPENROUTER_API_KEY' }, { env: 'GEMINI_API_KEY' }],
    credentialFiles: [
      { dir: '$XDG_DATA_HOME|.local/share', file: 'opencode/auth.json', means: 'json-object' },
      // A provider of one's own (Ollama, LM Studio, any OpenAI-compatible server) needs no login.
      { dir: '$XDG_CONFIG_HOME|.config', file: 'opencode/opencode.json', means: { key: 'provider' }, note: 'providers configured' },
      { dir: '$XDG_CONFIG_HOME|.config', file: 'opencode/opencode.jsonc', means: { key: 'provider' }, note: 'providers configured' },
    ],
    loginCommand: 'opencode auth login',
    offer: 'any provider, a local model (Ollama, LM Studio), or its free OpenCode Zen models without an account',
  },
  {
    id: 'qwen',
    title: 'Qwen Code',
    executables: ['qwen'],
    args: ['--acp'],
    npmPackage: '@qwen-code/qwen-code',
    authEnv: [{ env: 'OPENAI_API_KEY', methodId: 'openai' }],
    credentialFiles: [{ dir: '$QWEN_HOME|.qwen', file: 'settings.json', means: { key: 'security.auth.apiKey' } }],
    loginCommand: 'qwen   (choose an OpenAI-compatible provider, or set OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL)',
    minNode: 22,
    offer: 'any OpenAI-compatible endpoint, local ones included',
  },
  {
    id: 'gemini',
    title: 'Gemini CLI',
    executables: ['gemini'],
    // Without --skip-trust gemini silently never starts MCP servers in an untrusted folder.
    args: ['--acp', '--skip-trust'],
    npmPackage: '@google/gemini-cli',
    env: { GEMINI_CLI_NO_RELAUNCH: 'true' },
    authEnv: [{ env: 'GEMINI_API_KEY', methodId: 'gemini-api-key' }],
    credentialFiles: [
      { dir: '$GEMINI_CLI_HOME|.', file: '.gemini/.env', means: { line: /^\s*(export\s+)?GEMINI_API_KEY\s*=\s*\S/m } },
      // Google-account logins stopped working on 2026-06-18; only paid API keys remain.
      { dir: '$GEMINI_CLI_HOME|.', file: '.gemini/oauth_creds.json', means: 'exists', expired: true, note: 'a Google-account login, which Gemini CLI no longer serves (since 2026-06-18); set GEMINI_API_KEY (paid)' },
    ],
    loginCommand: 'export GEMINI_API_KEY=...   (a paid Gemini API key; Google-account logins ended on 2026-06-18)',
    offer: 'a paid Gemini API key only',
  },
];

export function findProfile(id: string): AgentProfile | undefined {
  return KNOWN_AGENTS.find((p) => p.id === id);
}
