// How to run each real ACP agent offline against the scripted model server (model-server/).
//
// BEHAVIOUR NOTES, seen on this machine with the probe client (test/support/acp-probe.ts), which
// declares fs.readTextFile, fs.writeTextFile and terminal. Each line is pinned by a test in
// test/harness/ (claude-code-acp.test.ts, gemini.test.ts, mcp-passthrough.test.ts); full streams
// are in test/fixtures/recorded/*.jsonl.
//
// claude-code-acp 0.16.2 (Claude Code via @anthropic-ai/claude-agent-sdk 0.2.44)
// - initialize: agentCapabilities {loadSession, promptCapabilities {image, embeddedContext},
//   mcpCapabilities {http, sse}, sessionCapabilities {fork, list, resume}}; authMethods
//   [{id "claude-login"}] (never needed with ANTHROPIC_API_KEY). session/new answers with models
//   (default/opus/opus[1m]/haiku) and modes default | acceptEdits | plan | dontAsk, then sends
//   available_commands_update.
// - Model traffic: one POST /v1/messages/count_tokens?beta=true at start, then one
//   POST /v1/messages?beta=true (stream) per step. With the env below no title/suggestion requests
//   were seen; requests without tools would be answered as background anyway.
// - With client fs/terminal capabilities it hides Read/Write/Edit/Bash and offers the model
//   mcp__acp__Read/Write/Edit/Bash/BashOutput/KillShell instead (scripts may say "Write").
// - Every tool call: `tool_call` twice with one id (first rawInput {} and a generic title, then the
//   full input, title, kind, content/locations), then `tool_call_update` without status (only
//   _meta.claudeCode.toolResponse), then `tool_call_update` status completed|failed with rawOutput.
//   Ids are the model's tool_use ids. Empty agent_message_chunk "" precede each text block.
// - Permission: session/request_permission AFTER the second tool_call, toolCall {toolCallId,
//   rawInput, title}, options allow_always/"allow_always", allow_once/"allow",
//   reject_once/"reject". Asked for Write, Edit, Bash and MCP tools; not for mcp__acp__Read.
// - Read: fs/read_text_file {path, line: 1, limit: 2000}, no permission.
//   Write: permission → fs/write_text_file (no read first; diff oldText null).
//   Edit: permission → fs/read_text_file {path} (no line/limit) → fs/write_text_file.
//   Bash: permission → terminal/create {command: whole shell line, env [{CLAUDECODE=1}],
//   outputByteLimit 32000} with NO args and NO cwd (use the session cwd) → tool_call_update
//   in_progress with content [{type: terminal, terminalId}] → terminal/wait_for_exit →
//   terminal/output → terminal/release. Tool result text: "Exited with code 0.Final output:\n\n…".
// - Rejecting (reject_once): tool_call_update failed, content "User refused permission to run
//   tool", and the turn ends at once with end_turn (the model is not asked again).
// - Stop reasons: end_turn, cancelled, max_turn_requests only. A max_tokens stop from the model is
//   answered by Claude Code itself with a user message "Your response was cut off because it
//   exceeded the output token limit…" (up to 3 times); the 4th cut fails session/prompt with
//   -32603 "…exceeded the 32000 output token maximum… CLAUDE_CODE_MAX_OUTPUT_TOKENS". A refusal
//   (stop_reason "refusal") fails session/prompt with -32603 "…Usage Policy…". Never max_tokens.
// - session/cancel while the model streams: prompt answers {stopReason: cancelled} and the HTTP
//   request is aborted. While a permission is pending: answer it {outcome: cancelled} and the
//   prompt answers cancelled; nothing is written. The next prompt works; the cancelled prompt stays
//   in history, merged into the next user message after "[Request interrupted by user]".
// - MCP servers from session/new (stdio and http both work): tools mcp__<server>__<tool>, server
//   names with '-' kept as is; each call asks permission like any tool.
// - Does not exit when stdin closes: kill its process group.
//
// gemini-cli 0.61 (`gemini --acp --skip-trust`)
// - initialize: agentCapabilities {loadSession, promptCapabilities {image, audio, embeddedContext},
//   mcpCapabilities {http, sse}}; authMethods oauth-personal | gemini-api-key | vertex-ai | gateway
//   (no authenticate call needed with GEMINI_API_KEY + settings selectedType). session/new answers
//   modes default | autoEdit | yolo | plan and models (auto, gemini-3.1-pro-preview-customtools,
//   …), then available_commands_update. Every prompt result carries _meta.quota token counts.
// - Model traffic per prompt: POST /v1beta/models/<flash-lite>:generateContent (the router, JSON
//   schema {complexity_reasoning, complexity_score}) then POST /v1beta/models/<pro>:
//   streamGenerateContent?alt=sse per step. The first user content starts with a
//   "<session_context> This is the Gemini CLI…" part before the prompt part.
// - Tools offered: update_topic, list_directory, read_file, grep_search, glob, replace,
//   write_file, web_fetch, run_shell_command, …, mcp_<server>_<tool>.
// - Ungated tools (read_file, and run_shell_command for a read-only line like `ls`): `tool_call`
//   status in_progress, then `tool_call_update` completed. read_file reads the disk itself (no
//   fs/read_text_file); run_shell_command runs the command itself (never terminal/*).
// - Gated tools (replace, write_file, run_shell_command for other lines, MCP tools): NO tool_call
//   notification; the tool first appears in session/request_permission.toolCall {toolCallId,
//   status pending, title, content [diff {path, oldText, newText, _meta.kind add|modify}],
//   locations, kind}; afterwards only `tool_call_update` (completed|failed, full fields).
//   Ids look like "replace__replace_<epoch ms>_<n>".
// - Permission options for edits/shell: allow_always/"proceed_always", allow_once/"proceed_once",
//   reject_once/"cancel"; for MCP tools: allow_always/"proceed_always_server",
//   allow_always/"proceed_always_tool", allow_once/"proceed_once", reject_once/"cancel".
// - replace: fs/read_text_file → permission → fs/read_text_file → fs/write_text_file.
//   write_file: same order; the first read is of the (maybe missing) target file.
// - Missing file on fs/read_text_file: answer {content: ""} — then write_file asks permission
//   (diff oldText "") and creates the file. Answered with error -32002 OR -32603, write_file fails
//   at once without asking ("Error checking existing file: Resource not found…"), tool_call
//   in_progress → tool_call_update failed: gemini's ACP fs adapter only maps Error instances to
//   ENOENT and the SDK's JSON-RPC error is not one (its text becomes "[object Object]" in some
//   paths). replace with old_string "" (gemini's way to create a file) fails under every answer:
//   "" → "File already exists, cannot create", an error → "[object Object]". So a bridge should
//   answer "" for missing files: write_file then works, and the model can fall back to it.
// - Rejecting (reject_once): no tool_call_update at all for that tool call; the model is told and
//   the turn goes on. A client must settle the tool call from the permission answer itself.
// - Stop reasons: end_turn (also for finishReason MAX_TOKENS and SAFETY: no refusal), cancelled,
//   max_tokens only when the prompt would overflow the context window (estimated ~4 chars/token
//   against 1,048,576 tokens; a 4.4 MB prompt does it, without calling the model).
// - session/cancel while the model streams: cancelled, request aborted; the cancelled prompt is
//   dropped from history (scripts: use whenUserSays after a cancel). While a permission is
//   pending: answer it cancelled → prompt answers cancelled, nothing written.
// - MCP servers from session/new: stdio and http both work, tools mcp_<server>_<tool> (server
//   name kept, '-' included). Without --skip-trust no MCP server is started and nothing says so.
// - Exits when stdin closes; still kill its process group.
//
// codex-acp 0.16.0 (a dev dependency: see codexLaunch; test/harness/codex-acp.test.ts, test/e2e/codex-agent.test.ts)
// - initialize: mcpCapabilities {http, sse: false}, sessionCapabilities {list, resume, close},
//   authMethods chatgpt | codex-api-key | openai-api-key (env_var type). session/new: modes
//   read-only (current) | auto | full-access. Its own JSON-RPC request ids are UUID strings.
// - One POST /v1/responses per step; tools exec_command {cmd}, write_stdin, update_plan, …,
//   apply_patch (a "custom" freeform tool: the patch text is the input) — apply_patch only for a
//   model codex knows (gpt-5.2-codex); unknown names get a "Model metadata … not found" text chunk.
// - Never uses fs/* or terminal/*: it reads, patches and runs commands itself, inside bubblewrap
//   (Debian `bubblewrap`; without bwrap every read/patch/command fails with a sandbox panic).
// - Tool calls: `tool_call` in_progress (edit: content diff, rawInput.changes), then
//   `tool_call_update` completed; usage_update after each model response. Edits ask
//   session/request_permission with options allow_once/"approved", reject_once/"abort";
//   rejecting ends the turn with stopReason cancelled and leaves the tool call in_progress.
//   Read-only commands (cat, ls) run without asking.

// opencode-ai 1.18.33 (`opencode acp`, a native binary; test/e2e/opencode-qwen-agents.test.ts)
// - initialize: loadSession, mcpCapabilities {http, sse}, promptCapabilities {embeddedContext,
//   image}, sessionCapabilities {close, fork, list, resume}; authMethods [opencode-login
//   ("Run `opencode auth login`"), no type]. Without any login session/new still works: it offers
//   its free "OpenCode Zen" models (opencode/big-pickle, …) as the `model` config option.
// - A custom provider with npm "@ai-sdk/openai-compatible" works offline (bundled); one
//   background title request (no tools) per session, then POST /chat/completions per step.
// - Tools write {filePath, content}, edit, bash …: `tool_call` pending → update in_progress
//   (rawInput) → update pending with a diff → session/request_permission (options once /
//   always / reject) → fs/write_text_file → update completed. Modes come as a `mode` config option.
//
// @qwen-code/qwen-code 0.24.4 (`qwen --acp`, needs Node >= 22; run here with test/setup/node22)
// - initialize: loadSession, sessionCapabilities {list, resume}, mcp {http, sse}; one auth
//   method `openai` with _meta {type: "terminal", args: ["--auth-type=openai"]} (the draft
//   spelling of terminal auth); session/new answers -32000 until OPENAI_API_KEY is set.
// - Sessions start in mode `auto` (a classifier approves edits without asking): the bridge moves
//   them to `default` (quirks.ts). Tools write_file {file_path, content}, replace, run_shell_command.
//   After a turn it sends background requests (a memory-extraction subagent) that the script
//   answers past its end.
//
// @github/copilot 1.0.102 (`copilot --acp`; test/e2e/copilot-agent.test.ts)
// - The npm package is a loader for a native binary (@github/copilot-linux-x64) that unpacks
//   235 MB into ~/.cache/copilot on its first start. initialize works offline: loadSession,
//   sessionCapabilities {close, list}, agentCapabilities.auth.logout, one auth method
//   copilot-login with _meta["terminal-auth"] {command: <its binary>, args: ["login"], label}
//   (no `type` even when the client advertises auth.terminal); session/new answers -32000
//   "Authentication required" until logged in. No model traffic can be scripted: it talks only
//   to GitHub's service.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type AgentName = 'claude-code-acp' | 'gemini';
export const agentNames: readonly AgentName[] = ['claude-code-acp', 'gemini'];

export interface AgentLaunch {
  command: string;
  args: string[];
  /** The complete environment: nothing is inherited from the test runner (no stray API keys, no IS_SANDBOX). */
  env: Record<string, string>;
}

// Walk up to the checkout's node_modules, so this also works when compiled into another folder.
function findRepoRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules/@zed-industries/claude-code-acp'))) return dir;
  }
  throw new Error(`no node_modules with the ACP agents above ${from}: run npm ci in the checkout`);
}
const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
export const agentEntryPoints: Record<AgentName, string> = {
  'claude-code-acp': join(repoRoot, 'node_modules/@zed-industries/claude-code-acp/dist/index.js'),
  gemini: join(repoRoot, 'node_modules/@google/gemini-cli/bundle/gemini.js'),
};

/**
 * Command line and environment that point `name` at the model server at `modelUrl`, with a
 * fresh HOME under `tmpRoot` (created, with the settings files the agent needs).
 */
export function agentLaunch(name: AgentName, modelUrl: string, tmpRoot: string): AgentLaunch {
  const home = join(tmpRoot, 'home');
  const tmp = join(tmpRoot, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  const base = { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: home, TMPDIR: tmp, LANG: 'C.UTF-8', NO_COLOR: '1' };
  const command = process.execPath;
  if (name === 'claude-code-acp') {
    // A first-run Claude Code would otherwise start onboarding; default mode keeps permission prompts.
    writeJson(join(home, '.claude.json'), { hasCompletedOnboarding: true, bypassPermissionsModeAccepted: false });
    writeJson(join(home, '.claude/settings.json'), { permissions: { defaultMode: 'default' } });
    return {
      command,
      args: [agentEntryPoints[name]],
      env: {
        ...base,
        ANTHROPIC_BASE_URL: modelUrl,
        ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-tests',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
    };
  }
  // API-key auth without asking, and no update checks or usage statistics (there is no network).
  writeJson(join(home, '.gemini/settings.json'), {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    security: { auth: { selectedType: 'gemini-api-key' } },
  });
  return {
    command,
    args: [agentEntryPoints[name], '--acp', '--skip-trust'],
    env: {
      ...base,
      GEMINI_CLI_HOME: home,
      GOOGLE_GEMINI_BASE_URL: modelUrl,
      GEMINI_API_KEY: 'fake-gemini-key-for-tests',
      GEMINI_CLI_NO_RELAUNCH: 'true',
    },
  };
}

/** The codex-acp binary for this platform if @zed-industries/codex-acp is installed, else undefined. */
export function codexBinary(): string | undefined {
  const binary = join(repoRoot, `node_modules/@zed-industries/codex-acp-${process.platform}-${process.arch}/bin/codex-acp`);
  return existsSync(binary) ? binary : undefined;
}

/**
 * Given codex-acp's binary (node_modules/@zed-industries/codex-acp-linux-x64/bin/codex-acp,
 * a dev dependency), this points it at the model server's /v1/responses.
 * gpt-5.2-codex is a model codex knows, so it offers apply_patch and prints no metadata warning.
 */
export function codexLaunch(binary: string, modelUrl: string, tmpRoot: string): AgentLaunch {
  const home = join(tmpRoot, 'home');
  // CODEX_HOME must not be under TMPDIR, or codex refuses it.
  const codexHome = join(home, '.codex');
  const tmp = join(tmpRoot, 'tmp');
  mkdirSync(codexHome, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.2-codex"',
      'model_provider = "fake"',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${modelUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "OPENAI_API_KEY"',
      'supports_websockets = false',
      '',
    ].join('\n'),
  );
  return {
    command: binary,
    args: [],
    env: { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: home, TMPDIR: tmp, LANG: 'C.UTF-8', NO_COLOR: '1', CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-fake-key-for-tests' },
  };
}

/** A fresh HOME and TMPDIR under tmpRoot and the rest of a plain environment, nothing inherited but PATH. */
export function freshHome(tmpRoot: string): { PATH: string; HOME: string; TMPDIR: string; LANG: string; NO_COLOR: string } {
  const home = join(tmpRoot, 'home');
  const tmp = join(tmpRoot, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  return { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: home, TMPDIR: tmp, LANG: 'C.UTF-8', NO_COLOR: '1' };
}

function writeJson(path: string, value: object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
}

/** Where test/ci.sh installs the agents boardbridge does not depend on (OpenCode, Qwen Code): put on PATH as a person's install would be. */
export const TEST_AGENTS_BIN = join(repoRoot, 'test/agents/node_modules/.bin');

/**
 * A file test/ci.sh installs, if it is there. Under CI its absence is a broken set-up that
 * must fail the tests, not skip them: an install whose postinstall left no binary (the
 * npm package `node` does that when its preinstall is skipped) would otherwise pass silently.
 */
function installedByCi(file: string, install: string): string | undefined {
  if (existsSync(file)) return file;
  if (process.env.CI) throw new Error(`${file} is missing, though test/ci.sh installs it: ${install}`);
  return undefined;
}

/** OpenCode's native binary from opencode-ai (in test/agents, installed by test/ci.sh), if installed. */
export function opencodeBinary(): string | undefined {
  return installedByCi(join(repoRoot, 'test/agents/node_modules/opencode-ai/bin/opencode.exe'), 'npm install --prefix test/agents');
}

/** Qwen Code's entry point (in test/agents, installed by test/ci.sh), if installed. */
export function qwenEntry(): string | undefined {
  return installedByCi(join(repoRoot, 'test/agents/node_modules/@qwen-code/qwen-code/cli-entry.js'), 'npm install --prefix test/agents');
}

/**
 * OpenCode with one custom OpenAI-compatible provider ("fake", @ai-sdk/openai-compatible,
 * which OpenCode bundles) at the model server's /opencode/v1/chat/completions; edits and
 * shell commands ask permission; no models.dev fetch, no update check, no sharing.
 */
export function opencodeLaunch(binary: string, modelUrl: string, tmpRoot: string): AgentLaunch {
  const base = freshHome(tmpRoot);
  const home = base.HOME;
  writeJson(join(home, '.config/opencode/opencode.json'), {
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: `${modelUrl}/opencode/v1`, apiKey: 'sk-fake-key-for-tests' },
        models: { 'fake-model': { name: 'Fake model', tool_call: true } },
      },
    },
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    autoupdate: false,
    share: 'disabled',
    permission: { edit: 'ask', bash: 'ask' },
  });
  return {
    command: binary,
    args: ['acp'],
    env: {
      ...base,
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    },
  };
}

/** Node 22 from the npm package `node` (test/setup/node22, installed by test/ci.sh), if installed. */
export function node22Binary(): string | undefined {
  return installedByCi(join(repoRoot, 'test/setup/node22/node_modules/node/bin/node'), 'npm ci --prefix test/setup/node22 (with its install scripts)');
}

/** Qwen Code under Node 22 through its OpenAI-compatible settings, at /qwen/v1/chat/completions. */
export function qwenLaunch(node: string, entry: string, modelUrl: string, tmpRoot: string): AgentLaunch {
  const base = freshHome(tmpRoot);
  writeJson(join(base.HOME, '.qwen/settings.json'), {
    security: { auth: { selectedType: 'openai' } },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  });
  return {
    command: node,
    args: [entry, '--acp'],
    env: {
      ...base,
      OPENAI_API_KEY: 'sk-fake-key-for-tests',
      OPENAI_BASE_URL: `${modelUrl}/qwen/v1`,
      OPENAI_MODEL: 'fake-model',
    },
  };
}
