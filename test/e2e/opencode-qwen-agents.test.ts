// End-to-end: boardbridge drives the real OpenCode (opencode-ai, a custom OpenAI-compatible
// provider) and Qwen Code (@qwen-code/qwen-code under Node 22, its OpenAI settings), both
// offline against the scripted model server's chat-completions endpoint: a reply, a write
// through fs/write_text_file after a permission, journalled and undone, and a cancelled turn.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { node22Binary, opencodeBinary, opencodeLaunch, qwenEntry, qwenLaunch, type AgentLaunch } from '../support/agents.js';
import { startModelServer, type ModelScript, type ModelServer, type ToolCallPerAgent } from '../support/model-server/index.js';
import { ofType, runCli, tempSketch, type RunOptions } from './run-cli.js';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Case {
  name: 'opencode' | 'qwen';
  agentName: RegExp;
  available: boolean;
  launch: (modelUrl: string, root: string) => AgentLaunch;
  write: (file: string, content: string) => ToolCallPerAgent;
}

const opencode = opencodeBinary();
const node22 = node22Binary();
const qwen = qwenEntry();
const cases: Case[] = [
  {
    name: 'opencode',
    agentName: /^OpenCode$/,
    available: opencode !== undefined,
    launch: (url, root) => opencodeLaunch(opencode!, url, root),
    write: (file, content) => ({ opencode: { name: 'write', input: { filePath: file, content } } }),
  },
  {
    name: 'qwen',
    agentName: /^qwen-code$/,
    available: node22 !== undefined && qwen !== undefined,
    launch: (url, root) => qwenLaunch(node22!, qwen!, url, root),
    write: (file, content) => ({ qwen: { name: 'write_file', input: { file_path: file, content } } }),
  },
];

describe.each(cases)('boardbridge run with the real $name agent', { timeout: 240_000 }, (c) => {
  async function setUp(script: (sketch: string) => ModelScript) {
    const { root, sketch } = tempSketch();
    server = await startModelServer(script(sketch));
    const launch = c.launch(server.url, root);
    const env = { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
    const agentCommand = [launch.command, ...launch.args].map(quote).join(' ');
    const run = (prompt: string, flags: string[] = [], onEvent?: RunOptions['onEvent']) =>
      runCli(['run', prompt, '--json', '--workspace', sketch, '--agent-command', agentCommand, ...flags], { env, onEvent });
    return { sketch, env, run };
  }

  it.skipIf(!c.available)('streams a plain reply and exits 0 on end_turn', async () => {
    const { run } = await setUp(() => ({ turns: [{ replies: [{ say: 'Pin 13 drives the LED on an Uno.' }] }] }));
    const result = await run('Which pin is the LED on?');
    expect(result.code, result.stderr).toBe(0);
    expect(ofType(result.events, 'session_started')[0].agent.name).toMatch(c.agentName);
    expect(ofType(result.events, 'message_chunk').map((e) => e.text).join('')).toContain('Pin 13 drives the LED');
    expect(ofType(result.events, 'stop')).toEqual([{ type: 'stop', stopReason: 'end_turn' }]);
  });

  it.skipIf(!c.available)('writes a new file through fs/write_text_file after the permission, journals it, and undo removes it', async () => {
    const { run, sketch, env } = await setUp((dir) => ({ turns: [{ replies: [{ tool: c.write(path.join(dir, 'notes.txt'), 'pin 13 has the LED\n') }, { say: 'Noted.' }] }] }));
    const notes = path.join(sketch, 'notes.txt');
    const result = await run('Write notes', ['--allow', 'edits']);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(notes, 'utf8')).toBe('pin 13 has the LED\n');
    expect(ofType(result.events, 'permission_request')[0]).toMatchObject({ category: 'edit' });
    expect(ofType(result.events, 'permission_decision')[0]).toMatchObject({ outcome: 'selected', optionKind: 'allow_once', by: 'policy' });
    expect(ofType(result.events, 'file_written')).toMatchObject([{ path: notes, created: true }]);
    if (c.name === 'qwen') {
      // Qwen waits for fs/write_text_file: written by the bridge while the call ran. OpenCode
      // sends it without waiting and writes the file itself too, so either may land first
      // (test/e2e/standin-own-write.test.ts takes each order): one entry either way.
      const written = result.events.findIndex((e) => e.type === 'file_written');
      const completed = result.events.findIndex((e) => e.type === 'tool_call' && e.toolCall.status === 'completed');
      expect(written).toBeGreaterThan(-1);
      expect(written).toBeLessThan(completed);
    }
    const undo = await runCli(['undo', '--workspace', sketch, '--force'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(existsSync(notes)).toBe(false);
  });

  it.skipIf(!c.available)('writes nothing when nobody may grant the permission', async () => {
    const { run, sketch } = await setUp((dir) => ({ turns: [{ replies: [{ tool: c.write(path.join(dir, 'notes.txt'), 'x\n') }, { say: 'Could not write.' }] }] }));
    const result = await run('Write notes');
    expect(ofType(result.events, 'permission_decision')[0]).toMatchObject({ outcome: 'rejected', optionKind: 'reject_once', by: 'no-person' });
    expect(ofType(result.events, 'file_written')).toEqual([]);
    expect(existsSync(path.join(sketch, 'notes.txt'))).toBe(false);
  });

  it.skipIf(!c.available)('cancels a turn while the model is silent: stop reason cancelled, exit 3', async () => {
    const { run } = await setUp(() => ({ turns: [{ replies: [{ hang: true }] }] }));
    let sent = false;
    const result = await run('Think about PWM for a long time', [], (event, child) => {
      if (event.type !== 'prompt_sent' || sent) return;
      sent = true;
      const poll = setInterval(() => {
        if (!server?.requests.some((r) => r.handledAs === 'script')) return;
        clearInterval(poll);
        child.kill('SIGINT');
      }, 50);
    });
    expect(ofType(result.events, 'stop')).toEqual([{ type: 'stop', stopReason: 'cancelled' }]);
    expect(result.code).toBe(3);
    expect(server!.requests.find((r) => r.handledAs === 'script')?.aborted).toBe(true);
  });
});
