// `boardbridge serve` refuses what it cannot serve, saying what to do, before listening anywhere.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { WebSocket } from 'ws';
import { KNOWN_AGENTS } from '../../bridge/agents/profiles.js';
import { repoRoot, runCli, tempSketch } from '../e2e/run-cli.js';
import { until } from '../support/until.js';
import { startServe } from './serve-process.js';

// The panel is up while the agent starts; a page then gets agent_unavailable (or a snapshot with it).
function firstUnavailable(port: number, token: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/${token}/socket`, { headers: { Origin: `http://127.0.0.1:${port}` } });
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      const found = message.type === 'agent_unavailable' ? message : message.type === 'snapshot' ? (message.agentUnavailable as Record<string, unknown> | undefined) : undefined;
      if (!found) return;
      resolve(found);
      socket.close();
    });
    socket.once('error', reject);
  });
}

describe('boardbridge serve on bad input', () => {
  it('names a missing project folder and exits 1', async () => {
    const run = await runCli(['serve', '/nonexistent/sketch', '--agent-command', 'true']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('workspace /nonexistent/sketch does not exist or is not a folder');
    expect(run.stdout).not.toContain('http://');
  });

  it('refuses a --port that is no port and an --embed-from that is no CSP source, as usage errors', async () => {
    const { sketch } = tempSketch();
    const port = await runCli(['serve', sketch, '--port', '99999', '--agent-command', 'true']);
    expect(port.code).toBe(1);
    expect(port.stderr).toContain('--port takes a port number from 0 to 65535 (got "99999")');
    const embed = await runCli(['serve', sketch, '--embed-from', "x; script-src *", '--agent-command', 'true']);
    expect(embed.code).toBe(2);
    expect(embed.stderr).toContain('--embed-from takes CSP sources');
    const idle = await runCli(['serve', sketch, '--idle-exit', '0', '--agent-command', 'true']);
    expect(idle.code).toBe(2);
    expect(idle.stderr).toContain('--idle-exit takes a number of seconds above 0 (got "0")');
  });

  it('reports an agent that does not start and still serves the panel, which offers the known agents', async () => {
    const { sketch } = tempSketch();
    const served = await startServe([sketch, '--agent-command', 'false'], { ...(process.env as Record<string, string>), BOARDBRIDGE_STATE_DIR: `${sketch}/.state` });
    try {
      const unavailable = await firstUnavailable(served.port, served.token);
      // serve's stderr and the page's message come by different ways: wait for the line itself.
      await until("serve's line about the agent", () => served.output().includes('boardbridge: false exited with code 1 during'));
      expect(served.output()).toMatch(/^boardbridge: false exited with code 1 during/m);
      expect(unavailable.reason).toMatch(/^false exited with code 1 during/);
      expect((unavailable.choices as { id: string }[]).map((c) => c.id)).toEqual(KNOWN_AGENTS.map((p) => p.id));
    } finally {
      await served.stop();
    }
  });
});

describe('boardbridge serve when the agent cannot start again', () => {
  it('offers the known agents after Restart agent fails, instead of a dead session', async () => {
    const { root, sketch } = tempSketch();
    const standin = path.join(repoRoot, 'test', 'support', 'standin-agent.mjs');
    // Starts once; every later start exits 3 at once (as a logged-out or removed agent would).
    const line = `sh -c 'test -e "$0" && exit 3; touch "$0"; exec "$1" "$2"' '${root}/started-once' '${process.execPath}' '${standin}'`;
    const served = await startServe([sketch, '--agent-command', line], { ...(process.env as Record<string, string>), BOARDBRIDGE_STATE_DIR: path.join(root, 'state') });
    const socket = new WebSocket(`ws://127.0.0.1:${served.port}/${served.token}/socket`, { headers: { Origin: `http://127.0.0.1:${served.port}` } });
    const received: Record<string, unknown>[] = [];
    socket.on('message', (data) => received.push(JSON.parse(data.toString()) as Record<string, unknown>));
    const next = async (what: (m: Record<string, unknown>) => boolean) => {
      for (let i = 0; i < 1200; i++) {
        const found = received.find(what);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no such message; got ${received.map((m) => m.type).join(', ')}`);
    };
    try {
      await new Promise((resolve) => socket.once('open', resolve));
      const started = (m: Record<string, unknown>) =>
        (m.type === 'event' && (m.event as { type: string }).type === 'session_started') || (m.type === 'snapshot' && (m.events as { type: string }[]).some((e) => e.type === 'session_started'));
      await next(started);
      socket.send(JSON.stringify({ type: 'prompt', text: 'crash now' }));
      await next((m) => m.type === 'event' && (m.event as { type: string }).type === 'agent_exited');
      socket.send(JSON.stringify({ type: 'restart' }));
      const unavailable = (await next((m) => m.type === 'agent_unavailable')) as { reason: string; choices: { id: string }[] };
      expect(unavailable.reason).toMatch(/exited with code 3 during start-up/);
      expect(unavailable.choices.map((c) => c.id)).toEqual(KNOWN_AGENTS.map((p) => p.id));
      expect(served.agentProcesses()).toBe(0);
    } finally {
      socket.close();
      await served.stop();
    }
  });
});

describe('boardbridge serve with an agent that needs a terminal login (stand-in agent)', () => {
  it('gives the panel the login command the agent offers, with the reason', async () => {
    const { root, sketch } = tempSketch();
    const standin = path.join(repoRoot, 'test', 'support', 'standin-agent.mjs');
    const env = { ...(process.env as Record<string, string>), BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), STANDIN_TERMINAL_AUTH: path.join(root, 'token') };
    const served = await startServe([sketch, '--agent-command', `${process.execPath} ${standin}`], env);
    try {
      const unavailable = await firstUnavailable(served.port, served.token);
      expect(unavailable.reason).toContain('needs authentication');
      expect(unavailable.hint).toContain(`log in: ${process.execPath} ${standin} login   (Stand-in terminal login)`);
    } finally {
      await served.stop();
    }
  });
});
