// The same case through both faces that build a session: `boardbridge run` (BridgeSession)
// and `boardbridge acp` (the proxy in front of an editor), against a stand-in agent that
// writes a file itself as codex and OpenCode do (no real agent writes on cue here): the edit
// is journalled under the agent's session id in both, and `boardbridge undo` takes it back;
// and against one that takes additionalDirectories: both name the same read-only folders.
// Also a board tool that changes a device, asked through each face's voice (the policy of
// `run`, the editor's permission UI), and a cancel mid-turn with a terminal running.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalDir } from '../../bridge/services/fs/journal.js';
import { codexBinary, codexLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { alive } from '../support/process-alive.js';
import { ProxyProcess } from '../support/proxy-process.js';
import type { Wire } from '../support/scripted-editor.js';
import { ofType, repoRoot, runCli, tempSketch } from './run-cli.js';
import { until } from '../support/until.js';

const agentCommand = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'standin-fs-agent.mjs')}`;
const dirsAgent = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')}`;

/** A codex-style patch: the permission for an edit call naming the file, the agent's own write, the call completed. */
const ownEditSteps = (file: string, oldText: string | null, newText: string) => [
  { permission: { toolCallId: 'patch-1', title: 'edit notes.txt', kind: 'edit', status: 'pending', content: [{ type: 'diff', path: file, oldText, newText }] } },
  { ownWrite: file, content: newText },
  { update: { sessionUpdate: 'tool_call_update', toolCallId: 'patch-1', status: 'completed' } },
];

const faces = {
  'boardbridge run': async (sketch: string, env: Record<string, string>, steps: unknown[]) => {
    const result = await runCli(['run', JSON.stringify(steps), '--json', '--workspace', sketch, '--agent-command', agentCommand, '--allow', 'edits'], { env });
    expect(result.code, result.stderr).toBe(0);
  },
  'boardbridge acp': async (sketch: string, env: Record<string, string>, steps: unknown[]) => {
    const proxy = new ProxyProcess({ agentCommand, env });
    running.push(proxy);
    const init = await proxy.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
    expect(init.error).toBeUndefined();
    const created = await proxy.request('session/new', { cwd: sketch, mcpServers: [] });
    const { sessionId } = created.result as { sessionId: string };
    const answer = proxy.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: JSON.stringify(steps) }] });
    // The person allows the edit in the editor, as `--allow edits` does for run.
    const asked = await proxy.next((m) => m.method === 'session/request_permission');
    proxy.send({ id: asked.id, result: { outcome: { outcome: 'selected', optionId: 'allow' } } });
    const answered = await answer;
    expect(answered.result, JSON.stringify(answered.error)).toMatchObject({ stopReason: 'end_turn' });
  },
};

const running: ProxyProcess[] = [];
afterEach(() => {
  for (const proxy of running.splice(0)) proxy.kill();
});

function setUp() {
  const { root, sketch } = tempSketch();
  const env = { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
  return { sketch, env };
}

describe('one session kit behind both faces (stand-in agent that writes files itself)', () => {
  for (const [face, run] of Object.entries(faces)) {
    it(`${face}: an agent's own edit of an existing file is journalled under its session id, and undo restores the file`, async () => {
      const { sketch, env } = setUp();
      const notes = path.join(sketch, 'notes.txt');
      writeFileSync(notes, 'old\n');
      await run(sketch, env, ownEditSteps(notes, 'old\n', 'new\n'));
      expect(readFileSync(notes, 'utf8')).toBe('new\n');
      const journals = readdirSync(journalDir(sketch, env));
      expect(journals).toHaveLength(1);
      expect(journals[0]).toMatch(/-standin-fs-session\.jsonl$/);
      const undo = await runCli(['undo', '--workspace', sketch], { env });
      expect(undo.code, undo.stdout + undo.stderr).toBe(0);
      expect(readFileSync(notes, 'utf8')).toBe('old\n');
    });

    it(`${face}: a file the agent created itself is removed by undo`, async () => {
      const { sketch, env } = setUp();
      const notes = path.join(sketch, 'notes.txt');
      await run(sketch, env, ownEditSteps(notes, null, 'pin 13 has the LED\n'));
      expect(existsSync(notes)).toBe(true);
      const undo = await runCli(['undo', '--workspace', sketch], { env });
      expect(undo.code, undo.stdout + undo.stderr).toBe(0);
      expect(existsSync(notes)).toBe(false);
    });
  }
});

/** What the stand-in agent was given as additionalDirectories on session/new, through each face. */
const dirsThrough = {
  'boardbridge run': async (sketch: string, env: Record<string, string>) => {
    const result = await runCli(['run', 'show-dirs', '--json', '--workspace', sketch, '--agent-command', dirsAgent], { env });
    expect(result.code, result.stderr).toBe(0);
    return ofType(result.events, 'message_chunk').map((e) => e.text).join('');
  },
  'boardbridge acp': async (sketch: string, env: Record<string, string>) => {
    const proxy = new ProxyProcess({ agentCommand: dirsAgent, env });
    running.push(proxy);
    await proxy.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
    const { sessionId } = (await proxy.request('session/new', { cwd: sketch, mcpServers: [] })).result as { sessionId: string };
    const answer = await proxy.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'show-dirs' }] });
    expect(answer.result, JSON.stringify(answer.error)).toMatchObject({ stopReason: 'end_turn' });
    // The agent's words, not the proxy's own notice of the context it sent.
    return proxy.seen
      .map((m) => (m.params as { update?: { sessionUpdate?: string; content?: { text?: string } } } | undefined)?.update)
      .filter((u) => u?.sessionUpdate === 'agent_message_chunk' && !u.content?.text?.startsWith('[boardbridge]'))
      .map((u) => u?.content?.text ?? '')
      .join('');
  },
};

describe('the read-only platform folders offered to the agent (stand-in agent with additionalDirectories)', () => {
  it('are the same set through boardbridge run and boardbridge acp, none inside the workspace or another one', async () => {
    const said: Record<string, string[]> = {};
    for (const [face, through] of Object.entries(dirsThrough)) {
      const { sketch, env } = setUp();
      const text = await through(sketch, { ...env, STANDIN_DIRS: '1' });
      expect(text, face).toMatch(/^additionalDirectories: \[/);
      said[face] = JSON.parse(text.replace('additionalDirectories: ', '')) as string[];
    }
    expect(said['boardbridge run'].length).toBeGreaterThan(0);
    expect(said['boardbridge acp']).toEqual(said['boardbridge run']);
    const dirs = said['boardbridge run'];
    expect(dirs.filter((d) => dirs.some((o) => o !== d && d.startsWith(o + path.sep)))).toEqual([]);
  });
});

/** The stand-in agent's reply (its JSON list of step results) as the editor saw it. */
function agentReply(seen: Wire[]): unknown[] {
  const text = seen
    .map((m) => (m.params as { update?: { sessionUpdate?: string; content?: { text?: string } } } | undefined)?.update)
    .filter((u) => u?.sessionUpdate === 'agent_message_chunk' && !u.content?.text?.startsWith('[boardbridge]'))
    .map((u) => u?.content?.text ?? '')
    .join('');
  return JSON.parse(text) as unknown[];
}

async function openProxy(env: Record<string, string>, sketch: string, clientCapabilities: object = { fs: { readTextFile: true, writeTextFile: true }, terminal: true }) {
  const proxy = new ProxyProcess({ agentCommand, env });
  running.push(proxy);
  const init = await proxy.request('initialize', { protocolVersion: 1, clientCapabilities });
  expect(init.error).toBeUndefined();
  const { sessionId } = (await proxy.request('session/new', { cwd: sketch, mcpServers: [] })).result as { sessionId: string };
  return { proxy, sessionId };
}

const journalsOf = (sketch: string, env: Record<string, string>) => (existsSync(journalDir(sketch, env)) ? readdirSync(journalDir(sketch, env)) : []);

describe('a session that writes nothing (stand-in agent)', () => {
  it('leaves no journal, through boardbridge run and boardbridge acp', async () => {
    const steps = [{ read: 'missing.txt' }];
    const viaRun = setUp();
    const result = await runCli(['run', JSON.stringify(steps), '--json', '--workspace', viaRun.sketch, '--agent-command', agentCommand], { env: viaRun.env });
    expect(result.code, result.stderr).toBe(0);
    expect(journalsOf(viaRun.sketch, viaRun.env)).toEqual([]);
    const viaAcp = setUp();
    const { proxy, sessionId } = await openProxy(viaAcp.env, viaAcp.sketch, {});
    const answer = await proxy.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: JSON.stringify(steps) }] });
    expect(answer.result, JSON.stringify(answer.error)).toMatchObject({ stopReason: 'end_turn' });
    expect(journalsOf(viaAcp.sketch, viaAcp.env)).toEqual([]);
  });
});

/** A board tool that changes a device (runs a script on an OpenMV camera), on a port that does not exist. */
const PORT = '/dev/bb-no-such-port';
const runScript = [{ mcp: 'run_script', arguments: { file: 'main.py', port: PORT } }];
const QUESTION = `run main.py on the camera on ${PORT} (it replaces what runs there)?`;

/** The tool's result the stand-in agent got, and the questions the person was asked, with the person answering `allow`. */
const deviceThrough = {
  'boardbridge run': async (allow: boolean) => {
    const { sketch, env } = setUp();
    writeFileSync(path.join(sketch, 'main.py'), 'print("hello")\n');
    const flags = allow ? ['--allow-device'] : [];
    const result = await runCli(['run', JSON.stringify(runScript), '--json', '--workspace', sketch, '--agent-command', agentCommand, ...flags], { env: { ...env, STANDIN_MCP_HTTP: '1' } });
    expect(result.code, result.stderr).toBe(0);
    const asked = ofType(result.events, 'permission_request').map((e) => e.toolCall.title);
    const [reply] = JSON.parse(ofType(result.events, 'message_chunk').map((e) => e.text).join('')) as { text: string; isError: boolean }[];
    return { reply, asked };
  },
  'boardbridge acp': async (allow: boolean) => {
    const { sketch, env } = setUp();
    writeFileSync(path.join(sketch, 'main.py'), 'print("hello")\n');
    const { proxy, sessionId } = await openProxy({ ...env, STANDIN_MCP_HTTP: '1' }, sketch);
    const answer = proxy.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: JSON.stringify(runScript) }] });
    const question = await proxy.next((m) => m.method === 'session/request_permission');
    proxy.send({ id: question.id, result: { outcome: { outcome: 'selected', optionId: allow ? 'allow' : 'reject' } } });
    expect((await answer).result).toMatchObject({ stopReason: 'end_turn' });
    const [reply] = agentReply(proxy.seen) as { text: string; isError: boolean }[];
    return { reply, asked: [(question.params as { toolCall: { title: string } }).toolCall.title] };
  },
};

describe('a board tool that changes a device, asked through each face (stand-in agent with HTTP MCP)', () => {
  it('is refused with the same words when the person does not allow it: the --allow policy of run, the editor\'s Reject in acp', async () => {
    const said: Record<string, { text: string; isError: boolean }> = {};
    for (const [face, through] of Object.entries(deviceThrough)) {
      const { reply, asked } = await through(false);
      // run's policy answers without asking anyone; the editor is asked the exact question.
      if (face === 'boardbridge acp') expect(asked).toEqual([QUESTION]);
      expect(reply.isError, face).toBe(true);
      said[face] = reply;
    }
    // The same refusal, each with its voice's reason ("… (or --allow-device)", "… in the editor").
    const refusal = `Not done: ${QUESTION} was not allowed (`;
    expect(said['boardbridge run'].text.trim()).toBe(`${refusal}device changes need the person's consent (or --allow-device)).`);
    expect(said['boardbridge acp'].text.trim()).toBe(`${refusal}it was not allowed in the editor).`);
  });

  it('runs when the person allows it (--allow-device, the editor\'s Allow), with the same result through both', async () => {
    const said: Record<string, string> = {};
    for (const [face, through] of Object.entries(deviceThrough)) {
      const { reply } = await through(true);
      expect(reply.text, face).not.toMatch(/^Not done/);
      said[face] = reply.text;
    }
    expect(said['boardbridge run']).toContain(PORT);
    expect(said['boardbridge acp']).toBe(said['boardbridge run']);
  });
});

/** Waits (bounded) until `done` holds; the test fails with `what` otherwise. */
/** A turn whose terminal runs `sleep` (after the agent asked for it and was allowed), cancelled while it runs. */
function cancelSteps(pidFile: string) {
  const command = `echo $$ > ${pidFile}; exec sleep 1000`;
  return [{ permission: { toolCallId: 'bash-1', kind: 'execute', title: command, rawInput: { command } } }, { terminal: command }];
}
const pidIn = (file: string) => (existsSync(file) && readFileSync(file, 'utf8').endsWith('\n') ? Number(readFileSync(file, 'utf8')) : undefined);

describe('a cancel mid-turn (stand-in agent that answers session/cancel with cancelled)', () => {
  it('boardbridge run: Ctrl-C ends the turn cancelled and the terminal it ran is gone', async () => {
    const { sketch, env } = setUp();
    const pidFile = path.join(sketch, '..', 'terminal.pid');
    let pid: number | undefined;
    // The wait for the terminal is part of the test's result: its failure (kept, not left unhandled) is thrown once the run ended.
    let started: Promise<unknown> | undefined;
    const result = await runCli(['run', JSON.stringify(cancelSteps(pidFile)), '--json', '--workspace', sketch, '--agent-command', agentCommand, '--allow', 'all'], {
      env: { ...env, STANDIN_CANCEL: '1' },
      onEvent: (event, child) => {
        if (event.type !== 'terminal_started') return;
        // Ctrl-C either way, so the run ends even when the wait failed.
        started = until('the terminal to start', () => (pid = pidIn(pidFile)) !== undefined)
          .then(() => undefined, (error: unknown) => error)
          .finally(() => child.kill('SIGINT'));
      },
    });
    const notStarted = await started;
    if (notStarted) throw notStarted;
    expect(result.code, result.stderr).toBe(3);
    expect(ofType(result.events, 'stop')).toEqual([{ type: 'stop', stopReason: 'cancelled' }]);
    expect(pid).toBeDefined();
    await until('the terminal to end', () => !alive(pid!));
  });

  it('boardbridge acp: session/cancel ends the turn cancelled, and the proxy (still running) released the terminal it ran', async () => {
    const { sketch, env } = setUp();
    const pidFile = path.join(sketch, '..', 'terminal.pid');
    // An editor without terminals: the proxy runs the agent's command itself.
    const { proxy, sessionId } = await openProxy({ ...env, STANDIN_CANCEL: '1' }, sketch, { fs: { readTextFile: true, writeTextFile: true } });
    const answer = proxy.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: JSON.stringify(cancelSteps(pidFile)) }] });
    const asked = await proxy.next((m) => m.method === 'session/request_permission');
    proxy.send({ id: asked.id, result: { outcome: { outcome: 'selected', optionId: 'allow' } } });
    await until('the terminal to start', () => pidIn(pidFile) !== undefined);
    const pid = pidIn(pidFile)!;
    expect(alive(pid)).toBe(true);
    proxy.send({ method: 'session/cancel', params: { sessionId } });
    expect((await answer).result).toEqual({ stopReason: 'cancelled' });
    await until('the terminal to end', () => !alive(pid));
    expect(proxy.child.exitCode).toBeNull();
  });
});

const codex = codexBinary();
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The real codex-acp (offline, against the scripted model server) patching the sketch itself, through each face; the person allows the patch. */
const codexThrough = {
  'boardbridge run': async (sketch: string, env: Record<string, string>, agent: string) => {
    const result = await runCli(['run', 'Blink faster', '--json', '--workspace', sketch, '--agent-command', agent, '--allow', 'edits'], { env });
    expect(result.code, result.stderr).toBe(0);
  },
  'boardbridge acp': async (sketch: string, env: Record<string, string>, agent: string) => {
    const proxy = new ProxyProcess({ agentCommand: agent, env });
    running.push(proxy);
    await proxy.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
    const created = await proxy.request('session/new', { cwd: sketch, mcpServers: [] });
    expect(created.error).toBeUndefined();
    const { sessionId } = created.result as { sessionId: string };
    let ended = false;
    const answer = proxy.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Blink faster' }] }, 'prompt').finally(() => (ended = true));
    // The person allows what codex asks in the editor (its option ids are its own: chosen by kind).
    void (async () => {
      while (!ended) {
        const asked = await proxy.next((m) => m.method === 'session/request_permission', 170_000).catch(() => undefined);
        if (!asked) return;
        const option = (asked.params as { options: { optionId: string; kind: string }[] }).options.find((o) => o.kind === 'allow_once');
        proxy.send({ id: asked.id, result: { outcome: { outcome: 'selected', optionId: option?.optionId } } });
      }
    })();
    const answered = await answer;
    expect(answered.result, JSON.stringify(answered.error)).toMatchObject({ stopReason: 'end_turn' });
  },
};

let modelServer: ModelServer | undefined;
afterEach(async () => {
  await modelServer?.close();
  modelServer = undefined;
});

describe.skipIf(codex === undefined)('codex patching a file itself, through both faces (real codex-acp, scripted model server)', { timeout: 180_000 }, () => {
  for (const [face, through] of Object.entries(codexThrough)) {
    it(`${face}: the patch codex applies is journalled, and undo takes it back`, async () => {
      const { root, sketch, ino } = tempSketch();
      const patch = `*** Begin Patch\n*** Update File: ${ino}\n@@\n-  delay(500);\n+  delay(100);\n*** End Patch\n`;
      modelServer = await startModelServer({ turns: [{ replies: [{ tool: { codex: { name: 'apply_patch', input: { patch } } } }, { say: 'It blinks faster now.' }] }] });
      const launch = codexLaunch(codex!, modelServer.url, root);
      const env = { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
      const before = readFileSync(ino, 'utf8');
      await through(sketch, env, [launch.command, ...launch.args].map(quote).join(' '));
      expect(readFileSync(ino, 'utf8')).toBe(before.replace('  delay(500);', '  delay(100);'));
      const undo = await runCli(['undo', '--workspace', sketch, '--force'], { env });
      expect(undo.code, undo.stdout + undo.stderr).toBe(0);
      expect(readFileSync(ino, 'utf8')).toBe(before);
    });
  }
});
