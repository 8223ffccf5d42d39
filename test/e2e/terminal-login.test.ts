// Terminal login and logout against the stand-in agent (no offline agent here offers
// a terminal login that can succeed): the stand-in advertises a `type: "terminal"` auth
// method only to clients that declare auth.terminal, and its `login` asks for a code.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endScreens, startInPty } from './pty-screen.js';
import { cliMain, ofType, repoRoot, runCli, tempSketch } from './run-cli.js';

const standinScript = path.join(repoRoot, 'test', 'support', 'standin-agent.mjs');
const standin = `${process.execPath} ${standinScript}`;

afterEach(endScreens);

function setUp() {
  const { root, sketch } = tempSketch();
  const token = path.join(mkdtempSync(path.join(os.tmpdir(), 'bb-token-')), 'token');
  const env = { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), STANDIN_TERMINAL_AUTH: token };
  return { sketch, token, env };
}

describe('terminal login (stand-in agent)', { timeout: 120_000 }, () => {
  it('run --json emits auth_required with the login command and its env, and exits 1', async () => {
    const { sketch, env } = setUp();
    const r = await runCli(['run', 'hello', '--json', '--workspace', sketch, '--agent-command', standin], { env });
    expect(r.code).toBe(1);
    const [event] = ofType(r.events, 'auth_required');
    expect(event).toMatchObject({
      agent: { name: 'standin-agent', version: '1.0.0' },
      logins: [{ methodId: 'standin-terminal', name: 'Stand-in terminal login', command: [process.execPath, standinScript, 'login'], env: { STANDIN_LOGIN: '1' } }],
    });
    expect(event.message).toContain('needs authentication');
    expect(r.stderr).toContain(`log in: ${process.execPath} ${standinScript} login`);
  });

  it('chat runs the login in the same terminal with its args and env, starts again, and /logout ends the login', async () => {
    const { sketch, token, env } = setUp();
    const screen = startInPty([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', standin], { ...env, TERM: 'dumb', NO_COLOR: '1' });
    const offered = await screen.waitFor('Log in now? [Y/n]');
    expect(screen.text.slice(0, offered)).toContain(`It offers a login in this terminal: ${process.execPath} ${standinScript} login`);
    screen.type('\r');
    const asked = await screen.waitFor('Stand-in login (STANDIN_LOGIN=1). Code: ', offered);
    screen.type('1234\r');
    const started = await screen.waitFor('Logged in; starting the agent again.', asked);
    await screen.waitFor('› ', started);
    expect(readFileSync(token, 'utf8')).toBe('1234');
    screen.type('hello\r');
    const reply = await screen.waitFor('stopping with end_turn', started);
    await screen.waitFor('› ', reply);
    screen.type('/logout\r');
    await screen.waitFor('Logged out.', reply);
    expect(existsSync(token)).toBe(false);
    screen.type('/quit\r');
    expect(await screen.exited()).toBe(0);
  });

  it('chat that is declined the login names the command and exits 1', async () => {
    const { sketch, env } = setUp();
    const screen = startInPty([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', standin], { ...env, TERM: 'dumb', NO_COLOR: '1' });
    await screen.waitFor('Log in now? [Y/n]');
    screen.type('n\r');
    expect(await screen.exited()).toBe(1);
    expect(screen.text).toContain(`log in: ${process.execPath} ${standinScript} login`);
  });
});
