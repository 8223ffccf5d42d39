// `boardbridge serve` refuses what it cannot serve, saying what to do, before listening anywhere.
import { describe, expect, it } from 'vitest';
import { runCli, tempSketch } from '../e2e/run-cli.js';

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

  it('reports an agent that does not start, and serves nothing', async () => {
    const { sketch } = tempSketch();
    const run = await runCli(['serve', sketch, '--agent-command', 'false'], { env: { ...(process.env as Record<string, string>), BOARDBRIDGE_STATE_DIR: `${sketch}/.state` } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^boardbridge: /);
    expect(run.stdout).not.toContain('http://');
  });
});
