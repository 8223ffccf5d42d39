// `boardbridge setup`: the configuration each ACP editor gets, checked against the
// editor's documented format. No editor runs here (Zed, JetBrains, Neovim plugins,
// Emacs agent-shell, Toad): JSON is checked against the documented keys, the Lua
// module is compiled and run by the real Lua 5.4 with a stand-in CodeCompanion,
// the Emacs Lisp is loaded by the real Emacs with stand-ins for agent-shell and acp.el.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { editorSetup, type ProxyCommand } from '../../../bridge/setup/editor-configs.js';
import { splitShellWords } from '../../../bridge/shell-words.js';
import { cliMain } from '../../e2e/run-cli.js';

const proxy: ProxyCommand = { name: 'Claude (board-aware)', command: '/opt/bb/bin/boardbridge', args: ['acp', '--agent', 'claude', '--fqbn', 'arduino:avr:uno'], agentId: 'claude' };

// Zed docs, External Agents: "agent_servers": {"<name>": {"type": "custom", "command", "args", "env"}}.
const ZedAgentServer = z.object({ type: z.literal('custom'), command: z.string().min(1), args: z.array(z.string()), env: z.record(z.string(), z.string()) }).strict();
// JetBrains AI Assistant, ~/.jetbrains/acp.json: {"agent_servers": {"<name>": {"command", "args", "env"}}}.
const JetBrainsAgentServer = z.object({ command: z.string().min(1), args: z.array(z.string()), env: z.record(z.string(), z.string()) }).strict();

function home(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bb-setup-'));
  return { HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config') };
}

function cli(args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, [cliMain, ...args], { env: { ...process.env, ...env, PATH: '/usr/bin:/bin' }, encoding: 'utf8' });
}

describe('boardbridge setup zed (no Zed runs here: checked against its documented settings format)', () => {
  it('prints an agent_servers entry of type custom in Zed\'s settings.json', () => {
    const setup = editorSetup('zed', proxy, home());
    expect(setup.kind === 'json' && setup.file.endsWith('.config/zed/settings.json')).toBe(true);
    const printed = JSON.parse(setup.text) as { agent_servers: Record<string, unknown> };
    expect(Object.keys(printed)).toEqual(['agent_servers']);
    expect(ZedAgentServer.parse(printed.agent_servers['Claude (board-aware)'])).toEqual({ type: 'custom', command: proxy.command, args: proxy.args, env: {} });
  });

  it('--write merges into a settings.json with comments and trailing commas, keeps the rest, backs it up, and a second write changes nothing', () => {
    const env = home();
    const file = path.join(env.XDG_CONFIG_HOME!, 'zed', 'settings.json');
    mkdirSync(path.dirname(file), { recursive: true });
    const original = '// my Zed settings\n{\n  "theme": "One Dark", // keep me\n  "agent_servers": {\n    "Other": { "type": "custom", "command": "other-agent", },\n  },\n}\n';
    writeFileSync(file, original);
    const run = cli(['setup', 'zed', '--agent', 'claude', '--write'], env);
    expect(run.status, run.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// my Zed settings');
    expect(text).toContain('"theme": "One Dark", // keep me');
    const settings = parse(text) as { theme: string; agent_servers: Record<string, unknown> };
    expect(settings.theme).toBe('One Dark');
    expect(settings.agent_servers.Other).toEqual({ type: 'custom', command: 'other-agent' });
    const ours = ZedAgentServer.parse(settings.agent_servers['Claude (board-aware)']);
    expect(ours.args).toEqual([cliMain, 'acp', '--agent', 'claude']);
    const backups = readdirSync(path.dirname(file)).filter((f) => f.startsWith('settings.json.boardbridge-backup-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(path.join(path.dirname(file), backups[0]), 'utf8')).toBe(original);
    const again = cli(['setup', 'zed', '--agent', 'claude', '--write'], env);
    expect(again.stderr).toContain('already has it; nothing changed');
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses to write over a settings file it cannot read, naming the file and line', () => {
    const env = home();
    const file = path.join(env.HOME!, 'broken.json');
    writeFileSync(file, '{\n  "theme": "One Dark"\n  "vim_mode": true\n}\n');
    const run = cli(['setup', 'zed', '--write', '--file', file], env);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`${file.replace(/[/.]/g, '\\$&')}:3: CommaExpected; fix the file`));
    expect(readFileSync(file, 'utf8')).toBe('{\n  "theme": "One Dark"\n  "vim_mode": true\n}\n');
  });
});

describe('boardbridge setup jetbrains (no JetBrains IDE runs here: checked against the documented acp.json format)', () => {
  it('--write creates ~/.jetbrains/acp.json with the agent_servers entry and keeps other agents there', () => {
    const env = home();
    const file = path.join(env.HOME!, '.jetbrains', 'acp.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ agent_servers: { OpenCode: { command: 'opencode', args: ['acp'] } }, default_mcp_settings: {} }, null, 2));
    const run = cli(['setup', 'jetbrains', '--agent', 'gemini', '--write'], env);
    expect(run.status, run.stderr).toBe(0);
    const config = JSON.parse(readFileSync(file, 'utf8')) as { agent_servers: Record<string, unknown>; default_mcp_settings: unknown };
    expect(config.default_mcp_settings).toEqual({});
    expect(config.agent_servers.OpenCode).toEqual({ command: 'opencode', args: ['acp'] });
    expect(JetBrainsAgentServer.parse(config.agent_servers['Gemini CLI (board-aware)']).args).toEqual([cliMain, 'acp', '--agent', 'gemini']);
  });
});

describe('boardbridge setup neovim (no Neovim runs here: the module runs in real Lua 5.4 with a stand-in CodeCompanion)', () => {
  it('writes a Lua module whose CodeCompanion adapter and avante provider start boardbridge acp', () => {
    const setup = editorSetup('neovim', proxy, home());
    if (setup.kind !== 'own-file') throw new Error('neovim gets a module of its own');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bb-lua-'));
    const module = path.join(dir, 'boardbridge_acp.lua');
    writeFileSync(module, setup.content);
    execFileSync('luac5.4', ['-p', module]);
    const probe = [
      'package.preload["codecompanion.adapters"] = function() return { extend = function(base, t) return { base = base, t = t } end } end',
      `local M = dofile(${JSON.stringify(module)})`,
      'local a = M.codecompanion()',
      'print(a.base, a.t.name, a.t.formatted_name, table.concat(a.t.commands.default, "|"))',
      'for name, p in pairs(M.avante) do print(name, p.command, table.concat(p.args, "|")) end',
    ].join('\n');
    const out = execFileSync('lua5.4', ['-e', probe], { encoding: 'utf8' }).trim().split('\n');
    expect(out[0].split('\t')).toEqual(['claude_code', 'boardbridge-claude-board-aware', 'Claude (board-aware)', [proxy.command, ...proxy.args].join('|')]);
    expect(out[1].split('\t')).toEqual(['boardbridge-claude-board-aware', proxy.command, proxy.args.join('|')]);
  });
});

describe('boardbridge setup emacs (no agent-shell here: the file is loaded by real Emacs with stand-ins for agent-shell and acp.el)', () => {
  it('adds an agent-shell config whose client runs boardbridge acp, and --write loads it from init.el once', () => {
    const env = home();
    const run = cli(['setup', 'emacs', '--agent', 'claude', '--write'], env);
    expect(run.status, run.stderr).toBe(0);
    const file = path.join(env.HOME!, '.emacs.d', 'boardbridge-acp.el');
    const init = path.join(env.HOME!, '.emacs.d', 'init.el');
    expect(readFileSync(init, 'utf8')).toBe(`(load "${file}" nil t)\n`);
    cli(['setup', 'emacs', '--agent', 'claude', '--write'], env);
    expect(readFileSync(init, 'utf8')).toBe(`(load "${file}" nil t)\n`);
    const standIns = [
      '(require (quote cl-lib))',
      '(defvar agent-shell-agent-configs nil)',
      '(cl-defun agent-shell-make-agent-config (&rest plist) plist)',
      '(cl-defun acp-make-client (&rest plist) plist)',
      "(provide 'agent-shell)",
      `(load "${file}" nil t)`,
      '(let* ((config (car agent-shell-agent-configs)) (client (funcall (plist-get config :client-maker) (current-buffer))))',
      '  (princ (format "%s\\n%s\\n%s\\n%S\\n" (plist-get config :identifier) (plist-get config :buffer-name) (plist-get client :command) (plist-get client :command-params))))',
    ].join('\n');
    const out = execFileSync('emacs', ['--batch', '-Q', '--eval', `(progn ${standIns})`], { encoding: 'utf8', env: { ...process.env, HOME: env.HOME } }).trim().split('\n');
    expect(out[0]).toBe('boardbridge-claude-board-aware');
    expect(out[1]).toBe('Claude (board-aware)');
    expect(out[2]).toBe(process.execPath);
    expect(out[3]).toBe(`("${cliMain}" "acp" "--agent" "claude")`);
  });
});

describe('boardbridge setup toad (no Toad here: its documented form is `toad acp "COMMAND"`)', () => {
  it('prints one toad acp command whose quoted argument is the boardbridge command line', () => {
    const setup = editorSetup('toad', proxy, home());
    const words = splitShellWords(setup.text.trim());
    expect(words?.slice(0, 2)).toEqual(['toad', 'acp']);
    expect(words).toHaveLength(3);
    expect(splitShellWords(words![2])).toEqual([proxy.command, ...proxy.args]);
  });

  it('says what it sets up when the editor is unknown', () => {
    const run = cli(['setup', 'vim'], home());
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown editor "vim"; boardbridge sets up: zed, jetbrains, neovim, emacs, toad');
  });
});
