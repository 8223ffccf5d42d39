// The CLI against a stand-in ACP agent (test/support/standin-agent.mjs), for the
// protocol situations no real agent here produces offline: every stop reason,
// a crash mid-turn, noise on stdout, authentication, unknown methods.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliMain, ofType, repoRoot, runCli, tempSketch } from './run-cli.js';

const standin = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')}`;

function run(prompt: string, env: Record<string, string> = {}, extra: string[] = []) {
  const { root, sketch } = tempSketch();
  const result = runCli(['run', prompt, '--json', '--workspace', sketch, '--agent-command', standin, ...extra], {
    env: { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), ...env },
  });
  return { sketch, result };
}

describe('boardbridge run with a stand-in agent', () => {
  it.each(['max_tokens', 'max_turn_requests', 'refusal'] as const)('keeps stop reason %s distinct to the end and exits 3', async (reason) => {
    const { result } = run(`please stop:${reason}`);
    const r = await result;
    expect(ofType(r.events, 'stop')).toEqual([{ type: 'stop', stopReason: reason }]);
    expect(r.code).toBe(3);
  });

  it('ends the turn with a clear error when the agent crashes mid-turn', async () => {
    const r = await run('crash').result;
    expect(r.code).toBe(1);
    const errors = ofType(r.events, 'error');
    expect(errors[0]).toMatchObject({ code: 'agent_exited' });
    expect(errors[0].message).toContain('exited with code 7');
    expect(errors[0].hint).toContain('nothing written is lost');
  });

  it('says to run the agent by hand when it exits before a session starts, not that nothing is lost', async () => {
    const { sketch } = tempSketch();
    const r = await runCli(['run', 'hi', '--json', '--workspace', sketch, '--agent-command', "sh -c 'exit 3'"], {});
    expect(r.code).toBe(1);
    const [error] = ofType(r.events, 'error');
    expect(error).toMatchObject({ code: 'agent_exited', message: 'sh exited with code 3 during start-up' });
    // The doctor hint is written as this CLI is run here (`boardbridge`, `npx boardbridge` in the clone, or `node <path>`).
    expect(error.hint).toMatch(/^run it by hand to see why it stops: sh -c 'exit 3'; or run: (boardbridge|npx boardbridge|node \S+) doctor$/);
  });

  it('keeps the file the agent wrote before crashing, and its journal entry', async () => {
    const { root, sketch } = tempSketch();
    const target = path.join(sketch, 'notes.txt');
    const r = await runCli(['run', `crash after writing ${target}`, '--json', '--workspace', sketch, '--agent-command', standin], {
      env: { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
    });
    expect(readFileSync(target, 'utf8')).toBe('written before the crash\n');
    expect(ofType(r.events, 'file_written')[0]).toMatchObject({ path: target, created: true });
  });

  it('skips non-JSON lines the agent prints on stdout instead of failing', async () => {
    const r = await run('make some noise').result;
    expect(r.code, r.stderr).toBe(0);
    expect(ofType(r.events, 'message_chunk').map((e) => e.text).join('')).toContain('still fine after noise');
  });

  it('answers a request it does not know with -32601', async () => {
    const r = await run('call unknown-method').result;
    expect(ofType(r.events, 'message_chunk').map((e) => e.text).join('')).toContain('error code -32601');
  });

  it('authenticates and retries session/new once when the agent answers -32000', async () => {
    const r = await run('hello', { STANDIN_REQUIRE_AUTH: '1', STANDIN_API_KEY: 'k' }, []).result;
    // The stand-in has a single agent-type auth method, so the bridge may use it.
    expect(r.code, r.stderr).toBe(0);
  });

  it('names what to do when authentication fails, without a stack trace', async () => {
    const r = await run('hello', { STANDIN_REQUIRE_AUTH: '1' }).result;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('needs authentication');
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('says clearly when the agent command does not exist', async () => {
    const { root, sketch } = tempSketch();
    const r = await runCli(['run', 'hi', '--workspace', sketch, '--agent-command', 'no-such-agent-xyz --acp'], { env: { PATH: process.env.PATH ?? '', HOME: root } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot start no-such-agent-xyz');
    expect(r.stderr).toContain('boardbridge doctor');
  });

  it('names the agent and its exit when it dies at start, not a broken pipe', async () => {
    const { root, sketch } = tempSketch();
    const r = await runCli(['run', 'hi', '--workspace', sketch, '--agent-command', 'sh -c "echo no API key here >&2; exit 4"'], { env: { PATH: process.env.PATH ?? '', HOME: root } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('exited with code 4 during');
    expect(r.stderr).toContain('no API key here');
    expect(r.stderr).not.toContain('EPIPE');
  });

  it('says clearly when the workspace does not exist', async () => {
    const r = await runCli(['run', 'hi', '--workspace', '/nonexistent/Blink', '--agent-command', standin]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('/nonexistent/Blink does not exist');
  });

  it('abandons a session/close the agent never answers with $/cancel_request, survives its late answer and exits 0', async () => {
    const { root } = tempSketch();
    const marker = path.join(root, 'close-marker');
    const r = await run('hello', { STANDIN_CLOSE_MARKER: marker }).result;
    expect(r.code, r.stderr).toBe(0);
    expect(ofType(r.events, 'session_closed')).toEqual([]);
    expect(readFileSync(marker, 'utf8')).toBe('aborted: -32800 Request cancelled');
    expect(r.stderr).not.toContain('ERR_INVALID_STATE');
  });
});

describe('additionalDirectories on session/new (stand-in agent)', () => {
  it('names the installed platform folders the context reads when the agent supports it, and nothing otherwise', async () => {
    const withDirs = await run('show-dirs', { STANDIN_DIRS: '1' }).result;
    expect(withDirs.code, withDirs.stderr).toBe(0);
    const said = ofType(withDirs.events, 'message_chunk').map((e) => e.text).join('');
    const dirs = JSON.parse(said.replace('additionalDirectories: ', '')) as string[];
    // The context's read-only roots, less those inside another (the core and variant sit in the platform folder).
    const context = execFileSync(process.execPath, [cliMain, 'context', '--json', path.join(repoRoot, 'examples', 'Blink')], { encoding: 'utf8' });
    const roots = (JSON.parse(context) as { readOnlyRoots: string[] }).readOnlyRoots;
    expect(roots.length).toBeGreaterThan(0);
    expect(dirs).toEqual(roots.filter((r) => !roots.some((o) => o !== r && r.startsWith(o + '/'))).sort());
    const without = await run('show-dirs').result;
    expect(ofType(without.events, 'message_chunk').map((e) => e.text).join('')).toBe('additionalDirectories: null');
  });
});
