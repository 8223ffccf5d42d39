// `boardbridge serve` refuses what it cannot serve, saying what to do, before listening anywhere.
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { runCli, tempSketch } from '../e2e/run-cli.js';
import { startServe } from './serve-process.js';

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
      expect(served.output()).toMatch(/^boardbridge: false exited with code 1 during/m);
      const snapshot = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${served.port}/${served.token}/socket`, { headers: { Origin: `http://127.0.0.1:${served.port}` } });
        socket.once('message', (data) => {
          resolve(JSON.parse(data.toString()) as Record<string, unknown>);
          socket.close();
        });
        socket.once('error', reject);
      });
      const unavailable = snapshot.agentUnavailable as { reason: string; choices: { id: string; login?: string }[] };
      expect(unavailable.reason).toMatch(/^false exited with code 1 during/);
      expect(unavailable.choices.map((c) => c.id)).toEqual(['gemini', 'claude', 'codex']);
    } finally {
      await served.stop();
    }
  });
});
