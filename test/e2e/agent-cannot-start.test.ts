// An agent that cannot start ends the command with the agent's own words and the next step:
// a command that does not exist, one that exits before answering `initialize` (its last stderr
// lines and exit code), and one that runs but never answers (stopped once it has been quiet,
// no output and no CPU use, for the time start-bound.ts sets), then the same. Real processes:
// small shell scripts. `run` and `chat` (tmux). And one that is quiet while it waits on the
// network (a TCP connection open): not stopped.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QUIET_MS } from '../../bridge/agents/start-bound.js';
import { endTmuxScreens, quote, TmuxScreen } from './pty-screen.js';
import { cliMain, runCli, standinLaunch, tempSketch } from './run-cli.js';

afterEach(() => endTmuxScreens());

// A script in `root` that says on stderr why it is not ready, then exits with 5 or sleeps.
function brokenAgent(root: string, how: 'exits' | 'sleeps'): { command: string; pidFile: string } {
  const command = path.join(root, `agent-that-${how}.sh`);
  const pidFile = path.join(root, 'agent.pid');
  const end = how === 'exits' ? 'exit 5' : 'exec sleep 600';
  writeFileSync(command, `#!/bin/sh\necho $$ > '${pidFile}'\necho "loading plugins" >&2\necho "no licence server at 127.0.0.1:1" >&2\n${end}\n`);
  chmodSync(command, 0o755);
  return { command, pidFile };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const env = (root: string) => ({ PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') });

describe('boardbridge run with an agent that cannot start', { timeout: 60_000 }, () => {
  it('stops an agent that never answers initialize, shows its stderr and the next step, and leaves no process behind', async () => {
    const { root, sketch } = tempSketch();
    const agent = brokenAgent(root, 'sleeps');
    const r = await runCli(['run', 'hi', '--workspace', sketch, '--agent-command', agent.command], { env: env(root) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/agent-that-sleeps\.sh did not answer initialize: it was quiet for \d+ s \(no output, no CPU use\) and was stopped; its last words:\nloading plugins\nno licence server at 127\.0\.0\.1:1\n/);
    expect(r.stderr).toContain(`run it by hand: ${agent.command}`);
    expect(r.stderr).toMatch(/or run: .*doctor/);
    expect(isRunning(Number(readFileSync(agent.pidFile, 'utf8')))).toBe(false);
  });

  it('shows the last stderr lines and the exit code of an agent that exits before initialize answers', async () => {
    const { root, sketch } = tempSketch();
    const agent = brokenAgent(root, 'exits');
    const r = await runCli(['run', 'hi', '--workspace', sketch, '--agent-command', agent.command], { env: env(root) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/agent-that-exits\.sh exited with code 5 during start-up; its last words:\nloading plugins\nno licence server at 127\.0\.0\.1:1\n/);
    expect(r.stderr).toContain(`run it by hand to see why it stops: ${agent.command}`);
  });
});

describe('boardbridge run with an agent that waits on the network while it starts (stand-in agent: no real agent checks a login over the network offline)', { timeout: 90_000 }, () => {
  it('is not stopped as quiet while its TCP connection waits for an answer longer than the quiet bound, and then runs', async () => {
    const { root, sketch } = tempSketch();
    // A login server that accepts at once and answers only after longer than the agent may be quiet.
    const held = QUIET_MS + 5000;
    let connected = false;
    const server = createServer((socket) => {
      connected = true;
      setTimeout(() => socket.end('ok\n'), held).unref();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const agentCommand = [standinLaunch.command, ...standinLaunch.args].map(quote).join(' ');
      const r = await runCli(['run', 'hi', '--workspace', sketch, '--agent-command', agentCommand], { env: { ...env(root), STANDIN_START_AFTER: String(port) } });
      expect(connected).toBe(true);
      expect(r.stderr).not.toMatch(/did not answer initialize/);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('stopping with end_turn');
    } finally {
      server.close();
    }
  });
});

describe('boardbridge chat with an agent that cannot start (tmux)', { timeout: 90_000 }, () => {
  const terminal = { TERM: 'xterm-256color', NO_COLOR: '1', LANG: 'C.UTF-8' };
  const chat = (root: string, sketch: string, agentCommand: string) =>
    TmuxScreen.start([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', agentCommand], { ...env(root), ...terminal });

  it('ends, with the agent’s stderr and the next step, when the agent never answers initialize', async () => {
    const { root, sketch } = tempSketch();
    const agent = brokenAgent(root, 'sleeps');
    const screen = chat(root, sketch, agent.command);
    const ended = await screen.waitFor(/\[exit \d+\]/);
    // (Long lines wrap at the screen's width.)
    expect(ended).toMatch(/did not answer initialize: it was quiet for \d+ s/);
    expect(ended).toMatch(/\nloading plugins\nno licence server at 127\.0\.0\.1:1\n/);
    expect(ended).toContain('run it by hand:');
    expect(ended).toContain('[exit 1]');
    expect(isRunning(Number(readFileSync(agent.pidFile, 'utf8')))).toBe(false);
  });

  it('ends with the exit code and the last stderr lines when the agent exits at start', async () => {
    const { root, sketch } = tempSketch();
    const agent = brokenAgent(root, 'exits');
    const screen = chat(root, sketch, agent.command);
    const ended = await screen.waitFor(/\[exit \d+\]/);
    expect(ended).toMatch(/exited with code 5 during start-up; its last words:\nloading plugins\nno licence server at 127\.0\.0\.1:1/);
    expect(ended).toContain('[exit 1]');
  });

  it('ends naming the command when it does not exist', async () => {
    const { root, sketch } = tempSketch();
    const screen = chat(root, sketch, path.join(root, 'no-such-agent'));
    const ended = await screen.waitFor(/\[exit \d+\]/);
    expect(ended).toMatch(/cannot start .*no-such-agent/);
    expect(ended).toMatch(/check that .*no-such-agent is installed/);
    expect(ended).toContain('[exit 1]');
  });
});
