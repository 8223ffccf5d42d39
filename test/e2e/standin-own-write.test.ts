// `boardbridge run` against a stand-in agent that does what the real OpenCode does with a
// permitted edit (opencode-ai 1.18: it sends fs/write_text_file without waiting for the
// answer and lets its own write tool write the same file), in both orders the race can take:
// one journal entry from the text before the call, so undo removes a file the call created.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ofType, repoRoot, runCli, tempSketch } from './run-cli.js';

const agentCommand = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'standin-fs-agent.mjs')}`;

function setUp() {
  const { root, sketch } = tempSketch();
  const env = { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
  return { sketch, env };
}

const call = (file: string, oldText: string | null, newText: string) => ({
  toolCallId: 'write-1',
  title: 'write notes.txt',
  kind: 'edit',
  status: 'pending',
  content: [{ type: 'diff', path: file, oldText, newText }],
});

async function run(sketch: string, env: Record<string, string>, steps: unknown[]) {
  const result = await runCli(['run', JSON.stringify(steps), '--json', '--workspace', sketch, '--agent-command', agentCommand, '--allow', 'edits'], { env });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

describe('an agent that writes a permitted edit itself and through fs/write_text_file (stand-in for OpenCode)', () => {
  const done = { update: { sessionUpdate: 'tool_call_update', toolCallId: 'write-1', status: 'completed' } };
  for (const order of ['its own write first', 'the bridge write first', 'the bridge write after the call completed'] as const) {
    it(`journals one change from before the call when ${order} lands, and undo removes the new file`, async () => {
      const { sketch, env } = setUp();
      const notes = path.join(sketch, 'notes.txt');
      const text = 'pin 13 has the LED\n';
      const own = { ownWrite: notes, content: text };
      const bridge = { write: notes, content: text };
      const result = await run(sketch, env, [
        { permission: call(notes, null, text) },
        ...{ 'its own write first': [own, bridge, done], 'the bridge write first': [bridge, own, done], 'the bridge write after the call completed': [own, done, bridge] }[order],
      ]);
      expect(readFileSync(notes, 'utf8')).toBe(text);
      expect(ofType(result.events, 'file_written')).toMatchObject([{ path: notes, created: true }]);
      const undo = await runCli(['undo', '--workspace', sketch], { env });
      expect(undo.code, undo.stdout + undo.stderr).toBe(0);
      expect(existsSync(notes)).toBe(false);
    });
  }

  it('undo brings back the text before the call when the agent wrote the changed file itself first', async () => {
    const { sketch, env } = setUp();
    const notes = path.join(sketch, 'notes.txt');
    writeFileSync(notes, 'old\n');
    const result = await run(sketch, env, [
      { permission: call(notes, 'old\n', 'new\n') },
      { ownWrite: notes, content: 'new\n' },
      { write: notes, content: 'new\n' },
      { update: { sessionUpdate: 'tool_call_update', toolCallId: 'write-1', status: 'completed' } },
    ]);
    expect(ofType(result.events, 'file_written')).toMatchObject([{ path: notes, created: false }]);
    const undo = await runCli(['undo', '--workspace', sketch], { env });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(readFileSync(notes, 'utf8')).toBe('old\n');
  });

  it('still journals a second bridge write in the same call from the first one', async () => {
    const { sketch, env } = setUp();
    const notes = path.join(sketch, 'notes.txt');
    const result = await run(sketch, env, [
      { permission: call(notes, null, 'b\n') },
      { write: notes, content: 'a\n' },
      { write: notes, content: 'b\n' },
      { update: { sessionUpdate: 'tool_call_update', toolCallId: 'write-1', status: 'completed' } },
    ]);
    expect(ofType(result.events, 'file_written')).toMatchObject([{ created: true }, { created: false }]);
    const undo = await runCli(['undo', '--workspace', sketch], { env });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    expect(existsSync(notes)).toBe(false);
  });
});
