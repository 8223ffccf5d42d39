// The real claude-code-acp's login as boardbridge is offered it: with the client capability
// `_meta["terminal-auth"]` the adapter names Claude Code's own CLI (cli.js of the Claude agent
// SDK it ships with), a command that exists, instead of `claude /login`, which needs a
// separate install of the `claude` command.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveAgent } from '../../bridge/agents/resolve.js';
import { connectAgent, terminalLogins } from '../../bridge/session/agent-connection.js';
import { repoRoot } from './run-cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'bb-claude-login-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('claude-code-acp login', { timeout: 120_000 }, () => {
  it('is a terminal login that runs the Claude Code CLI shipped beside the adapter', async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: home };
    const launch = await resolveAgent({ agent: 'claude', env });
    const unused = () => {
      throw new Error('not used');
    };
    const agent = await connectAgent(launch, path.join(repoRoot, 'examples', 'Blink'), { fs: unused, terminals: unused, onUpdate: () => undefined, onPermission: unused, onElicitation: unused, onElicitationComplete: () => undefined }, { ...process.env, ...env });
    try {
      const logins = terminalLogins(agent.init, launch);
      expect(logins).toHaveLength(1);
      const [login] = logins;
      expect(login).toMatchObject({ methodId: 'claude-login', command: 'node' });
      expect(login.args).toHaveLength(1);
      expect(login.args[0]).toMatch(/@anthropic-ai[\\/]claude-agent-sdk[\\/]cli\.js$/);
      expect(existsSync(login.args[0])).toBe(true);
      // The command is there and is Claude Code.
      expect(execFileSync(process.execPath, [login.args[0], '--version'], { env: { ...env, CI: 'true' }, encoding: 'utf8' })).toMatch(/Claude Code/);
    } finally {
      agent.connection.close();
      await agent.process.close();
    }
  });
});
