import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandTable } from '../../boards/command.js';
import { WorkspaceGuard } from '../../bridge/services/fs/workspace-guard.js';
import { FACE_OUTPUT_BUDGET, TerminalService, type TerminalEvent } from '../../bridge/services/terminal/terminal-service.js';
import { alive } from '../support/process-alive.js';

const workspace = mkdtempSync(path.join(os.tmpdir(), 'bb-term-'));
let service: TerminalService;

function make(commands?: CommandTable, onEvent?: (event: TerminalEvent) => void, authorize: (commandLine: string) => string | undefined = () => undefined) {
  service = new TerminalService({ guard: new WorkspaceGuard([workspace]), commands, onEvent, authorize });
  return service;
}


afterEach(async () => {
  await service?.releaseAll();
});

describe('the terminal service', () => {
  it('runs a shell line given without args in the workspace, like Zed', async () => {
    const t = make();
    const { terminalId } = t.create({ sessionId: 's', command: 'echo "$PWD" && echo err >&2 && exit 3' });
    expect(await t.waitForExit(terminalId)).toEqual({ exitCode: 3, signal: null });
    const out = t.output(terminalId);
    expect(out.output).toContain(workspace);
    expect(out.output).toContain('err');
    expect(out.exitStatus).toEqual({ exitCode: 3, signal: null });
  });

  it('runs a program with args directly and applies the env it is given', async () => {
    const t = make();
    const { terminalId } = t.create({ sessionId: 's', command: 'node', args: ['-e', 'console.log(process.env.BOARD)'], env: [{ name: 'BOARD', value: 'uno' }] });
    await t.waitForExit(terminalId);
    expect(t.output(terminalId).output.trim()).toBe('uno');
  });

  it('keeps output under outputByteLimit by dropping the beginning', async () => {
    const t = make();
    const { terminalId } = t.create({ sessionId: 's', command: 'for i in $(seq 1 2000); do echo "line $i"; done', outputByteLimit: 100 });
    await t.waitForExit(terminalId);
    const out = t.output(terminalId);
    expect(out.truncated).toBe(true);
    expect(Buffer.byteLength(out.output)).toBeLessThanOrEqual(100);
    expect(out.output.trimEnd().endsWith('line 2000')).toBe(true);
  });

  it('refuses a cwd outside the workspace', () => {
    const t = make();
    expect(() => t.create({ sessionId: 's', command: 'ls', cwd: '/etc' })).toThrow(/outside the workspace/);
  });

  it('names a missing cwd instead of failing to spawn the shell', () => {
    const t = make();
    const cwd = path.join(workspace, 'build', 'not-yet');
    expect(() => t.create({ sessionId: 's', command: 'ls', cwd })).toThrow(`the terminal's cwd ${cwd} does not exist`);
    expect(t.size).toBe(0);
  });

  it('refuses a command the policy does not authorize, reports it, and starts nothing', () => {
    const events: TerminalEvent[] = [];
    const marker = path.join(workspace, 'ran');
    const t = make(undefined, (e) => events.push(e), (line) => `no grant covers "${line}"`);
    expect(() => t.create({ sessionId: 's', command: `touch ${marker}` })).toThrow(/Permission denied: no grant covers/);
    expect(() => t.create({ sessionId: 's', command: 'touch', args: [marker] })).toThrow(/Permission denied/);
    expect(events).toEqual([
      { type: 'terminal_refused', command: `touch ${marker}`, reason: `no grant covers "touch ${marker}"` },
      { type: 'terminal_refused', command: `touch ${marker}`, reason: `no grant covers "touch ${marker}"` },
    ]);
    expect(t.size).toBe(0);
  });

  it('runs read-only board commands without asking, and asks for the others', async () => {
    const asked: string[] = [];
    const commands: CommandTable = new Map([
      ['ports', async (_argv, io) => (io.write('/dev/ttyACM0\n'), 0)],
      ['compile', async () => 0],
    ]);
    const t = make(commands, undefined, (line) => (asked.push(line), 'not granted'));
    const { terminalId } = t.create({ sessionId: 's', command: 'boardbridge ports' });
    expect(await t.waitForExit(terminalId)).toEqual({ exitCode: 0, signal: null });
    expect(() => t.create({ sessionId: 's', command: 'boardbridge compile --fqbn arduino:avr:uno' })).toThrow(/Permission denied/);
    expect(asked).toEqual(['boardbridge compile --fqbn arduino:avr:uno']);
  });

  it('kills the whole process group, and the terminal stays readable after kill', async () => {
    const t = make();
    const pidFile = path.join(workspace, 'child.pid');
    const { terminalId } = t.create({ sessionId: 's', command: `sleep 300 & echo $! > ${pidFile}; echo started; wait` });
    while (!t.output(terminalId).output.includes('started')) await new Promise((r) => setTimeout(r, 20));
    const { readFileSync } = await import('node:fs');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(grandchild)).toBe(true);
    await t.kill(terminalId);
    const exit = await t.waitForExit(terminalId);
    expect(exit.signal ?? exit.exitCode).toBeTruthy();
    while (alive(grandchild)) await new Promise((r) => setTimeout(r, 20));
    expect(t.output(terminalId).output).toContain('started');
  });

  it('release ends a running command and forgets the terminal', async () => {
    const t = make();
    const { terminalId } = t.create({ sessionId: 's', command: 'sleep 300' });
    await t.release(terminalId);
    expect(() => t.output(terminalId)).toThrow(/no terminal/);
    expect(t.size).toBe(0);
  });

  it('runs `boardbridge <command>` in-process through the board command table, abortable by kill', async () => {
    const seen: string[][] = [];
    const commands: CommandTable = new Map([
      [
        'monitor',
        async (argv, io) => {
          seen.push(argv);
          io.write('Blink ready\n');
          await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve()));
          io.write('monitor closed\n');
          return 0;
        },
      ],
    ]);
    const t = make(commands);
    const { terminalId } = t.create({ sessionId: 's', command: 'boardbridge monitor --port /dev/ttyACM0 --baud 9600' });
    while (!t.output(terminalId).output.includes('Blink ready')) await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual([['--port', '/dev/ttyACM0', '--baud', '9600']]);
    await t.kill(terminalId);
    expect(t.output(terminalId).output).toContain('monitor closed');
  });

  it('sends a boardbridge line with shell syntax to the real shell instead', async () => {
    const calls: string[][] = [];
    const t = make(new Map([['ports', async (argv) => (calls.push(argv), 0)]]));
    writeFileSync(path.join(workspace, 'x'), '');
    const { terminalId } = t.create({ sessionId: 's', command: 'boardbridge ports | cat' });
    await t.waitForExit(terminalId);
    expect(calls).toEqual([]);
  });

  it('streams the output to faces as it arrives, whole characters only, and stops at the face budget', async () => {
    const faces: TerminalEvent[] = [];
    // 'é' is split across two writes; then far more than the faces are shown.
    const script = `process.stdout.write(Buffer.from([0x63, 0x61, 0x66, 0xc3])); setTimeout(() => { process.stdout.write(Buffer.from([0xa9, 0x0a])); process.stdout.write('x'.repeat(${FACE_OUTPUT_BUDGET + 5000})); }, 50)`;
    const t = make(undefined, (e) => faces.push(e));
    const { terminalId } = t.create({ sessionId: 's', command: 'node', args: ['-e', script] });
    await t.waitForExit(terminalId);
    const outputs = faces.filter((e): e is Extract<TerminalEvent, { type: 'terminal_output' }> => e.type === 'terminal_output');
    expect(outputs.every((e) => e.terminalId === terminalId && !e.text.includes('\ufffd'))).toBe(true);
    const shown = outputs.map((e) => e.text).join('');
    expect(shown.startsWith('café\n')).toBe(true);
    expect(Buffer.byteLength(shown)).toBe(FACE_OUTPUT_BUDGET);
    expect(outputs.filter((e) => e.truncated)).toHaveLength(1);
    expect(outputs.at(-1)?.truncated).toBe(true);
    // The agent still gets everything up to its own limit.
    expect(t.output(terminalId).output).toBe('café\n' + 'x'.repeat(FACE_OUTPUT_BUDGET + 5000));
    expect(faces.map((e) => e.type)).toEqual(['terminal_started', ...outputs.map(() => 'terminal_output'), 'terminal_exited']);
  });

  it('streams what an in-process board command writes', async () => {
    const faces: TerminalEvent[] = [];
    const t = make(new Map([['compile', async (_argv, io) => (io.write('Blink.ino:6:3: error: x was not declared\n'), 1)]]), (e) => faces.push(e));
    const { terminalId } = t.create({ sessionId: 's', command: 'boardbridge compile' });
    expect(await t.waitForExit(terminalId)).toEqual({ exitCode: 1, signal: null });
    expect(faces.find((e) => e.type === 'terminal_output')).toEqual({ type: 'terminal_output', terminalId, text: 'Blink.ino:6:3: error: x was not declared\n' });
  });
});
