// The same case through both faces that build a session: `boardbridge run` (BridgeSession)
// and `boardbridge acp` (the proxy in front of an editor), against a stand-in agent that
// writes a file itself as codex and OpenCode do (no real agent writes on cue here): the edit
// is journalled under the agent's session id in both, and `boardbridge undo` takes it back;
// and against one that takes additionalDirectories: both name the same read-only folders.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalDir } from '../../bridge/services/fs/journal.js';
import { ProxyProcess } from '../support/proxy-process.js';
import { ofType, repoRoot, runCli, tempSketch } from './run-cli.js';

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
