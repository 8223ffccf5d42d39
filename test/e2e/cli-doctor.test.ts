// `boardbridge doctor` checks what it claims, and messages name boardbridge and the agents'
// logins as they run where they are shown: the real CLI (the npm bin, dist/cli/boardbridge.cjs),
// a fresh HOME, the agents installed in boardbridge's own node_modules.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './run-cli.js';

const bundle = path.join(repoRoot, 'dist', 'cli', 'boardbridge.cjs');
// A person's PATH: no node_modules/.bin (npx adds it), so no agent is on it.
const PATH = (process.env.PATH ?? '').split(':').filter((d) => !d.includes('node_modules')).join(':');
const freshHome = () => mkdtempSync(path.join(os.tmpdir(), 'bb-doctor-'));

function cli(args: string[], options: { home?: string; cwd?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, [bundle, ...args], { encoding: 'utf8', cwd: options.cwd ?? repoRoot, env: { PATH, HOME: options.home ?? freshHome(), ...options.env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;

describe('boardbridge doctor', () => {
  it('says there is no config file instead of a ✓ for one that does not exist', () => {
    const home = freshHome();
    const r = cli(['doctor'], { home });
    expect(r.stdout).toContain(`· no config file (defaults; ${path.join(home, '.config', 'boardbridge', 'config.json')}`);
    expect(r.stdout).not.toMatch(/✓ config/);
  });

  it('gives ✓ for a config file that exists and is valid, ✗ with the problem for a broken one', () => {
    const home = freshHome();
    mkdirSync(path.join(home, '.config', 'boardbridge'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'boardbridge', 'config.json'), '{"defaultAgent": "claude"}');
    expect(cli(['doctor'], { home }).stdout).toContain(`✓ config ${path.join(home, '.config', 'boardbridge', 'config.json')}`);
    writeFileSync(path.join(home, 'bad.json'), '{"agents": 3}');
    const broken = cli(['doctor', '--config', path.join(home, 'bad.json')], { home, env: { ANTHROPIC_API_KEY: 'sk-ant-x' } });
    expect(broken.stdout).toContain(`✗ config ${path.join(home, 'bad.json')}`);
    expect(broken.status).toBe(1);
    expect(lastLine(broken.stdout)).toMatch(/^ready: claude .*, but next step: fix config file .*bad\.json: agents/);
  });

  it('tells installed from logged in, and ends with the one next step and exit 1 when no agent is ready', () => {
    const r = cli(['doctor']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/GitHub Copilot CLI: installed \S+node_modules\/\.bin\/copilot \d+\.\d+\.\d+; not logged in/);
    expect(r.stdout).not.toMatch(/^✓ (GitHub Copilot|Claude|Codex|Gemini)/m);
    // Copilot comes first (a free plan): logging in to it is the next step, as npx runs it from inside the clone.
    expect(lastLine(r.stdout)).toMatch(/^next step: GitHub Copilot CLI: log in: npx copilot login/);
  });

  it('counts a login only where the agent reads it, and ends "ready: claude" with exit 0 once Claude Code has one', () => {
    const home = freshHome();
    mkdirSync(path.join(home, '.claude'));
    // A credentials file without the token Claude Code uses (claudeAiOauth.accessToken) is no login.
    writeFileSync(path.join(home, '.claude', '.credentials.json'), '{"claudeAiOauth": {}}');
    expect(cli(['doctor'], { home }).stdout).toMatch(/Claude \(ACP adapter\): installed .*; not logged in/);
    writeFileSync(path.join(home, '.claude', '.credentials.json'), '{"claudeAiOauth": {"accessToken": "sk-ant-oat-x"}}');
    const r = cli(['doctor'], { home });
    expect(r.stdout).toMatch(/✓ Claude \(ACP adapter\): installed .*; logged in \(~\/\.claude\/\.credentials\.json\)/);
    expect(lastLine(r.stdout)).toMatch(/^ready: claude \(Claude \(ACP adapter\)\)/);
    expect(r.status).toBe(0);
  });
});

describe('messages name boardbridge as it was started', () => {
  it('installed on PATH: "boardbridge …", never "npm start"', () => {
    const bin = mkdtempSync(path.join(os.tmpdir(), 'bb-bin-'));
    symlinkSync(bundle, path.join(bin, 'boardbridge'));
    const r = cli(['agents'], { cwd: os.tmpdir(), env: { PATH: `${bin}:${PATH}` } });
    expect(r.stdout).toContain('No agent is installed and logged in yet: boardbridge chat lists the options.');
    expect(r.stdout).not.toContain('npm start');
  });

  it('outside the clone and not on PATH: node and the full path of this CLI', () => {
    const r = cli(['agents'], { cwd: os.tmpdir() });
    expect(r.stdout).toContain(`yet: ${process.execPath} ${bundle} chat lists the options.`);
  });

  it('inside the clone: npx boardbridge, which runs this CLI there', () => {
    const r = cli(['agents']);
    expect(r.stdout).toContain('yet: npx boardbridge chat lists the options.');
    // npx links the clone into its own cache once per clone path: a cache of the test's own, as a new clone has.
    const cache = mkdtempSync(path.join(os.tmpdir(), 'bb-npm-cache-'));
    const npx = () => spawnSync('npx', ['--offline', 'boardbridge', '--version'], { cwd: path.join(repoRoot, 'examples', 'Blink'), encoding: 'utf8', env: { ...process.env, PATH, npm_config_cache: cache } });
    const version = cli(['--version']).stdout.trim();
    const first = npx();
    expect(first.stdout.trim(), first.stderr).toBe(version);
    // That link stays while the clone's path does. One made when the bin was dist/cli/boardbridge.js
    // (before 218c83b) is not remade by a build that renamed it: the old name still runs this CLI.
    const [made] = readdirSync(path.join(cache, '_npx'));
    const link = path.join(cache, '_npx', made!, 'node_modules', '.bin', 'boardbridge');
    expect(readlinkSync(link)).toBe(path.join('..', 'boardbridge', 'dist', 'cli', 'boardbridge.cjs'));
    rmSync(link);
    symlinkSync(path.join('..', 'boardbridge', 'dist', 'cli', 'boardbridge.js'), link);
    const stale = npx();
    expect(stale.stdout.trim(), stale.stderr).toBe(version);
  });

  it("the logins shown run where they are shown: each adapter's own, by a path that exists", () => {
    const agents = (cwd: string) => JSON.parse(cli(['agents', '--json'], { cwd }).stdout) as Array<{ id: string; login?: string }>;
    const inside = agents(repoRoot);
    const copilot = inside.find((a) => a.id === 'copilot')!.login!;
    expect(copilot).toBe('npx copilot login');
    // It is Copilot's own command: its help lists `login`.
    const help = spawnSync('npx', ['--offline', 'copilot', '--help'], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, PATH, COPILOT_AUTO_UPDATE: 'false', HOME: freshHome() } });
    expect(help.stdout).toMatch(/^\s+login\s/m);
    // Outside the clone npx would look in the registry: the full path instead.
    expect(agents(os.tmpdir()).find((a) => a.id === 'copilot')!.login).toBe(`${path.join(repoRoot, 'node_modules', '.bin', 'copilot')} login`);
    // codex-acp offers no login command; the Codex CLI's login writes the file it reads.
    expect(inside.find((a) => a.id === 'codex')!.login).toBe('npx @openai/codex login');
    expect(inside.map((a) => a.login ?? '').join('\n')).not.toMatch(/^(claude|codex) /m);
  });
});
