// One way to name the workspace: every command that works in a folder takes it as a positional
// path and as -w/--workspace, walked from the command table `boardbridge --help` prints, and the
// two spellings reach the same folder (the real CLI, the echo stand-in agent for the session).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandWords } from '../../boards/operations.js';
import { cliMain, repoRoot } from './run-cli.js';

const blink = path.join(repoRoot, 'examples', 'Blink');
const echoAgent = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'echo-agent.mjs')}`;
// Commands that work in no folder: what is installed, the relay an agent starts, an editor's settings.
const NO_FOLDER = ['agents', 'doctor', 'mcp', 'setup'];
// The board commands' positional paths are their operation's own arguments (a sketch, a project,
// a script; `sim`'s steps), read from the -w folder.
const BOARD = new Set(commandWords());
const OWN_ARGUMENTS = /^Usage: boardbridge [\w-]+ \[options\]( \[command\]| \[\w+(\.\.\.)?\]| <\w+(\.\.\.)?>)*$/;

function cli(args: string[], cwd = repoRoot): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliMain, ...args], { encoding: 'utf8', cwd, env: { ...process.env, HOME: mkdtempSync(path.join(os.tmpdir(), 'bb-ws-home-')) } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function commandNames(): string[] {
  return cli(['--help'])
    .stdout.split('Commands:')[1]
    .split('\n')
    .map((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1])
    .filter((name): name is string => Boolean(name) && name !== 'help');
}

const sessionCwd = (stdout: string) => (JSON.parse(stdout.split('\n')[0]) as { type: string; cwd?: string }).cwd;

describe('the workspace on the command line', { timeout: 240_000 }, () => {
  it('every command that works in a folder takes -w/--workspace and a positional path', () => {
    const names = commandNames();
    expect(names).toEqual(expect.arrayContaining(['chat', 'run', 'context', 'serve', 'acp', 'undo', 'compile', 'simulate', ...NO_FOLDER]));
    for (const name of names.filter((n) => !NO_FOLDER.includes(n))) {
      const help = cli([name, '--help']).stdout;
      expect(help, name).toMatch(/-w, --workspace <dir>/);
      expect(help.split('\n')[0], name).toMatch(name === 'run' ? /\[path\] <prompt>/ : BOARD.has(name) ? OWN_ARGUMENTS : /\[path\]/);
    }
  });

  it('context prints the same for a path and for -w', () => {
    const byPath = cli(['context', blink, '--json']);
    const byFlag = cli(['context', '-w', blink, '--json']);
    expect(byPath.status, byPath.stderr).toBe(0);
    expect(byFlag.stdout).toBe(byPath.stdout);
  });

  it('run starts the agent in the folder named either way', () => {
    for (const args of [['run', blink, 'hi'], ['run', '-w', blink, 'hi'], ['run', '--workspace', blink, 'hi']]) {
      const r = cli([...args, '--json', '--agent-command', echoAgent], os.tmpdir());
      expect(sessionCwd(r.stdout), `${args.join(' ')}: ${r.stderr}`).toBe(blink);
    }
  });

  it('undo reads the journal of the folder named either way', () => {
    for (const args of [['undo', '--list', blink], ['undo', '--list', '-w', blink]]) expect(cli(args, os.tmpdir()).stdout).toContain(`no agent writes recorded for ${blink}`);
  });

  it('a board command resolves its sketch from the -w folder as from its own path', () => {
    // No board in the folder: both stop at the same sketch with the same advice.
    const folder = path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', 'Blink');
    const byPath = cli(['compile', folder], os.tmpdir());
    const byFlag = cli(['compile', '-w', folder], os.tmpdir());
    expect(byPath.stderr + byPath.stdout).toContain(folder);
    expect(byFlag.stderr + byFlag.stdout).toBe(byPath.stderr + byPath.stdout);
    expect(byFlag.status).toBe(byPath.status);
  });

  it('refuses two different folders, naming both', () => {
    const r = cli(['context', blink, '-w', os.tmpdir()]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`two workspaces, ${blink} and -w ${os.tmpdir()}`);
  });
});
