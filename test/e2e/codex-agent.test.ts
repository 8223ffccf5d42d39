// End-to-end: boardbridge drives the real codex-acp agent (from npm, offline against the
// scripted model server's /v1/responses). Codex patches files itself instead of asking
// fs/write_text_file; the bridge still journals what it changed, so the faces can review
// the change and `boardbridge undo` takes it back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codexBinary, codexLaunch } from '../support/agents.js';
import { startModelServer, type ModelScript, type ModelServer } from '../support/model-server/index.js';
import { ofType, runCli, tempSketch } from './run-cli.js';

const binary = codexBinary();
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setUp(script: (sketch: string, ino: string) => ModelScript) {
  const { root, sketch, ino } = tempSketch();
  server = await startModelServer(script(sketch, ino));
  const launch = codexLaunch(binary!, server.url, root);
  const env = { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
  const agentCommand = [launch.command, ...launch.args].map(quote).join(' ');
  const run = (prompt: string, flags: string[] = []) => runCli(['run', prompt, '--json', '--workspace', sketch, '--agent-command', agentCommand, ...flags], { env });
  return { sketch, ino, env, run };
}

describe.skipIf(binary === undefined)('boardbridge run with the real codex-acp agent', { timeout: 180_000 }, () => {
  it('streams a plain reply and exits 0 on end_turn', async () => {
    const { run } = await setUp(() => ({ turns: [{ replies: [{ say: 'Pin 13 drives the LED on an Uno.' }] }] }));
    const result = await run('Which pin is the LED on?');
    expect(result.code, result.stderr).toBe(0);
    expect(ofType(result.events, 'session_started')[0].agent.name).toMatch(/codex/i);
    expect(ofType(result.events, 'message_chunk').map((e) => e.text).join('')).toContain('Pin 13 drives the LED');
    expect(ofType(result.events, 'stop')).toEqual([{ type: 'stop', stopReason: 'end_turn' }]);
  });

  it("journals the patch codex applies itself after the policy's permission, so undo takes it back", async () => {
    const { run, ino, sketch, env } = await setUp((_sketch, file) => ({
      turns: [
        {
          replies: [
            { tool: { codex: { name: 'apply_patch', input: { patch: `*** Begin Patch\n*** Update File: ${file}\n@@\n-  delay(500);\n+  delay(100);\n*** End Patch\n` } } } },
            { say: 'It blinks faster now.' },
          ],
        },
      ],
    }));
    const before = readFileSync(ino, 'utf8');
    expect(before).toContain('delay(500);');
    const result = await run('Blink faster', ['--allow', 'edits']);
    expect(result.code, result.stderr).toBe(0);
    const after = readFileSync(ino, 'utf8');
    expect(after).toBe(before.replace('  delay(500);', '  delay(100);'));
    expect(ofType(result.events, 'permission_decision')[0]).toMatchObject({ outcome: 'selected', optionKind: 'allow_once', by: 'policy' });
    expect(ofType(result.events, 'file_written')).toMatchObject([{ path: ino, created: false }]);
    const undo = await runCli(['undo', '--workspace', sketch, '--force'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(ino, 'utf8')).toBe(before);
  });

  it('leaves the file alone and stops with cancelled when nobody may grant the patch', async () => {
    const { run, ino } = await setUp((_sketch, file) => ({
      turns: [{ replies: [{ tool: { codex: { name: 'apply_patch', input: { patch: `*** Begin Patch\n*** Update File: ${file}\n@@\n-  delay(500);\n+  delay(100);\n*** End Patch\n` } } } }, { say: 'Done.' }] }],
    }));
    const before = readFileSync(ino, 'utf8');
    const result = await run('Blink faster');
    expect(result.code).toBe(3);
    expect(ofType(result.events, 'stop')).toEqual([{ type: 'stop', stopReason: 'cancelled' }]);
    expect(ofType(result.events, 'file_written')).toEqual([]);
    expect(readFileSync(ino, 'utf8')).toBe(before);
  });
});
