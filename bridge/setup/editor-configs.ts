// What each ACP editor needs to run `boardbridge acp`, in that editor's own
// documented format: Zed's settings.json `agent_servers` (type custom),
// JetBrains' ~/.jetbrains/acp.json `agent_servers`, CodeCompanion's and
// avante.nvim's Lua tables, an agent-shell config for Emacs (loaded from the init file
// Emacs really reads), and Toad's command line.
import os from 'node:os';
import path from 'node:path';
import { emacsPlaces } from './emacs-init.js';

export const EDITORS = ['zed', 'jetbrains', 'neovim', 'emacs', 'toad'] as const;
export type EditorId = (typeof EDITORS)[number];

/** The command an editor starts: `boardbridge acp …` as it will run on this machine. */
export interface ProxyCommand {
  /** The name the editor shows, e.g. "Claude (board-aware)". */
  name: string;
  command: string;
  args: string[];
  /** The agent behind boardbridge (claude, gemini, codex), when it is a known one. */
  agentId?: string;
}

// CodeCompanion's built-in ACP adapter each agent's boardbridge entry extends.
const CODECOMPANION_BASE: Record<string, string> = { claude: 'claude_code', gemini: 'gemini_cli', codex: 'codex' };

export type EditorSetup =
  /** A key set inside a JSON (or JSONC) settings file, everything else kept. */
  | { editor: EditorId; kind: 'json'; file: string; keyPath: string[]; value: Record<string, unknown>; text: string }
  /** A file of boardbridge's own that the editor's config loads (Lua, Emacs Lisp). */
  | { editor: EditorId; kind: 'own-file'; file: string; content: string; text: string; loadLine?: { file: string; line: string }; note?: string }
  /** Nothing to write: the editor takes the agent on its command line. */
  | { editor: EditorId; kind: 'command-line'; text: string };

export function editorSetup(editor: EditorId, proxy: ProxyCommand, env: NodeJS.ProcessEnv = process.env): EditorSetup {
  const home = env.HOME || os.homedir();
  const config = env.XDG_CONFIG_HOME || path.join(home, '.config');
  switch (editor) {
    case 'zed': {
      // https://zed.dev/docs/ai/external-agents: "agent_servers": {"Name": {"type": "custom", "command", "args", "env"}}
      const value = { type: 'custom', command: proxy.command, args: proxy.args, env: {} };
      return { editor, kind: 'json', file: path.join(config, 'zed', 'settings.json'), keyPath: ['agent_servers', proxy.name], value, text: json({ agent_servers: { [proxy.name]: value } }) };
    }
    case 'jetbrains': {
      // JetBrains AI Assistant: ~/.jetbrains/acp.json, {"agent_servers": {"Name": {"command", "args", "env"}}}
      const value = { command: proxy.command, args: proxy.args, env: {} };
      return { editor, kind: 'json', file: path.join(home, '.jetbrains', 'acp.json'), keyPath: ['agent_servers', proxy.name], value, text: json({ agent_servers: { [proxy.name]: value } }) };
    }
    case 'neovim': {
      const file = path.join(config, 'nvim', 'lua', 'boardbridge_acp.lua');
      const content = neovimModule(proxy);
      const text = `${content}\n-- Use it in your setup calls:\n--   require("codecompanion").setup({ adapters = { acp = { ${luaIdentifier(proxy.name)} = require("boardbridge_acp").codecompanion } } })\n--   require("avante").setup({ provider = ${luaString(slug(proxy.name))}, acp_providers = require("boardbridge_acp").avante })\n`;
      return { editor, kind: 'own-file', file, content, text };
    }
    case 'emacs': {
      const places = emacsPlaces(home, config);
      const file = path.join(places.dir, 'boardbridge-acp.el');
      const content = emacsConfig(proxy);
      return { editor, kind: 'own-file', file, content, text: content, loadLine: { file: places.init, line: `(load ${elispString(file)} nil t)` }, ...(places.skipped ? { note: places.skipped } : {}) };
    }
    case 'toad':
      return { editor, kind: 'command-line', text: `toad acp ${shellQuote([proxy.command, ...proxy.args].map(shellQuote).join(' '))}\n` };
  }
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

// CodeCompanion: an ACP adapter extending a built-in one with its own command
// (doc/configuration/adapters-acp.md: commands.default = {cmd, args…});
// avante.nvim: acp_providers = {[name] = {command, args, env}}.
function neovimModule(proxy: ProxyCommand): string {
  const argv = [proxy.command, ...proxy.args].map(luaString).join(', ');
  const args = proxy.args.map(luaString).join(', ');
  return [
    '-- boardbridge as an ACP agent for Neovim (written by `boardbridge setup neovim`).',
    'local M = {}',
    '',
    'M.codecompanion = function()',
    `  return require("codecompanion.adapters").extend(${luaString(CODECOMPANION_BASE[proxy.agentId ?? ''] ?? 'claude_code')}, {`,
    `    name = ${luaString(slug(proxy.name))},`,
    `    formatted_name = ${luaString(proxy.name)},`,
    `    commands = { default = { ${argv} } },`,
    '  })',
    'end',
    '',
    'M.avante = {',
    `  [${luaString(slug(proxy.name))}] = { command = ${luaString(proxy.command)}, args = { ${args} }, env = {} },`,
    '}',
    '',
    'return M',
    '',
  ].join('\n');
}

// agent-shell: one more entry in agent-shell-agent-configs, made with
// agent-shell-make-agent-config and a client from acp.el's acp-make-client.
function emacsConfig(proxy: ProxyCommand): string {
  const id = slug(proxy.name);
  return [
    ';;; boardbridge-acp.el --- boardbridge as an ACP agent for agent-shell  -*- lexical-binding: t; -*-',
    ';; Written by `boardbridge setup emacs`.',
    '(with-eval-after-load \'agent-shell',
    '  (add-to-list \'agent-shell-agent-configs',
    '               (agent-shell-make-agent-config',
    `                :identifier '${id}`,
    `                :mode-line-name ${elispString(proxy.name)}`,
    `                :buffer-name ${elispString(proxy.name)}`,
    `                :shell-prompt ${elispString(`${proxy.name}> `)}`,
    `                :shell-prompt-regexp ${elispString(`${escapeRegexp(proxy.name)}> `)}`,
    '                :client-maker (lambda (buffer)',
    '                                (acp-make-client',
    `                                 :command ${elispString(proxy.command)}`,
    `                                 :command-params '(${proxy.args.map(elispString).join(' ')})`,
    '                                 :context-buffer buffer)))))',
    '(provide \'boardbridge-acp)',
    ';;; boardbridge-acp.el ends here',
    '',
  ].join('\n');
}

/** "Claude (board-aware)" → "boardbridge-claude-board-aware". */
export function slug(name: string): string {
  const words = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return words.startsWith('boardbridge') ? words : `boardbridge-${words}`;
}

function luaString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

function luaIdentifier(name: string): string {
  return slug(name).replace(/-/g, '_');
}

function elispString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

// Emacs regexps: ( and ) are literal; these are not.
function escapeRegexp(s: string): string {
  return s.replace(/[.*+?^$[\]\\]/g, (c) => `\\${c}`);
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
