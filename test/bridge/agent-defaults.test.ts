// Which agent runs when none is named: the first installed and logged in, judged
// from the credential files each agent's own login writes (written here by the test).
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NoAgentReady, resolveAgent } from '../../bridge/agents/resolve.js';
import { agentStatuses } from '../../bridge/agents/status.js';
import { node22Binary } from '../support/agents.js';

const repoRoot = path.resolve(__dirname, '..', '..');
const node22 = node22Binary();
// A shell's PATH without node_modules/.bin: the agents are found in boardbridge's own dependencies,
// and OpenCode and Qwen Code (not boardbridge's dependencies) where a person's install puts them on PATH.
const testAgents = path.join(repoRoot, 'test', 'agents', 'node_modules', '.bin');
const PATH = [...(process.env.PATH ?? '').split(':').filter((d) => !d.includes('node_modules')), testAgents].join(':');

function home(files: Record<string, string> = {}): NodeJS.ProcessEnv {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bb-cred-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return { PATH, HOME: dir };
}

const ready = (env: NodeJS.ProcessEnv) => agentStatuses(env).filter((s) => s.ready).map((s) => s.id);

describe('the default agent', () => {
  it('is none with a fresh home: resolving throws NoAgentReady carrying every status', async () => {
    const env = home();
    expect(ready(env)).toEqual([]);
    try {
      await resolveAgent({ env });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(NoAgentReady);
      expect((error as NoAgentReady).statuses.map((s) => s.id)).toEqual(['copilot', 'claude', 'codex', 'opencode', 'qwen', 'gemini']);
    }
  });

  it('is Copilot once `copilot login` recorded an account in ~/.copilot/config.json (a JSONC file)', async () => {
    const env = home({ '.copilot/config.json': '// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  "loggedInUsers": [{"host": "https://github.com", "login": "octo"}]\n}\n' });
    expect(ready(env)).toEqual(['copilot']);
    const launch = await resolveAgent({ env });
    expect(launch).toMatchObject({ id: 'copilot', args: ['--acp'], via: 'project' });
    expect(agentStatuses(env)[0].credentials).toBe('~/.copilot/config.json');
  });

  it('does not count a Copilot config without an account, and honours COPILOT_HOME', () => {
    const env = home({ '.copilot/config.json': '{"firstLaunchAt": "2026-12-01T08:38:57.480Z"}', 'elsewhere/config.json': '{"loggedInUsers": [{"login": "octo"}]}' });
    expect(ready(env)).toEqual([]);
    expect(ready({ ...env, COPILOT_HOME: path.join(env.HOME!, 'elsewhere') })).toEqual(['copilot']);
  });

  it('takes the first in the documented order when several are logged in', async () => {
    const env = home({ '.codex/auth.json': '{"OPENAI_API_KEY": "sk-x"}', '.claude/.credentials.json': '{"claudeAiOauth": {"accessToken": "x"}}' });
    expect(ready(env)).toEqual(['claude', 'codex']);
    expect((await resolveAgent({ env })).id).toBe('claude');
  });

  it('counts an OpenCode provider of one\'s own (a local model needs no login) and its auth.json', () => {
    expect(ready(home({ '.config/opencode/opencode.json': '{"provider": {"ollama": {"npm": "@ai-sdk/openai-compatible"}}}' }))).toEqual(['opencode']);
    expect(ready(home({ '.local/share/opencode/auth.json': '{"anthropic": {"type": "api", "key": "x"}}' }))).toEqual(['opencode']);
    expect(ready(home({ '.local/share/opencode/auth.json': '{}' }))).toEqual([]);
  });

  it('does not count a Gemini Google-account login, which Gemini CLI stopped serving, and says so', () => {
    const env = home({ '.gemini/oauth_creds.json': '{"access_token": "x"}' });
    const gemini = agentStatuses(env).find((s) => s.id === 'gemini')!;
    expect(gemini).toMatchObject({ installed: true, authenticated: false, ready: false });
    expect(gemini.credentials).toContain('no longer serves (since 2026-06-18)');
    expect(ready(home({ '.gemini/.env': 'GEMINI_API_KEY=abc\n' }))).toEqual(['gemini']);
  });

  it('needs a Node 22 for Qwen Code: without one it is not ready and names the command that installs one', async () => {
    const env = { ...home(), OPENAI_API_KEY: 'sk-x' };
    const qwen = agentStatuses(env).find((s) => s.id === 'qwen')!;
    expect(qwen).toMatchObject({ installed: true, authenticated: true, ready: false });
    expect(qwen.nodeProblem).toContain('npm install --prefix');
    expect(qwen.nodeProblem).toContain('node@22');
    await expect(resolveAgent({ agent: 'qwen', env })).rejects.toThrow(/Qwen Code needs Node.js 22 or newer/);
  });

  it.skipIf(!node22)('runs Qwen Code under the Node that BOARDBRIDGE_NODE names', async () => {
    const env = { ...home(), OPENAI_API_KEY: 'sk-x', BOARDBRIDGE_NODE: node22! };
    expect(agentStatuses(env).find((s) => s.id === 'qwen')).toMatchObject({ ready: true });
    const launch = await resolveAgent({ agent: 'qwen', env });
    expect(launch.command).toBe(node22);
    expect(launch.args).toEqual([realpathSync(path.join(testAgents, 'qwen')), '--acp']);
  });
});
