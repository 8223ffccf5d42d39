// The CLI's own commands on a fresh machine: the default main job with no agent
// logged in, agents, doctor, and errors people can act on.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_AGENTS_BIN } from '../support/agents.js';
import { repoRoot, runCli } from './run-cli.js';

const freshHome = () => mkdtempSync(path.join(os.tmpdir(), 'bb-home-'));
// PATH without node_modules/.bin (npx adds it): what a person's shell has, with OpenCode and Qwen
// Code installed the way a person installs them (on PATH; test/ci.sh puts them in test/agents).
const PATH = [...(process.env.PATH ?? '').split(':').filter((d) => !d.includes('node_modules')), TEST_AGENTS_BIN].join(':');
const cleanEnv = (home: string) => ({ PATH, HOME: home, GEMINI_CLI_NO_RELAUNCH: 'true' });

describe('the boardbridge CLI', () => {
  it('with no agent logged in, npm start prints the options with their install and login commands and exits 0 (in a real pty)', async () => {
    const home = freshHome();
    const line = 'npm start --ignore-scripts --silent';
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn('script', ['-qfec', line, '/dev/null'], { cwd: repoRoot, env: { ...cleanEnv(home), TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (t: string) => (out += t));
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('No agent is ready yet');
    expect(r.out).toMatch(/GitHub Copilot CLI \(--agent copilot\): free/);
    expect(r.out).toContain('copilot login');
    expect(r.out).toContain('OpenCode with Ollama');
    expect(r.out).toContain('Google-account logins ended on 2026-06-18');
    expect(r.out).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('run names the problem and exits 1 when no agent is ready (scripts need a failure)', async () => {
    const r = await runCli(['run', 'hi', '--workspace', path.join(repoRoot, 'examples', 'Blink')], { env: cleanEnv(freshHome()) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no agent is ready to use');
    expect(r.stderr).toContain('boardbridge agents');
  });

  it('without credentials, a named agent stops with the variable to set', async () => {
    const r = await runCli(['chat', '--agent', 'gemini', '--workspace', path.join(repoRoot, 'examples', 'Blink')], { env: cleanEnv(freshHome()) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Gemini CLI needs authentication');
    expect(r.stderr).toContain('GEMINI_API_KEY');
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('lists the known agents and finds the ones installed in its own dependencies or on PATH', async () => {
    const r = await runCli(['agents', '--json'], { env: cleanEnv(freshHome()) });
    const agents = JSON.parse(r.stdout) as Array<{ id: string; installed: boolean; via?: string; install?: string; version?: string; authenticated: boolean }>;
    expect(agents.map((a) => a.id)).toEqual(['copilot', 'claude', 'codex', 'opencode', 'qwen', 'gemini']);
    for (const id of ['gemini', 'copilot']) expect(agents.find((a) => a.id === id)).toMatchObject({ installed: true, via: 'project', authenticated: false });
    for (const id of ['opencode', 'qwen']) expect(agents.find((a) => a.id === id)).toMatchObject({ installed: true, via: 'path', authenticated: false });
    expect(agents.find((a) => a.id === 'copilot')?.version).toMatch(/^1\.\d+\.\d+/);
    const codex = agents.find((a) => a.id === 'codex')!;
    if (!codex.installed) expect(codex.install).toContain('npm install -g');
  });

  it('doctor says what is missing and how to get it', async () => {
    const r = await runCli(['doctor'], { env: cleanEnv(freshHome()) });
    expect(r.stdout).toContain('Node.js');
    expect(r.stdout).toMatch(/Gemini CLI: installed .*; not logged in\n\s+→ set GEMINI_API_KEY/);
    expect(r.stdout).toMatch(/arduino-builder|arduino-cli/);
  });

  it('refuses an unknown agent name, listing the known ones', async () => {
    const r = await runCli(['run', 'hi', '--agent', 'cursor', '--workspace', path.join(repoRoot, 'examples', 'Blink')], { env: cleanEnv(freshHome()) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown agent "cursor"');
    expect(r.stderr).toContain('copilot, claude, codex, opencode, qwen, gemini');
  });

  it('refuses a broken config file with its path and the problem', async () => {
    const home = freshHome();
    const config = path.join(home, 'bad.json');
    writeFileSync(config, '{"agents": {"x": {"args": 3}}}');
    const r = await runCli(['run', 'hi', '--config', config, '--workspace', path.join(repoRoot, 'examples', 'Blink')], { env: cleanEnv(home) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(config);
  });
});
