// What boardbridge acp adds on the way through: the hardware context in prompts
// (resource or text, in full when new or changed), the platform folders as
// additionalDirectories, and board commands in terminals run on the bridge's hub
// even when the editor has terminals. The agent is the echoing stand-in.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextService } from '../../../bridge/context/context-service.js';
import { BridgeHardware } from '../../../bridge/hardware/bridge-hardware.js';
import { AcpProxy } from '../../../bridge/proxy/acp-proxy.js';
import { allProviders } from '../../../context-providers/index.js';
import { ScriptedEditor, type Wire } from '../../support/scripted-editor.js';
import { tempTree } from '../../support/temp-tree.js';

const echoAgent = path.resolve(__dirname, '../../support/echo-agent.mjs');
const proxies: AcpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

type Block = { type: string; text?: string; resource?: { uri: string; text: string } };

function sketch(): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'bb-proxy-sketch-')), 'Blink');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'Blink.ino'), 'void setup() { pinMode(13, OUTPUT); }\nvoid loop() {}\n');
  return dir;
}

async function session(agentEnv: Record<string, string>, options: { hardware?: boolean; cwd?: string; board?: string | null } = {}): Promise<{ editor: ScriptedEditor; cwd: string; created: Wire }> {
  const editor = new ScriptedEditor();
  proxies.push(
    new AcpProxy({
      launch: { id: 'echo', title: 'echo agent (stand-in)', command: process.execPath, args: [echoAgent], env: agentEnv, via: 'command' },
      editor: editor.stream,
      selection: options.board === null ? {} : { board: options.board ?? 'arduino:avr:uno' },
      env: { ...process.env, BOARDBRIDGE_STATE_DIR: mkdtempSync(path.join(os.tmpdir(), 'bb-proxy-state-')) },
      contexts: new ContextService(allProviders()),
      hardware: options.hardware ? new BridgeHardware() : undefined,
      log: () => undefined,
    }),
  );
  await editor.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
  const cwd = options.cwd ?? sketch();
  const created = await editor.request('session/new', { cwd, mcpServers: [] });
  return { editor, cwd, created };
}

async function promptBlocks(editor: ScriptedEditor, text: string): Promise<Block[]> {
  const answer = await editor.request('session/prompt', { sessionId: 'echo-session', prompt: [{ type: 'text', text }] });
  return ((answer.result as { echo: { params: { prompt: Block[] } } }).echo.params.prompt);
}

describe('boardbridge acp adds the hardware context to prompts (stand-in agent echoing what it gets)', () => {
  it('sends the Arduino context as a resource first, then a reminder, then in full again after /board changed it', async () => {
    const { editor } = await session({});
    const first = await promptBlocks(editor, 'blink faster');
    expect(first).toHaveLength(2);
    expect(first[0].type).toBe('resource');
    expect(first[0].resource?.uri).toMatch(/^file:.*Blink\.ino#boardbridge-hardware-context$/);
    expect(first[0].resource?.text).toMatch(/^# Arduino board: Arduino UNO — `arduino:avr:uno`/);
    expect(first[1]).toEqual({ type: 'text', text: 'blink faster' });
    const second = await promptBlocks(editor, 'and now?');
    expect(second[0]).toEqual({ type: 'text', text: '[boardbridge] The hardware context sent earlier still holds: Arduino UNO (arduino:avr:uno).' });
    await editor.request('session/prompt', { sessionId: 'echo-session', prompt: [{ type: 'text', text: '/board arduino:avr:mega' }] });
    const third = await promptBlocks(editor, 'on the Mega');
    expect(third[0].type).toBe('resource');
    expect(third[0].resource?.text).toMatch(/^# Arduino board: Arduino Mega or Mega 2560/);
  });

  it('keeps the board when /board names one the installed platforms do not have, and says why', async () => {
    const { editor } = await session({});
    await promptBlocks(editor, 'first');
    const said = editor.next((m) => m.method === 'session/update' && JSON.stringify(m.params).includes('Board not changed'));
    await editor.request('session/prompt', { sessionId: 'echo-session', prompt: [{ type: 'text', text: '/board arduino:avr:nope' }] });
    expect(JSON.stringify((await said).params)).toMatch(/still arduino:avr:uno\).*unknown board \\"nope\\"/);
    const next = await promptBlocks(editor, 'still the Uno?');
    expect(next[0].text).toContain('still holds: Arduino UNO (arduino:avr:uno)');
  });

  it('sends it as text to an agent without embedded context, and /context shows what the agent was told', async () => {
    const { editor } = await session({ ECHO_EMBEDDED: '0' });
    const first = await promptBlocks(editor, 'hello');
    expect(first[0].type).toBe('text');
    expect(first[0].text).toMatch(/^<hardware-context source="boardbridge">\n# Arduino board: Arduino UNO/);
    const shown = editor.next((m) => m.method === 'session/update' && JSON.stringify(m.params).includes('The agent was told this hardware context'));
    await editor.request('session/prompt', { sessionId: 'echo-session', prompt: [{ type: 'text', text: '/context' }] });
    expect(JSON.stringify((await shown).params)).toContain('Arduino UNO');
  });
});

const workspace = (files: string[]) => tempTree(files, 'bb-proxy-workspace-');

/** What the proxy told the person itself (agent message chunks of its own). */
function told(editor: ScriptedEditor): string[] {
  return editor.seen
    .filter((m) => m.method === 'session/update')
    .map((m) => (m.params as { update: { sessionUpdate: string; content?: { text?: string } } }).update)
    .filter((u) => u.sessionUpdate === 'agent_message_chunk' && u.content?.text?.startsWith('[boardbridge]'))
    .map((u) => u.content!.text!);
}

describe('boardbridge acp finds the sketch in a workspace that is not itself one (stand-in agent echoing what it gets)', () => {
  it('tells the agent and the person which sketch below a project root the context is about', async () => {
    const { editor, cwd } = await session({}, { cwd: workspace(['README.md', 'firmware/firmware.ino']) });
    const first = await promptBlocks(editor, 'blink faster');
    expect(first[0].resource?.text).toMatch(new RegExp(`^> The sketch is firmware/firmware\\.ino, found below the workspace ${cwd}\\.\n\n# Arduino board: Arduino UNO`));
    expect(told(editor)).toEqual([`[boardbridge] The sketch is firmware/firmware.ino, found below the workspace ${cwd}.\n\n`]);
  });

  it('follows the file a prompt links to, among several sketches', async () => {
    const { editor, cwd } = await session({}, { cwd: workspace(['a/a.ino', 'b/b.ino']) });
    const answer = await editor.request('session/prompt', { sessionId: 'echo-session', prompt: [{ type: 'resource_link', uri: pathToFileURL(path.join(cwd, 'b', 'b.ino')).href, name: 'b.ino' }, { type: 'text', text: 'this one' }] });
    const blocks = (answer.result as { echo: { params: { prompt: Block[] } } }).echo.params.prompt;
    expect(blocks[0].resource?.uri).toBe(`${pathToFileURL(path.join(cwd, 'b', 'b.ino')).href}#boardbridge-hardware-context`);
    expect(blocks[0].resource?.text).toMatch(/^> The project is b\/b\.ino, the one of b\/b\.ino \(open in the editor\)\./);
  });

  it('gives a folder with only sketch.ino and --fqbn the context with the Name/Name.ino note', async () => {
    const { editor } = await session({}, { cwd: workspace(['sketch.ino']) });
    const first = await promptBlocks(editor, 'hello');
    expect(first[0].resource?.text).toContain('Arduino compiles a sketch only as Name/Name.ino');
    expect(first[0].resource?.text).toContain('# Arduino board: Arduino UNO');
  });

  it('says once, to the agent and the person, why a prompt goes without any context', async () => {
    const { editor, cwd } = await session({}, { cwd: workspace([]), board: null });
    const first = await promptBlocks(editor, 'hello');
    expect(first[0]).toEqual({ type: 'text', text: `[boardbridge] No hardware context: ${cwd} holds no Arduino sketch (Name/Name.ino, up to 4 folders down), MPLAB X project or OpenMV script; start boardbridge with --sketch DIR, or with --fqbn for the board's context alone.` });
    expect(await promptBlocks(editor, 'again')).toEqual([{ type: 'text', text: 'again' }]);
    expect(told(editor)).toHaveLength(1);
    expect(told(editor)[0]).toMatch(/^\[boardbridge\] No hardware context: /);
  });

  it('gives an empty folder with --fqbn the board alone', async () => {
    const { editor } = await session({}, { cwd: workspace([]) });
    const first = await promptBlocks(editor, 'hello');
    expect(first[0].resource?.text).toMatch(/^> No sketch in .*: this is the context of the board arduino:avr:uno alone, without findings about the code\.\n\n# Arduino board: Arduino UNO/);
  });
});

describe('boardbridge acp gives the agent the platform folders and the board commands', () => {
  it('adds the read-only platform folders as additionalDirectories when the agent takes them', async () => {
    const { created } = await session({ ECHO_ADDITIONAL_DIRS: '1' });
    const dirs = (created.result as { echo: { params: { additionalDirectories?: string[] } } }).echo.params.additionalDirectories ?? [];
    expect(dirs).toContain('/usr/share/arduino/hardware/arduino/avr');
  });

  it('gives an agent without HTTP MCP the board server as the stdio relay, with its token in the environment', async () => {
    const { created } = await session({ ECHO_MCP_HTTP: '0' });
    const servers = (created.result as { echo: { params: { mcpServers: { name: string; command?: string; args?: string[]; env?: { name: string; value: string }[] }[] } } }).echo.params.mcpServers;
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({ name: 'boardbridge', command: process.execPath });
    expect(servers[0].args?.slice(-3)).toEqual(['mcp', '--connect', expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)]);
    expect(servers[0].env?.map((e) => e.name)).toEqual(['BOARDBRIDGE_MCP_TOKEN']);
  });

  it('leaves additionalDirectories out for an agent that does not advertise them', async () => {
    const { created } = await session({});
    expect((created.result as { echo: { params: Record<string, unknown> } }).echo.params).not.toHaveProperty('additionalDirectories');
  });

  it('runs `boardbridge ports` from the agent terminal in-process, even though the editor has terminals', async () => {
    const { editor } = await session({}, { hardware: true });
    const call = async (method: string, params: object) => ((await editor.request('_test/call_client', { method, params: { sessionId: 'echo-session', ...params } })).result as { reply: Wire }).reply;
    const created = await call('terminal/create', { command: 'boardbridge ports' });
    const terminalId = (created.result as { terminalId: string }).terminalId;
    const exit = await call('terminal/wait_for_exit', { terminalId });
    expect((exit.result as { exitCode: number }).exitCode).toBe(0);
    const output = await call('terminal/output', { terminalId });
    expect((output.result as { output: string }).output.length).toBeGreaterThan(0);
    await call('terminal/release', { terminalId });
    expect(editor.seen.filter((m) => typeof m.method === 'string' && m.method.startsWith('terminal/'))).toEqual([]);
    // Any other command goes to the editor's terminal.
    const asked = editor.next((m) => m.method === 'terminal/create');
    const other = editor.request('_test/call_client', { method: 'terminal/create', params: { sessionId: 'echo-session', command: 'make' } });
    const request = await asked;
    editor.send({ id: request.id, result: { terminalId: 'editor-1' } });
    expect((((await other).result as { reply: Wire }).reply.result)).toEqual({ terminalId: 'editor-1' });
  });
});
