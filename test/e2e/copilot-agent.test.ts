// GitHub Copilot CLI (@github/copilot, a dev dependency) as boardbridge sees it offline:
// its real `initialize`, the terminal login it offers, and the "needs login" path of run
// and chat. A turn cannot be tested: Copilot talks only to GitHub's service.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { resolveAgent } from '../../bridge/agents/resolve.js';
import { connectAgent } from '../../bridge/session/agent-connection.js';
import { endScreens, startInPty } from './pty-screen.js';
import { cliMain, ofType, repoRoot, runCli } from './run-cli.js';

// One HOME for the file: Copilot unpacks 235 MB into ~/.cache/copilot on its first start.
const home = mkdtempSync(path.join(os.tmpdir(), 'bb-copilot-'));
const PATH = (process.env.PATH ?? '').split(':').filter((d) => !d.includes('node_modules')).join(':');
const env = { PATH, HOME: home, BOARDBRIDGE_STATE_DIR: path.join(home, 'state'), TERM: 'dumb', NO_COLOR: '1' };
const blink = path.join(repoRoot, 'examples', 'Blink');

afterEach(endScreens);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('GitHub Copilot CLI, offline', { timeout: 180_000 }, () => {
  it('answers initialize with session list/close, load, logout and a terminal login (copilot login)', async () => {
    const launch = await resolveAgent({ agent: 'copilot', env });
    const noService = () => {
      throw new Error('not used');
    };
    const agent = await connectAgent(launch, blink, { fs: noService, terminals: noService, onUpdate: () => undefined, onPermission: noService, onElicitation: noService, onElicitationComplete: () => undefined }, { ...process.env, ...env });
    try {
      expect(agent.init.agentInfo).toMatchObject({ name: 'Copilot' });
      expect(agent.init.agentCapabilities).toMatchObject({ loadSession: true, sessionCapabilities: { close: {}, list: {} }, auth: { logout: {} } });
      const [method] = agent.init.authMethods ?? [];
      expect(method).toMatchObject({ id: 'copilot-login', _meta: { 'terminal-auth': { args: ['login'] } } });
    } finally {
      agent.connection.close();
      await agent.process.close();
    }
  });

  it('is installed but not logged in, with its version, before it is ever started', async () => {
    const r = await runCli(['agents', '--json'], { env });
    const copilot = (JSON.parse(r.stdout) as Array<Record<string, unknown>>).find((a) => a.id === 'copilot');
    // Found in boardbridge's own node_modules and run from inside the clone: npx finds it there.
    expect(copilot).toMatchObject({ installed: true, authenticated: false, ready: false, login: 'npx copilot login' });
    expect(copilot?.version).toMatch(/^1\.\d+\.\d+$/);
  });

  it('run --json emits auth_required with `copilot login` and exits 1', async () => {
    const r = await runCli(['run', 'hi', '--json', '--agent', 'copilot', '--workspace', blink], { env });
    expect(r.code).toBe(1);
    const [event] = ofType(r.events, 'auth_required');
    expect(event.agent).toMatchObject({ id: 'copilot', name: 'Copilot' });
    expect(event.logins).toHaveLength(1);
    expect(event.logins[0]).toMatchObject({ methodId: 'copilot-login' });
    expect(path.basename(event.logins[0].command[0])).toBe('copilot');
    expect(event.logins[0].command.slice(1)).toEqual(['login']);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('chat offers to run `copilot login` in the terminal; declined, it exits 1 naming the command', async () => {
    const screen = startInPty([process.execPath, cliMain, 'chat', '--agent', 'copilot', '--workspace', blink], env);
    const offered = await screen.waitFor('Log in now? [Y/n]');
    expect(screen.text.slice(0, offered)).toMatch(/It offers a login in this terminal: \S*copilot login\s+\(Log in with Copilot CLI\)/);
    screen.type('n\r');
    expect(await screen.exited()).toBe(1);
  });
});
