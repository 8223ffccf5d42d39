// `boardbridge acp` as the process an editor starts: its stdout carries only
// ACP, the log goes to a file and stderr gets only failures, an agent's crash or
// demand for authentication reaches the editor as ACP errors, and closing stdin
// ends the agent's process group. The agent is the stand-in (test/support/standin-agent.mjs).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, groupGone } from '../support/process-alive.js';
import { tempTree } from '../support/temp-tree.js';
import { until } from '../support/until.js';
import { cliMain, repoRoot } from './run-cli.js';

const standin = path.join(repoRoot, 'test', 'support', 'standin-agent.mjs');
type Wire = { jsonrpc?: string; id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number; message: string } };

class EditorProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  stderr = '';
  readonly logFile: string;
  readonly closed: Promise<number | null>;
  private nextId = 1;
  private readonly waiting = new Map<number, (m: Wire) => void>();

  /** `defaultLog`: no --log-file, and XDG_STATE_HOME in place of BOARDBRIDGE_STATE_DIR. */
  constructor(env: Record<string, string> = {}, options: { defaultLog?: boolean; agentCommand?: string; args?: string[] } = {}) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bb-acp-process-'));
    this.logFile = options.defaultLog ? path.join(dir, 'xdg-state', 'boardbridge', 'logs', 'acp.log') : path.join(dir, 'acp.log');
    const { BOARDBRIDGE_STATE_DIR: _ignored, ...inherited } = process.env;
    this.child = spawn(process.execPath, [cliMain, 'acp', ...(options.args ?? []), ...(options.defaultLog ? [] : ['--log-file', this.logFile]), '--agent-command', options.agentCommand ?? `${process.execPath} ${standin}`], {
      env: { ...inherited, ...env, ...(options.defaultLog ? { XDG_STATE_HOME: path.join(dir, 'xdg-state') } : { BOARDBRIDGE_STATE_DIR: path.join(dir, 'state') }) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stderr.setEncoding('utf8').on('data', (t: string) => (this.stderr += t));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      const message = JSON.parse(line) as Wire;
      if (message.id !== undefined && message.method === undefined) this.waiting.get(message.id)?.(message);
    });
    this.closed = new Promise((resolve) => this.child.once('close', resolve));
  }

  request(method: string, params: object): Promise<Wire> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }

  agentPid(): number {
    const match = /\(pid (\d+), its own process group\)/.exec(readFileSync(this.logFile, 'utf8'));
    if (!match) throw new Error(`no agent pid in ${this.logFile}`);
    return Number(match[1]);
  }
}

const editors: EditorProcess[] = [];
afterEach(() => {
  for (const e of editors.splice(0)) e.child.kill();
});

async function opened(env: Record<string, string> = {}, options: { defaultLog?: boolean } = {}): Promise<{ editor: EditorProcess; sessionId: string }> {
  const editor = new EditorProcess(env, options);
  editors.push(editor);
  const init = await editor.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  expect(init.error).toBeUndefined();
  const created = await editor.request('session/new', { cwd: mkdtempSync(path.join(os.tmpdir(), 'bb-acp-cwd-')), mcpServers: [] });
  return { editor, sessionId: created.result?.sessionId as string };
}


/** boardbridge itself, its children (the agent, the watchdogs) and the agent's process group, from /proc. */
function sessionProcesses(bridgePid: number, agentPid: number): number[] {
  const found = new Set([bridgePid]);
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === bridgePid || Number(pgrp) === agentPid) found.add(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return [...found];
}


describe('boardbridge acp ends in order: no process of the session is left 3 s after (stand-in agent with a child of its own)', () => {
  for (const [how, end] of [
    ['SIGTERM', (e: EditorProcess) => e.child.kill('SIGTERM')],
    ['stdin closed', (e: EditorProcess) => e.child.stdin.end()],
    ['SIGKILL (the watchdog ends the group)', (e: EditorProcess) => e.child.kill('SIGKILL')],
  ] as const) {
    it(`after ${how}`, async () => {
      const { editor } = await opened({ STANDIN_CHILD: '1' });
      const agentPid = editor.agentPid();
      const pids = sessionProcesses(editor.child.pid!, agentPid);
      // boardbridge, the agent, its sleep child and the agent's watchdog at least.
      expect(pids.length, JSON.stringify(pids)).toBeGreaterThanOrEqual(4);
      end(editor);
      await until('every process of the session to end', () => pids.every((pid) => !alive(pid)), { timeoutMs: 3000, stepMs: 50, detail: () => `still running: ${pids.filter((pid) => alive(pid)).join(' ')}` });
      if (how !== 'SIGKILL (the watchdog ends the group)') expect(readFileSync(editor.logFile, 'utf8')).toMatch(how === 'SIGTERM' ? /ended \(SIGTERM received\)/ : /ended \(the editor closed stdin\)/);
    }, 60_000);
  }
});

const echoAgent = path.join(repoRoot, 'test', 'support', 'echo-agent.mjs');

/** The inodes of the TCP sockets process `pid` listens on (/proc/net/tcp{,6} state 0A, matched with its fds). */
function listeningSockets(pid: number): string[] {
  const listening = new Set(
    ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
      readFileSync(file, 'utf8').split('\n').slice(1).map((line) => line.trim().split(/\s+/)).filter((f) => f[3] === '0A').map((f) => f[9]),
    ),
  );
  const own = readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]].filter((inode): inode is string => Boolean(inode));
    } catch {
      return [];
    }
  });
  return own.filter((inode) => listening.has(inode));
}

describe('boardbridge acp serves the board tools over ACP itself to an agent that declares mcpCapabilities.acp (stand-in agent: no real agent takes MCP over ACP yet)', () => {
  async function echoSession(env: Record<string, string>): Promise<{ editor: EditorProcess; servers: Array<Record<string, unknown>> }> {
    const editor = new EditorProcess(env, { agentCommand: `${process.execPath} ${echoAgent}`, args: ['--fqbn', 'arduino:avr:uno'] });
    editors.push(editor);
    await editor.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const cwd = path.join(tempTree(['Blink/Blink.ino']), 'Blink');
    const created = await editor.request('session/new', { cwd, mcpServers: [] });
    const servers = (created.result as { echo: { params: { mcpServers: Array<Record<string, unknown>> } } }).echo.params.mcpServers;
    return { editor, servers };
  }

  it('answers board_info over mcp/message, and the boardbridge process listens on no TCP port', async () => {
    const { editor, servers } = await echoSession({ ECHO_MCP_ACP: '1' });
    expect(servers).toEqual([{ type: 'acp', name: 'boardbridge', serverId: expect.any(String) }]);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const mcp = async (requestId: string, method: string, params: Record<string, unknown>) =>
      ((await editor.request('_test/call_client', { method: 'mcp/message', params: { serverId: servers[0].serverId, requestId, method, params: { ...params, _meta: meta } } })).result as { reply: Wire }).reply;
    const discovered = await mcp('d1', 'server/discover', {});
    expect(discovered.result).toMatchObject({ result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'boardbridge' } } });
    const listed = await mcp('l1', 'tools/list', {});
    expect(((listed.result as { result: { tools: { name: string }[] } }).result.tools).map((t) => t.name)).toContain('board_info');
    const called = await mcp('c1', 'tools/call', { name: 'board_info', arguments: {} });
    expect(JSON.stringify(called.result)).toMatch(/# Arduino board: Arduino UNO/);
    expect(listeningSockets(editor.child.pid!)).toEqual([]);
  }, 60_000);

  it('still gives an agent without it the loopback HTTP server (so the port check above sees ports)', async () => {
    const { editor, servers } = await echoSession({});
    expect(servers).toEqual([expect.objectContaining({ type: 'http', name: 'boardbridge', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/) })]);
    expect(listeningSockets(editor.child.pid!)).toHaveLength(1);
  }, 60_000);
});

describe('boardbridge acp as a process (stand-in agent)', () => {
  it('keeps stdout to ACP alone and stderr empty when the agent prints noise; the log file under XDG_STATE_HOME has it all; stdin closed ends the agent group', async () => {
    const { editor, sessionId } = await opened({}, { defaultLog: true });
    const answer = await editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'noise' }] });
    expect(answer.result?.stopReason).toBe('end_turn');
    for (const line of editor.lines) expect((JSON.parse(line) as Wire).jsonrpc).toBe('2.0');
    expect(editor.lines.join('\n')).toContain('still fine after noise');
    expect(editor.lines.join('\n')).not.toContain('Loading model weights');
    const pid = editor.agentPid();
    editor.child.stdin.end();
    expect(await editor.closed).toBe(0);
    expect(await groupGone(pid)).toBe(true);
    // A normal session: nothing on stderr (editors show every stderr chunk as an error).
    expect(editor.stderr).toBe('');
    const log = readFileSync(editor.logFile, 'utf8');
    expect(log).toMatch(/\[\d+\] started .* \(pid \d+, its own process group\)/);
    expect(log).toContain('standin: a chatty line on stderr');
    expect(log).toMatch(/ended \(code [^)]*\); its last words:\n(.*\n)*.*skipped stdout line \(not JSON\): Loading model weights/);
  }, 60_000);

  it('names the log file in --help and in /context', async () => {
    const help = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [cliMain, 'acp', '--help'], { env: { ...process.env, BOARDBRIDGE_STATE_DIR: '', XDG_STATE_HOME: '/xdg/state' } });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
      child.on('close', () => resolve(out));
    });
    expect(help.replace(/\s+/g, ' ')).toContain('default: /xdg/state/boardbridge/logs/acp.log');
    const { editor, sessionId } = await opened();
    const shown = await editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/context' }] });
    expect(shown.result?.stopReason).toBe('end_turn');
    expect(editor.lines.join('\n')).toContain(`(boardbridge's log: ${editor.logFile})`);
  }, 60_000);

  it('says on stderr only why an agent cannot start, and never logs it as started', async () => {
    const editor = new EditorProcess({}, { agentCommand: '/nonexistent/agent' });
    editors.push(editor);
    const init = await editor.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(init.error?.message).toMatch(/cannot start .*\/nonexistent\/agent/);
    editor.child.stdin.end();
    expect(await editor.closed).toBe(0);
    expect(editor.stderr).toMatch(/^boardbridge acp: .*could not start: spawn \/nonexistent\/agent ENOENT\n$/);
    expect(readFileSync(editor.logFile, 'utf8')).not.toContain('started');
  }, 60_000);

  it('ends the agent process group when the editor ends the proxy with SIGTERM', async () => {
    const { editor } = await opened();
    const pid = editor.agentPid();
    editor.child.kill('SIGTERM');
    expect(await editor.closed).toBe(0);
    expect(await groupGone(pid)).toBe(true);
  }, 60_000);

  it('answers the prompt of an agent that crashes mid-turn with an ACP error saying how it ended and what to do', async () => {
    const { editor, sessionId } = await opened();
    const answer = await editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'crash' }] });
    expect(answer.error?.code).toBe(-32603);
    expect(answer.error?.message).toMatch(/exited with code 7 during the session/);
    expect(answer.error?.message).toContain('boardbridge doctor');
    // The agent's last words are the error's data; stderr says the agent failed.
    expect((answer.error as { data?: { stderr?: string } }).data?.stderr).toContain('standin: fatal: the model went away');
    expect(editor.stderr).toContain('ended (code 7, signal null); its last words:\nstandin: fatal: the model went away');
    const after = await editor.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'still there?' }] });
    expect(after.error?.message).toMatch(/exited with code 7/);
  }, 60_000);

  it('passes the agent\'s -32000 on session/new to the editor, and authenticate with a retry through', async () => {
    const editor = new EditorProcess({ STANDIN_REQUIRE_AUTH: '1', STANDIN_API_KEY: 'k' });
    editors.push(editor);
    const init = await editor.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect((init.result?.authMethods as { id: string }[]).map((m) => m.id)).toEqual(['standin-key']);
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'bb-acp-cwd-'));
    const refused = await editor.request('session/new', { cwd, mcpServers: [] });
    expect(refused.error?.code).toBe(-32000);
    const auth = await editor.request('authenticate', { methodId: 'standin-key' });
    expect(auth.error).toBeUndefined();
    const created = await editor.request('session/new', { cwd, mcpServers: [] });
    expect(created.result?.sessionId).toBe('standin-session');
  }, 60_000);
});
