// The follower on real files: settings files written here as MPLAB X (rewrites in
// place) and OpenMV IDE (replaces by rename) write them; no IDE runs. Each test
// waits for what the follower reports, never for a length of time.
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IdeFollower, type Followed } from '../../bridge/panel/ide-follow.js';
import type { IdeKind } from '../../bridge/panel/ide-projects.js';
import { until } from '../support/until.js';

const followers: IdeFollower[] = [];
afterEach(() => {
  for (const follower of followers.splice(0)) follower.close();
});

function folder(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'bb-follow-'));
}

function projects(root: string, ...names: string[]): string[] {
  return names.map((name) => {
    const dir = path.join(root, name);
    mkdirSync(path.join(dir, 'nbproject'), { recursive: true });
    return dir;
  });
}

// projectui.properties as NetBeans writes it: open list, display names, the main project when one is set.
function projectui(open: string[], main?: string): string {
  const lines = open.map((dir, i) => `openProjectsURLs.${i}=file:${encodeURI(dir)}/`);
  lines.push(...open.map((dir, i) => `openProjectsDisplayNames.${i}=${path.basename(dir, '.X')}`));
  if (main) lines.push(`mainProjectURL=file:${encodeURI(main)}/`);
  return lines.join('\n') + '\n';
}

function follow(ide: IdeKind, settingsFile: string | undefined, extra: { env?: Record<string, string> } = {}) {
  const changes: Followed[] = [];
  const problems: string[] = [];
  const follower = new IdeFollower({
    ide,
    settingsFile,
    environment: extra.env ? { platform: 'linux', home: '/nonexistent', env: extra.env } : undefined,
    onChange: (followed) => changes.push(followed),
    onProblem: (message) => problems.push(message),
    pollMs: 100,
  });
  followers.push(follower);
  return { follower, changes, problems };
}

/** MPLAB X with the first of `names` open and main, followed from its settings file. */
async function followingA(...names: string[]) {
  const root = folder();
  const dirs = projects(root, ...names);
  const file = path.join(root, 'projectui.properties');
  writeFileSync(file, projectui([dirs[0]!], dirs[0]));
  const followed = follow('mplabx', file);
  await followed.follower.start();
  return { ...followed, root, file, projects: dirs };
}

const workspaces = (changes: Followed[]) => changes.map((c) => (c.kind === 'project' ? c.workspace : c.reason));

describe('following MPLAB X (settings file written as MPLAB X writes it)', () => {
  it('starts on the main project and follows an in-place rewrite that makes another project main', async () => {
    const root = folder();
    const [a, b] = projects(root, 'A.X', 'B b.X');
    const file = path.join(root, 'projectui.properties');
    writeFileSync(file, projectui([a!, b!], a), 'latin1');
    const { follower, changes } = follow('mplabx', file);
    expect(await follower.start()).toEqual({ kind: 'project', ide: 'mplabx', workspace: a, selection: {}, name: 'A.X' });
    const inode = statSync(file).ino;
    writeFileSync(file, projectui([a!, b!], b), 'latin1');
    expect(statSync(file).ino).toBe(inode);
    await until('the switch to B', () => changes.length === 1);
    expect(changes[0]).toMatchObject({ kind: 'project', workspace: b, name: 'B b.X' });
  });

  it('reports nothing for a rewrite that leaves the followed project as it was', async () => {
    const { file, follower, changes, projects: [a, b] } = await followingA('A.X', 'B.X');
    const reads = follower.reads;
    writeFileSync(file, projectui([a!, b!], a));
    await until('the rewrite to be read', () => follower.reads > reads);
    const again = follower.reads;
    writeFileSync(file, projectui([a!, b!], a) + 'recentProjectsURLs.0=file:/old/Old.X/\n');
    await until('the second rewrite to be read', () => follower.reads > again);
    expect(changes).toEqual([]);
  });

  it('says where it looked when the file is deleted, keeps watching, and follows it when it comes back', async () => {
    const { file, changes, problems, projects: [, c] } = await followingA('A.X', 'C.X');
    rmSync(file);
    await until('the missing file to be reported', () => problems.length === 1);
    expect(problems[0]).toBe(
      `no MPLAB X settings at ${file}: MPLAB X writes it within a second of opening a project or setting the main project; if it keeps its settings elsewhere (a --userdir), pass --ide-settings <file>. Watching for it.`,
    );
    writeFileSync(file, projectui([c!]));
    await until('the re-created file', () => changes.length === 1);
    expect(changes[0]).toMatchObject({ workspace: c });
  });

  it('keeps the project it follows when the file cannot be read, and follows the next good text', async () => {
    const { file, follower, changes, problems, projects: [a, b] } = await followingA('A.X', 'B.X');
    writeFileSync(file, 'openProjectsURLs.0=file:/p/J\\u00');
    await until('the unreadable text to be reported', () => problems.length === 1);
    expect(problems[0]).toBe(`cannot read MPLAB X's settings ${file}: line 1: malformed \\uXXXX escape "\\u00"; the panel stays on A.X`);
    expect(follower.current).toMatchObject({ workspace: a });
    writeFileSync(file, projectui([a!, b!], b));
    await until('the switch to B', () => changes.length === 1);
    expect(changes[0]).toMatchObject({ workspace: b });
  });

  it('reports, as a change to no project, two open projects without a main one and a main project that is gone', async () => {
    const { root, file, changes, projects: [a, b] } = await followingA('A.X', 'B.X');
    writeFileSync(file, projectui([a!, b!]));
    await until('no main project', () => changes.length === 1);
    writeFileSync(file, projectui([a!], path.join(root, 'Gone.X')));
    await until('a missing project', () => changes.length === 2);
    expect(workspaces(changes)).toEqual([
      'MPLAB X has 2 projects open and none is the main project: set one with Run → Set Main Project (or right-click the project → Set as Main Project)',
      `MPLAB X names ${path.join(root, 'Gone.X')}, which does not exist (moved or deleted?)`,
    ]);
  });
});

describe('following OpenMV IDE (settings file written as OpenMV IDE writes it)', () => {
  const ini = (scripts: string[], port = 'ttyACM0') =>
    `[OpenMV]\nLastSerialPortState=${port}\n\n[OpenMVSerialPort]\n${port}=/media/anna/CAM\n\n[RecentFiles]\nFiles=${scripts.join(', ')}\n`;

  it('follows the script and port through a replace-by-rename (a new inode), as QSaveFile writes', async () => {
    const root = folder();
    const [one, two] = projects(root, 'one', 'two');
    const first = path.join(one!, 'blob.py');
    const second = path.join(two!, 'faces.py');
    const file = path.join(root, 'OpenMVIDE.ini');
    writeFileSync(file, ini([first, second]));
    const { follower, changes } = follow('openmv', file);
    expect(await follower.start()).toEqual({
      kind: 'project',
      ide: 'openmv',
      workspace: one,
      selection: { files: [first], port: '/dev/ttyACM0' },
      name: 'blob.py',
      detail: 'port /dev/ttyACM0, drive /media/anna/CAM',
    });
    const inode = statSync(file).ino;
    writeFileSync(`${file}.tmp`, ini([second, first], 'ttyACM1'));
    renameSync(`${file}.tmp`, file);
    expect(statSync(file).ino).not.toBe(inode);
    await until('the new script', () => changes.length === 1);
    expect(changes[0]).toMatchObject({ workspace: two, selection: { files: [second], port: '/dev/ttyACM1' } });
    writeFileSync(`${file}.tmp`, ini([second, first], 'ttyACM0'));
    renameSync(`${file}.tmp`, file);
    await until('the new port', () => changes.length === 2);
    expect(changes[1]).toMatchObject({ workspace: two, selection: { files: [second], port: '/dev/ttyACM0' } });
  });

  it('waits for OpenMVIDE.ini in its default place (XDG_CONFIG_HOME) when neither it nor its folder exists yet', async () => {
    const config = folder();
    const [scripts] = projects(config, 'scripts');
    const { follower, changes, problems } = follow('openmv', undefined, { env: { XDG_CONFIG_HOME: config } });
    expect(await follower.start()).toBeUndefined();
    const file = path.join(config, 'OpenMV', 'OpenMVIDE.ini');
    expect(problems).toEqual([`no OpenMV IDE settings at ${file}: OpenMV IDE writes it only when it exits or its Options dialog closes; or pass --ide-settings <file>. Watching for it.`]);
    mkdirSync(path.dirname(file));
    writeFileSync(file, ini([path.join(scripts!, 'main.py')]));
    await until('the file to appear', () => changes.length === 1);
    expect(changes[0]).toMatchObject({ workspace: scripts, name: 'main.py' });
  });
});
