// The CLI's own commands on a fresh machine: the default main job without
// credentials, agents, doctor, and errors people can act on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run-cli.js';

const freshHome = () => mkdtempSync(path.join(os.tmpdir(), 'bb-home-'));
// PATH without node_modules/.bin (npx adds it): what a person's shell has.
const PATH = (process.env.PATH ?? '').split(':').filter((d) => !d.includes('node_modules')).join(':');
const cleanEnv = (home: string) => ({ PATH, HOME: home, GEMINI_CLI_NO_RELAUNCH: 'true' });

describe('the boardbridge CLI', () => {
  it('starts the default chat (Gemini CLI on the example sketch) and, without credentials, names the variable to set', async () => {
    const home = freshHome();
    const r = await runCli(['chat', '--workspace', path.join(repoRoot, 'examples', 'Blink')], { env: cleanEnv(home) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Gemini CLI needs authentication');
    expect(r.stderr).toContain('GEMINI_API_KEY');
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('lists the known agents and finds the ones installed in its own dependencies', async () => {
    const r = await runCli(['agents', '--json'], { env: cleanEnv(freshHome()) });
    const agents = JSON.parse(r.stdout) as Array<{ id: string; installed: boolean; via?: string; install?: string }>;
    expect(agents.map((a) => a.id)).toEqual(['gemini', 'claude', 'codex']);
    expect(agents.find((a) => a.id === 'gemini')).toMatchObject({ installed: true, via: 'project' });
    const codex = agents.find((a) => a.id === 'codex')!;
    if (!codex.installed) expect(codex.install).toContain('npm install -g');
  });

  it('doctor says what is missing and how to get it', async () => {
    const r = await runCli(['doctor'], { env: cleanEnv(freshHome()) });
    expect(r.stdout).toContain('Node.js');
    expect(r.stdout).toMatch(/Gemini CLI: .*credentials: no GEMINI_API_KEY/);
    expect(r.stdout).toMatch(/arduino-builder|arduino-cli/);
  });

  it('refuses an unknown agent name, listing the known ones', async () => {
    const r = await runCli(['run', 'hi', '--agent', 'copilot', '--workspace', path.join(repoRoot, 'examples', 'Blink')], { env: cleanEnv(freshHome()) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown agent "copilot"');
    expect(r.stderr).toContain('gemini, claude, codex');
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
