// `boardbridge run` against a stand-in hostile agent (test/support/standin-fs-agent.mjs:
// no real agent attacks its client on purpose), with real files, links, FIFOs, processes
// and signals: the workspace boundary holds against races, non-regular files never stall
// the bridge, a kill mid-write leaves no debris and an undo that tells the truth, the
// agent's processes end with the bridge, and terminals obey the permission policy.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ASK_EVERYTHING } from '../../bridge/services/permission/broker.js';
import { BridgeSession } from '../../bridge/session/bridge-session.js';
import type { BridgeEvent } from '../../bridge/session/events.js';
import { alive } from '../support/process-alive.js';
import { until } from '../support/until.js';
import { cliMain, ofType, repoRoot, runCli, tempSketch, type CliRun } from './run-cli.js';

const agentScript = path.join(repoRoot, 'test', 'support', 'standin-fs-agent.mjs');
const agentCommand = `${process.execPath} ${agentScript}`;

type Step = Record<string, unknown>;
interface ReadResult { contents: Record<string, number>; errors: Record<string, number> }
interface WriteResult { ok: number; errors: Record<string, number> }

let started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started = [];
});

function sketchWithState() {
  const { root, sketch } = tempSketch();
  const env = { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
  return { root, sketch, env };
}

async function runSteps(sketch: string, env: Record<string, string>, steps: Step[], flags: string[] = []): Promise<{ run: CliRun; results: unknown[] }> {
  const run = await runCli(['run', JSON.stringify(steps), '--json', '--workspace', sketch, '--agent-command', agentCommand, ...flags], { env });
  const text = ofType(run.events, 'message_chunk').map((e) => e.text).join('');
  if (!text) throw new Error(`the stand-in agent answered nothing (exit ${run.code}):\n${run.stderr}`);
  return { run, results: JSON.parse(text) as unknown[] };
}

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
};

// Swaps `file` for a link to `outsideFile` and `folder` for a link to `outsideFolder`, and back,
// `rounds` times (or until killed), a millisecond in each state so the bridge's requests fall on
// every step; writes `ready` after the first round. The bridge may create `folder` anew while it
// is away (an agent write into it): whatever stands at a name is replaced, and a step that loses
// such a race is tried again (a few times, then skipped).
function startSwapper(file: string, outsideFile: string, folder: string, outsideFolder: string, ready: string, rounds: number): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const [file, outsideFile, folder, outsideFolder, ready, rounds] = process.argv.slice(1);
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const put = (name, make) => {
      for (let attempt = 0; attempt < 5; attempt++) {
        try { fs.rmSync(name, { recursive: true, force: true }); make(); return; } catch {}
      }
    };
    for (let i = 0; i < Number(rounds); i++) {
      put(file + '.real', () => fs.renameSync(file, file + '.real'));
      put(file, () => fs.symlinkSync(outsideFile, file));
      put(folder + '.real', () => fs.renameSync(folder, folder + '.real'));
      put(folder, () => fs.symlinkSync(outsideFolder, folder));
      Atomics.wait(pause, 0, 0, 1);
      put(file, () => fs.renameSync(file + '.real', file));
      put(folder, () => fs.renameSync(folder + '.real', folder));
      Atomics.wait(pause, 0, 0, 1);
      if (i === 0) fs.writeFileSync(ready, '');
    }`;
  const child = spawn(process.execPath, ['-e', script, file, outsideFile, folder, outsideFolder, ready, String(rounds)], { stdio: 'ignore' });
  started.push(child);
  return child;
}

describe('a stand-in hostile agent against boardbridge run', () => {
  // The attack found 18 of 20 writes of 20 MB outside under --allow edits, and 20 of 20 under --allow all.
  it.each(['edits', 'all'])('gets no outside content and writes nothing outside (--allow %s) while a child process swaps a file and a folder for links, and undo touches nothing outside', async (allow) => {
    const { root, sketch, env } = sketchWithState();
    const outside = path.join(root, 'outside');
    mkdirSync(outside);
    const secret = path.join(outside, 'key.txt');
    writeFileSync(secret, 'secret');
    const agentText = 'agent wrote this\n';
    // The same name and content as the agent's file: a naive undo would delete it.
    writeFileSync(path.join(outside, 'out.h'), agentText);
    const outsideBefore = readdirSync(outside).map((n) => [n, statSync(path.join(outside, n)).ino, readFileSync(path.join(outside, n), 'utf8')]);
    const notes = path.join(sketch, 'notes.txt');
    const src = path.join(sketch, 'src');
    writeFileSync(notes, 'inside');
    mkdirSync(src);
    const ready = path.join(root, 'swapping');
    const swapper = startSwapper(notes, secret, src, outside, ready, 1_000_000);
    await until('the swapper to start', () => existsSync(ready));
    const { run, results } = await runSteps(sketch, env, [
      { read: notes, repeat: 300 },
      { write: path.join(src, 'out.h'), content: agentText, repeat: 100 },
      { write: path.join(src, 'capture.bin.txt'), bytes: 20 * 1024 * 1024, repeat: 5 },
      { read: notes, repeat: 300 },
    ], ['--allow', allow]);
    await stop(swapper);
    const [before, writes, bigWrites, after] = results as [ReadResult, WriteResult, WriteResult, ReadResult];
    expect(Object.keys({ ...before.contents, ...after.contents }).filter((c) => c !== 'inside')).toEqual([]);
    // The swaps happened while the agent read: some reads were refused.
    expect(Object.values({ ...before.errors }).reduce((a, b) => a + b, 0) + Object.values(after.errors).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(writes.ok + Object.values(writes.errors).reduce((a, b) => a + b, 0)).toBe(100);
    expect(bigWrites.ok + Object.values(bigWrites.errors).reduce((a, b) => a + b, 0)).toBe(5);
    expect(readdirSync(outside).map((n) => [n, statSync(path.join(outside, n)).ino, readFileSync(path.join(outside, n), 'utf8')])).toEqual(outsideBefore);
    // Every write the agent was told about landed inside, where the event says.
    for (const e of ofType(run.events, 'file_written')) expect([path.join(src, 'out.h'), path.join(src, 'capture.bin.txt')]).toContain(e.path);

    // Leave the folder swapped for the link and undo with --force: nothing outside is deleted.
    for (const name of ['notes.txt.real', 'src.real']) if (existsSync(path.join(sketch, name))) rmSync(path.join(sketch, name), { recursive: true });
    rmSync(src, { recursive: true, force: true });
    symlinkSync(outside, src);
    const undo = await runCli(['undo', '--force', '--workspace', sketch], { env });
    // Which of the agent's files landed depends on where the swapper was at each write (on a busy
    // machine every out.h write can fall on a swapped folder): undo leaves each one that did alone.
    const landed = [...new Set(ofType(run.events, 'file_written').map((e) => path.basename(e.path)))];
    expect(landed.length).toBeGreaterThan(0);
    for (const name of landed) expect(undo.stdout + undo.stderr).toMatch(new RegExp(`left src/${name.replace(/\./g, '\\.')} alone: .*symbolic link`));
    expect(readdirSync(outside).map((n) => [n, statSync(path.join(outside, n)).ino, readFileSync(path.join(outside, n), 'utf8')])).toEqual(outsideBefore);
  });

  it('refuses a read of a FIFO at once, and the next read and write still work', async () => {
    const { sketch, env } = sketchWithState();
    const fifo = path.join(sketch, 'serial.pipe');
    execFileSync('mkfifo', [fifo]);
    const ino = path.join(sketch, 'Blink.ino');
    const { run, results } = await runSteps(sketch, env, [{ read: fifo }, { write: fifo, content: 'x' }, { read: ino, line: 1, limit: 1 }, { write: path.join(sketch, 'notes.txt'), content: 'ok' }], ['--allow', 'edits']);
    expect(run.code, run.stderr).toBe(0);
    const [fifoRead, fifoWrite, inoRead, write] = results as [ReadResult, WriteResult, ReadResult, WriteResult];
    expect(Object.keys(fifoRead.errors)).toEqual([expect.stringContaining('is a FIFO (named pipe); only regular files are read or written')]);
    expect(Object.keys(fifoWrite.errors)).toEqual([expect.stringContaining('FIFO')]);
    expect(inoRead.contents).toEqual({ [readFileSync(ino, 'utf8').split('\n')[0]]: 1 });
    expect(write.ok).toBe(1);
  });

  it('answers a small read while a slow one (a line past the end of a 200 MB file) is still scanning', async () => {
    const { sketch, env } = sketchWithState();
    const big = path.join(sketch, 'dump.bin.txt');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 200 * 1024 * 1024); // sparse: cheap to make, and still 200 MB to read
    closeSync(fd);
    const { results } = await runSteps(sketch, env, [{ together: [{ read: big, line: 2, limit: 1 }, { read: path.join(sketch, 'Blink.ino'), line: 1, limit: 1 }] }]);
    const [{ results: [slow, small], finished }] = results as [{ results: [ReadResult, ReadResult]; finished: number[] }];
    expect(slow.contents).toEqual({ '': 1 });
    expect(Object.values(small.contents)).toEqual([1]);
    expect(finished).toEqual([1, 0]);
  });

  it('is not stalled by a FIFO named in an edit the agent says it makes itself', async () => {
    const { sketch, env } = sketchWithState();
    const fifo = path.join(sketch, 'serial.pipe');
    execFileSync('mkfifo', [fifo]);
    const edit = (status: string) => ({ sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit serial.pipe', kind: 'edit', status, content: [{ type: 'diff', path: fifo, oldText: null, newText: 'x' }] });
    const { run, results } = await runSteps(sketch, env, [{ update: edit('pending') }, { update: { ...edit('completed'), sessionUpdate: 'tool_call_update' } }, { read: path.join(sketch, 'Blink.ino'), line: 1, limit: 1 }]);
    expect(run.code, run.stderr).toBe(0);
    expect(Object.values((results[2] as ReadResult).contents)).toEqual([1]);
    expect(ofType(run.events, 'file_written')).toEqual([]);
  });

  it('writes a file with a 240-character name, reads lines of a file over 8 MB, and names a missing terminal cwd', async () => {
    const { sketch, env } = sketchWithState();
    const long = path.join(sketch, `${'a'.repeat(236)}.ino`);
    const big = path.join(sketch, 'capture.log');
    const fd = openSync(big, 'w');
    for (let i = 0; i < 90_000; i++) writeSync(fd, `sample ${i} ${'0123456789'.repeat(10)}\n`);
    closeSync(fd);
    expect(statSync(big).size).toBeGreaterThan(8 * 1024 * 1024);
    const missing = path.join(sketch, 'build', 'nowhere');
    const { results } = await runSteps(sketch, env, [
      { write: long, content: 'void setup() {}\n' },
      { read: long },
      { read: big },
      { read: big, line: 80_001, limit: 2 },
      { terminal: 'ls', cwd: missing },
    ], ['--allow', 'all']);
    const [written, readBack, whole, lines, terminal] = results as [WriteResult, ReadResult, ReadResult, ReadResult, { error: string }];
    expect(written).toEqual({ ok: 1, errors: {} });
    expect(readBack.contents).toEqual({ 'void setup() {}\n': 1 });
    expect(Object.keys(whole.errors)).toEqual([expect.stringContaining('read it in parts with line and limit')]);
    expect(lines.contents).toEqual({ [`sample 80000 ${'0123456789'.repeat(10)}\nsample 80001 ${'0123456789'.repeat(10)}`]: 1 });
    expect(terminal.error).toContain(`the terminal's cwd ${missing} does not exist`);
    expect(readdirSync(sketch).filter((n) => n.endsWith('.boardbridge-tmp'))).toEqual([]);
  });

  it('leaves no debris and a truthful undo after a SIGKILL of the bridge mid-write, and the agent group ends with the bridge', async () => {
    const { sketch, env } = sketchWithState();
    const pidsFile = path.join(sketch, '..', 'pids.json');
    const steps: Step[] = [{ pids: pidsFile }, { write: path.join(sketch, 'small.h'), content: '#pragma once\n' }];
    for (let i = 0; i < 40; i++) steps.push({ write: path.join(sketch, `capture-${i}.bin.txt`), bytes: 20 * 1024 * 1024 });
    const child = spawn(process.execPath, [cliMain, 'run', JSON.stringify(steps), '--json', '--workspace', sketch, '--agent-command', agentCommand, '--allow', 'edits'], { env, stdio: 'ignore' });
    started.push(child);
    const temps = () => readdirSync(sketch).filter((n) => n.endsWith('.boardbridge-tmp'));
    await until('a temporary file of a large write', () => existsSync(path.join(sketch, 'small.h')) && temps().length > 0, { timeoutMs: 50_000 });
    await stop(child);
    const pids = JSON.parse(readFileSync(pidsFile, 'utf8')) as { agent: number; child: number };
    await until('the agent and its child to end', () => !alive(pids.agent) && !alive(pids.child));

    // The next bridge to start on the workspace removes the dead one's temporary file.
    const debris = temps();
    await runSteps(sketch, env, []);
    expect(temps()).toEqual([]);

    const undo = await runCli(['undo', '--workspace', sketch], { env });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    const lines = undo.stdout.trim().split('\n');
    // The write in flight never reached its file: undo says so instead of a false conflict
    // (unless the kill came just after its rename: then the file is new and undo deletes it).
    const neverReached = lines.filter((l) => /^nothing to undo in capture-\d+\.bin\.txt: the agent's write never reached it/.test(l));
    expect(debris.length).toBeLessThanOrEqual(1);
    expect(neverReached).toHaveLength(debris.length);
    expect(lines).toContain('deleted small.h');
    expect(lines.filter((l) => l.startsWith('kept ') || l.startsWith('left '))).toEqual([]);
    expect(readdirSync(sketch).filter((n) => n.startsWith('capture-') || n === 'small.h')).toEqual([]);
  });
});

describe('processes of a killed bridge', () => {
  // `boardbridge run` whose stand-in agent waits for a terminal's `sleep 1000` (and answers
  // session/cancel with nothing): the bridge and the command's pid once it runs.
  async function runWithSleepingTerminal(): Promise<{ child: ChildProcess; pid: number }> {
    const { root, sketch, env } = sketchWithState();
    const pidFile = path.join(root, 'terminal.pid');
    const steps = [{ terminal: `echo $$ > ${pidFile}; exec sleep 1000` }];
    const child = spawn(process.execPath, [cliMain, 'run', JSON.stringify(steps), '--json', '--workspace', sketch, '--agent-command', agentCommand, '--allow', 'all'], { env, stdio: 'ignore' });
    started.push(child);
    await until('the terminal to start', () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'));
    return { child, pid: Number(readFileSync(pidFile, 'utf8')) };
  }

  it("end with it: a terminal's command is gone after a SIGKILL of boardbridge run", async () => {
    const { child, pid } = await runWithSleepingTerminal();
    expect(alive(pid)).toBe(true);
    child.kill('SIGKILL');
    await until('the terminal to end', () => !alive(pid));
  });

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`ends after a ${signal} even when the agent ignores the cancel, and its terminal's command ends with it`, async () => {
      const { child, pid } = await runWithSleepingTerminal();
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      expect(await exited).toBe(3);
      await until('the terminal to end', () => !alive(pid));
    });
  }
});

describe('terminals of a stand-in agent under the permission policy', () => {
  const touch = (sketch: string) => ({ terminal: `touch ${path.join(sketch, 'ran.txt')}` });

  it('refuses a terminal the agent creates without asking under --allow none (and after asking with nobody to grant it), and reports it', async () => {
    const { sketch, env } = sketchWithState();
    const ask = { permission: { toolCallId: 'bash-1', kind: 'execute', title: `touch ${path.join(sketch, 'ran.txt')}`, rawInput: { command: `touch ${path.join(sketch, 'ran.txt')}` } } };
    const { run, results } = await runSteps(sketch, env, [touch(sketch), ask, touch(sketch), { terminal: 'boardbridge ports' }], ['--allow', 'none']);
    const [direct, asked, afterAsking, ports] = results as [{ error: string; code: number }, { outcome: string }, { error: string }, { exitCode: number }];
    expect(direct.error).toContain('Permission denied: the policy does not allow commands (--allow all)');
    expect(direct.code).toBe(-32602);
    expect(asked.outcome).toBe('reject');
    expect(afterAsking.error).toContain('Permission denied');
    expect(existsSync(path.join(sketch, 'ran.txt'))).toBe(false);
    expect(ofType(run.events, 'error').filter((e) => e.code === 'terminal_refused')).toHaveLength(2);
    expect(ofType(run.events, 'terminal_started')).toEqual([expect.objectContaining({ command: 'boardbridge ports', inProcess: true })]);
    expect(ports.exitCode).toBe(0);
  });

  it('reads the terminal/kill an agent sends while it holds 40 terminal/wait_for_exit calls open (more than the 16 other requests it may hold)', async () => {
    const { sketch, env } = sketchWithState();
    const { results } = await runSteps(sketch, env, [{ waitMany: 40, command: 'sleep', args: ['1000'] }], ['--allow', 'all']);
    expect(results[0]).toEqual({ exits: Array(40).fill('SIGTERM') });
  });

  it('runs it under --allow all', async () => {
    const { sketch, env } = sketchWithState();
    const { results } = await runSteps(sketch, env, [touch(sketch)], ['--allow', 'all']);
    expect(results[0]).toMatchObject({ exitCode: 0 });
    expect(existsSync(path.join(sketch, 'ran.txt'))).toBe(true);
  });

  it('runs it when the person allowed the agent\'s own execute call in this turn, and not in the next turn', async () => {
    const { root, sketch } = tempSketch();
    const command = `touch ${path.join(sketch, 'ran.txt')}`;
    const events: BridgeEvent[] = [];
    const session = await BridgeSession.start({
      launch: { id: 'standin-fs', title: 'stand-in fs agent', command: process.execPath, args: [agentScript], env: {}, via: 'command' },
      workspace: sketch,
      policy: ASK_EVERYTHING,
      ask: async (pending) => pending.request.options.find((o) => o.kind === 'allow_once')?.optionId,
      env: { ...process.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
      onEvent: (e) => events.push(e),
    });
    try {
      const reply = () => JSON.parse(ofType(events.splice(0), 'message_chunk').map((e) => e.text).join('')) as unknown[];
      await session.prompt(JSON.stringify([{ permission: { toolCallId: 'bash-1', kind: 'execute', title: `\`${command}\``, rawInput: { command } } }, { terminal: command }]));
      expect(reply()).toEqual([{ outcome: 'allow' }, { exitCode: 0, output: '' }]);
      expect(existsSync(path.join(sketch, 'ran.txt'))).toBe(true);
      await session.prompt(JSON.stringify([{ terminal: command }]));
      expect(reply()).toEqual([expect.objectContaining({ error: expect.stringContaining('no permission granted in this turn covers') })]);
    } finally {
      await session.close();
    }
  });
});
