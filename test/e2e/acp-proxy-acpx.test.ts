// A real third-party ACP client, acpx (npm, run with Node 22 from the npm package
// `node`, both in test/clients), drives `boardbridge acp` in front of the real
// claude-code-acp, offline against the scripted model server.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLaunch, type AgentName } from '../support/agents.js';
import { startModelServer, type ModelScript, type ModelServer } from '../support/model-server/index.js';
import { startEmulatedUno, type EmulatedUno } from '../rig/emulated-uno.js';
import { groupGone } from '../support/process-alive.js';
import { REFUSED_META_KEY, REFUSED_TEXT } from '../../bridge/proxy/refused-call.js';
import { cliMain, repoRoot, runCli } from './run-cli.js';

const clients = path.join(repoRoot, 'test', 'clients', 'node_modules');
const node22 = path.join(clients, 'node', 'bin', 'node');
const acpxCli = path.join(clients, 'acpx', 'dist', 'cli.js');
const servers: ModelServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

interface AcpxRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The proxy's log file. */
  log: string;
  server: ModelServer;
  sketch: string;
  root: string;
}

function blinkSketch(root: string): string {
  const sketch = path.join(root, 'Blink');
  mkdirSync(sketch);
  writeFileSync(path.join(sketch, 'Blink.ino'), 'void setup() { pinMode(13, OUTPUT); }\nvoid loop() { digitalWrite(13, HIGH); }\n');
  return sketch;
}

interface AcpxOptions {
  agent?: AgentName;
  acpxArgs?: string[];
  onStdout?: (text: string, child: { kill(s: NodeJS.Signals): void }) => void;
  /** The workspace acpx opens (default: the Blink sketch folder). */
  workspace?: (root: string) => string;
}

async function runAcpx(script: (sketch: string) => ModelScript, prompt: string, options: AcpxOptions = {}): Promise<AcpxRun> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bb-acpx-'));
  const sketch = options.workspace?.(root) ?? blinkSketch(root);
  const server = await startModelServer(script(sketch));
  servers.push(server);
  const launch = agentLaunch(options.agent ?? 'claude-code-acp', server.url, root);
  const logFile = path.join(root, 'acp.log');
  const agentCommand = [process.execPath, cliMain, 'acp', '--fqbn', 'arduino:avr:uno', '--log-file', logFile, '--agent-command', `'${[launch.command, ...launch.args].join(' ')}'`].join(' ');
  const child = spawn(node22, [acpxCli, '--agent', agentCommand, '--cwd', sketch, '--format', 'json', ...(options.acpxArgs ?? ['--approve-all']), 'exec', prompt], {
    cwd: sketch,
    env: { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    options.onStdout?.(stdout, child);
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, stdout, stderr, log: existsSync(logFile) ? readFileSync(logFile, 'utf8') : '', server, sketch, root };
}

interface WireLine {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

/** acpx --format json prints the ACP traffic it sees, one message a line. */
function wire(stdout: string): WireLine[] {
  return stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as WireLine);
}

function agentPid(log: string): number {
  const match = /started .* \(pid (\d+), its own process group\)/.exec(log);
  if (!match) throw new Error(`no agent pid in the proxy log:\n${log}`);
  return Number(match[1]);
}


/** The messages of a scripted model request, without the tool descriptions (which name the board too). */
function messagesOf(request: { body?: unknown }): string {
  return JSON.stringify((request.body as { messages?: unknown }).messages ?? []);
}

describe('acpx (a real ACP client) drives boardbridge acp in front of the real claude-code-acp: the board context in any workspace', () => {
  it('tells the model the board of the sketch below a project root (firmware/firmware.ino)', async () => {
    const run = await runAcpx(() => ({ turns: [{ replies: [{ say: 'It is an Uno.' }] }] }), 'Which board is this?', {
      workspace: (root) => {
        const project = path.join(root, 'project');
        mkdirSync(path.join(project, 'firmware'), { recursive: true });
        writeFileSync(path.join(project, 'README.md'), '# A project\n');
        writeFileSync(path.join(project, 'firmware', 'firmware.ino'), 'void setup() { pinMode(13, OUTPUT); }\nvoid loop() {}\n');
        return project;
      },
    });
    expect(run.code, run.stderr).toBe(0);
    const scripted = run.server.requests.filter((r) => r.handledAs === 'script');
    expect(messagesOf(scripted[0])).toContain('Arduino board: Arduino UNO');
    expect(messagesOf(scripted[0])).toContain('The sketch is firmware/firmware.ino');
    // acpx showed the person which sketch it is.
    expect(run.stdout).toContain('[boardbridge] The sketch is firmware/firmware.ino');
  }, 180_000);

  it('tells the model the board for a folder holding only sketch.ino, with the note that Arduino wants Name/Name.ino', async () => {
    const run = await runAcpx(() => ({ turns: [{ replies: [{ say: 'It is an Uno.' }] }] }), 'Which board is this?', {
      workspace: (root) => {
        const folder = path.join(root, 'loose');
        mkdirSync(folder);
        writeFileSync(path.join(folder, 'sketch.ino'), 'void setup() { pinMode(13, OUTPUT); }\nvoid loop() {}\n');
        return folder;
      },
    });
    expect(run.code, run.stderr).toBe(0);
    const scripted = run.server.requests.filter((r) => r.handledAs === 'script');
    expect(messagesOf(scripted[0])).toContain('Arduino board: Arduino UNO');
    expect(messagesOf(scripted[0])).toContain('Arduino compiles a sketch only as Name/Name.ino');
  }, 180_000);
});

describe('acpx (a real ACP client) drives boardbridge acp in front of the real claude-code-acp', () => {
  let uno: EmulatedUno | undefined;
  beforeAll(() => {
    if (!existsSync(node22) || !existsSync(acpxCli)) throw new Error(`acpx or Node 22 is missing under ${clients}: run npm install --prefix test/clients`);
  });
  afterAll(async () => {
    await uno?.stop();
  });

  it('gives the agent the context and the board tools, edits through the client, asks the client before an upload, and ends the agent with the client', async () => {
    uno = await startEmulatedUno();
    const port = uno.port;
    const run = await runAcpx(
      (sketch) => ({
        turns: [
          {
            replies: [
              { tool: { claude: { name: 'mcp__boardbridge__board_info', input: {} } } },
              { tool: { claude: { name: 'Write', input: { file_path: path.join(sketch, 'notes.txt'), content: 'written through the client\n' } } } },
              { tool: { claude: { name: 'mcp__boardbridge__upload', input: { sketch, fqbn: 'arduino:avr:uno', port } } } },
              { say: 'All done.' },
            ],
          },
        ],
      }),
      'Describe the board, write notes and put the sketch on the board',
    );
    expect(run.code, run.stderr).toBe(0);
    const scripted = run.server.requests.filter((r) => r.handledAs === 'script');
    // The context went with the first prompt, as an embedded resource (claude takes embedded context).
    expect(JSON.stringify(scripted[0].body)).toContain('#boardbridge-hardware-context');
    expect(JSON.stringify(scripted[0].body)).toContain('Arduino board: Arduino UNO');
    // The board MCP tool was answered by the bridge.
    expect(scripted[1].conversation?.lastToolResult).toMatch(/^# Arduino board: Arduino UNO — `arduino:avr:uno`/);
    // The edit went through the client's fs/write_text_file; the proxy wrote nothing itself (its journal, if any, holds no write).
    const messages = wire(run.stdout);
    const writes = messages.filter((m) => m.method === 'fs/write_text_file');
    expect(writes.map((m) => m.params?.path)).toEqual([path.join(run.sketch, 'notes.txt')]);
    expect(readFileSync(path.join(run.sketch, 'notes.txt'), 'utf8')).toBe('written through the client\n');
    const journals = path.join(run.root, 'state', 'journal');
    const journalled = existsSync(journals) ? (readdirSync(journals, { recursive: true }) as string[]).filter((f) => f.endsWith('.jsonl')).flatMap((f) => readFileSync(path.join(journals, f), 'utf8').split('\n').filter((l) => l.includes('"type":"write"'))) : [];
    expect(journalled).toEqual([]);
    // The upload asked the client, with the exact operation, and went ahead once allowed.
    const asked = messages.filter((m) => m.method === 'session/request_permission').map((m) => (m.params?.toolCall as { title: string }).title);
    // claude asks for each tool itself, the board tools too (forwarded as they are: the proxy answers no
    // permission by a tool's name); the upload then asks again, as the exact operation.
    expect(asked).toEqual(['mcp__boardbridge__board_info', `Write ${path.join(run.sketch, 'notes.txt')}`, 'mcp__boardbridge__upload', expect.stringMatching(new RegExp(`^upload .*Blink\\.ino\\.hex to .* on ${port.replace(/[/.]/g, '\\$&')}\\?$`))]);
    expect(scripted[3].conversation?.lastToolResult).toMatch(/Uploaded .*Blink\.ino\.hex/);
    // The client has exited: the agent and its process group are gone.
    expect(await groupGone(agentPid(run.log))).toBe(true);
  }, 240_000);

  it('serves a client without fs and terminals itself: the write is journalled in the workspace, the command runs in the bridge', async () => {
    const run = await runAcpx(
      (sketch) => ({
        turns: [
          {
            replies: [
              { tool: { claude: { name: 'Write', input: { file_path: path.join(sketch, 'notes.txt'), content: 'written by the bridge\n' } } } },
              { tool: { claude: { name: 'Bash', input: { command: 'echo from-the-bridge-terminal', timeout: 10_000, description: 'say hello' } } } },
              { say: 'Done.' },
            ],
          },
        ],
      }),
      'Write notes and say hello',
      { acpxArgs: ['--approve-all', '--no-fs', '--no-terminal'] },
    );
    expect(run.code, run.stderr).toBe(0);
    const messages = wire(run.stdout);
    // acpx advertised neither, so it was asked for neither.
    expect(messages.filter((m) => m.method?.startsWith('fs/') || m.method?.startsWith('terminal/'))).toEqual([]);
    expect(readFileSync(path.join(run.sketch, 'notes.txt'), 'utf8')).toBe('written by the bridge\n');
    const journals = readdirSync(path.join(run.root, 'state', 'journal'), { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl'));
    expect(journals).toHaveLength(1);
    const scripted = run.server.requests.filter((r) => r.handledAs === 'script');
    expect(scripted[2].conversation?.lastToolResult).toContain('from-the-bridge-terminal');
  }, 180_000);

  it('tells the client a Bash call the person refused as refused (status failed, the refusal first in its content and in _meta), not as a plain failure', async () => {
    const run = await runAcpx(
      () => ({ turns: [{ replies: [{ tool: { claude: { name: 'Bash', input: { command: 'echo never-ran', timeout: 10_000, description: 'say hello' } } } }, { say: 'Not run, then.' }] }] }),
      'Say hello in the terminal',
      { acpxArgs: ['--deny-all'] },
    );
    const messages = wire(run.stdout);
    const at = messages.findIndex((m) => m.method === 'session/request_permission');
    const asked = messages[at];
    const toolCallId = (asked?.params?.toolCall as { toolCallId?: string } | undefined)?.toolCallId;
    expect(toolCallId, run.stdout.slice(-3000)).toBeDefined();
    // acpx answered with the request's own reject option (ids are counted each way: the answer is the next one with its id).
    const answer = messages.slice(at + 1).find((m) => m.id === asked!.id && m.method === undefined)?.result as { outcome?: { optionId?: string } } | undefined;
    const options = (asked!.params!.options as Array<{ optionId: string; kind: string }>) ?? [];
    expect(options.find((o) => o.optionId === answer?.outcome?.optionId)?.kind).toMatch(/^reject_/);
    const updates = messages
      .filter((m) => m.method === 'session/update')
      .map((m) => m.params?.update as { sessionUpdate: string; toolCallId?: string; status?: string; content?: Array<{ type: string; content?: { text?: string } }>; _meta?: Record<string, unknown> })
      .filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === toolCallId);
    const failed = updates.filter((u) => u.status === 'failed');
    expect(failed.length, JSON.stringify(updates)).toBeGreaterThan(0);
    for (const u of failed) {
      expect(u._meta?.[REFUSED_META_KEY]).toBe(true);
      expect(u.content?.[0]).toEqual({ type: 'content', content: { type: 'text', text: REFUSED_TEXT } });
    }
    // Every later content the client got for the call still says so first.
    for (const u of updates.filter((u) => u.content)) expect(u.content?.[0]?.content?.text).toBe(REFUSED_TEXT);
    const scripted = run.server.requests.filter((r) => r.handledAs === 'script');
    expect(scripted.at(-1)?.conversation?.lastToolResult ?? '').not.toContain('never-ran\n');
  }, 180_000);

  it('names the session by the agent and the first prompt: boardbridge undo --list shows it after a session through the proxy', async () => {
    const prompt = 'Write notes for the Blink sketch';
    const run = await runAcpx(
      (sketch) => ({ turns: [{ replies: [{ tool: { claude: { name: 'Write', input: { file_path: path.join(sketch, 'notes.txt'), content: 'notes\n' } } } }, { say: 'Done.' }] }] }),
      prompt,
      { acpxArgs: ['--approve-all', '--no-fs', '--no-terminal'] },
    );
    expect(run.code, run.stderr).toBe(0);
    const list = await runCli(['undo', '--list', '--workspace', run.sketch], { env: { PATH: process.env.PATH ?? '', HOME: run.root, BOARDBRIDGE_STATE_DIR: path.join(run.root, 'state') } });
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const [, label, writes] = lines[0].split('  ');
    const [name, shown] = label.split(' — ');
    // The agent's own name from initialize, and the person's words without the context the proxy put before them.
    expect(name).toMatch(/claude/i);
    expect(shown).toBe(prompt);
    expect(writes).toBe('1 write(s)');
  }, 180_000);

  it('cancels a turn: acpx sends session/cancel through the proxy and the turn ends cancelled', async () => {
    let interrupted = false;
    const run = await runAcpx(() => ({ turns: [{ replies: [{ hang: true }] }] }), 'Wait for ever', {
      onStdout: (stdout, child) => {
        // Once the prompt is on its way and the model has been asked, interrupt acpx as a person would.
        if (interrupted || !stdout.includes('"session/prompt"')) return;
        interrupted = true;
        setTimeout(() => child.kill('SIGINT'), 1500);
      },
    });
    const messages = wire(run.stdout);
    expect(messages.some((m) => m.method === 'session/cancel'), run.stdout.slice(-2000)).toBe(true);
    const prompt = messages.find((m) => m.method === 'session/prompt');
    const answer = messages.find((m) => m.id === prompt?.id && m.method === undefined);
    expect(answer?.result?.stopReason).toBe('cancelled');
    expect(await groupGone(agentPid(run.log))).toBe(true);
  }, 180_000);

  it('works the same with gemini-cli behind the proxy: the context in its request, the board tool answered by the bridge', async () => {
    const run = await runAcpx(
      () => ({ turns: [{ replies: [{ tool: { gemini: { name: 'mcp_boardbridge_board_info', input: {} } } }, { say: 'It is an Uno.' }] }] }),
      'Which board is this?',
      { agent: 'gemini' },
    );
    expect(run.code, run.stderr).toBe(0);
    const scripted = run.server.requests.filter((r) => r.handledAs === 'script');
    expect(JSON.stringify(scripted[0].body)).toContain('Arduino board: Arduino UNO');
    expect(scripted[1].conversation?.lastToolResult).toContain('# Arduino board: Arduino UNO');
    expect(await groupGone(agentPid(run.log))).toBe(true);
  }, 180_000);
});
