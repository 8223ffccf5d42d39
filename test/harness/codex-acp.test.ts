// codex-acp 0.16 against the scripted OpenAI Responses endpoint (a dev dependency: its native
// binary is 233 MB); codex's sandbox needs Debian's bubblewrap (bwrap) to read or patch files.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentProbe, type PermissionPolicy } from '../support/acp-probe.js';
import { codexBinary, codexLaunch } from '../support/agents.js';
import { startModelServer, type ModelScript, type ModelServer } from '../support/model-server/index.js';
import { waitFor } from './agent-session.js';

const binary = codexBinary();
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function open(script: (ws: string) => ModelScript, permission: PermissionPolicy = 'allow_once') {
  const root = mkdtempSync(join(tmpdir(), 'bb-harness-codex-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'Blink.ino'), 'void loop() {\n  delay(1000);\n}\n');
  const model: ModelServer = await startModelServer(script(workspace));
  const probe = new AgentProbe({ launch: codexLaunch(binary ?? 'codex-acp', model.url, root), cwd: workspace, permission });
  cleanup = async () => {
    await probe.close();
    await model.close();
    rmSync(root, { recursive: true, force: true });
  };
  await probe.initialize();
  const sessionId = await probe.newSession(workspace);
  return { probe, model, workspace, sessionId };
}

const patchBlink = (ws: string): ModelScript => ({
  turns: [{
    replies: [
      { tool: { codex: { name: 'apply_patch', input: { patch: `*** Begin Patch\n*** Update File: ${join(ws, 'Blink.ino')}\n@@\n-  delay(1000);\n+  delay(250);\n*** End Patch\n` } } } },
      { say: 'Faster now.' },
    ],
  }],
});

describe.skipIf(binary === undefined)('codex-acp against the scripted model (needs @zed-industries/codex-acp installed)', { timeout: 180_000 }, () => {
  it('streams a plain text reply and ends the turn with end_turn', async () => {
    const s = await open(() => ({ turns: [{ replies: [{ say: 'Hello from the scripted model.' }] }] }));
    expect((await s.probe.prompt(s.sessionId, 'Say hello')).stopReason).toBe('end_turn');
    expect(s.model.requests.filter((r) => r.handledAs === 'script').map((r) => r.url)).toEqual(['/v1/responses']);
  });

  it('applies a patch itself after a permission request, never through fs/write_text_file', async () => {
    const s = await open(patchBlink);
    expect((await s.probe.prompt(s.sessionId, 'Blink faster')).stopReason).toBe('end_turn');
    expect(readFileSync(join(s.workspace, 'Blink.ino'), 'utf8')).toBe('void loop() {\n  delay(250);\n}\n');
    expect(s.probe.agentRequests.map((r) => r.method)).toEqual(['session/request_permission']);
    const options = (s.probe.agentRequests[0]?.params as { options: Array<{ kind: string; optionId: string }> }).options;
    expect(options.map((o) => [o.kind, o.optionId])).toEqual([['allow_once', 'approved'], ['reject_once', 'abort']]);
  });

  it('ends the turn with cancelled when the patch is rejected, leaving the file alone', async () => {
    const s = await open(patchBlink, 'reject_once');
    expect((await s.probe.prompt(s.sessionId, 'Blink faster')).stopReason).toBe('cancelled');
    expect(readFileSync(join(s.workspace, 'Blink.ino'), 'utf8')).toBe('void loop() {\n  delay(1000);\n}\n');
  });

  // Re-record with RECORD_FIXTURES=1 (see recorded-fixtures.test.ts for the format).
  it.runIf(process.env.RECORD_FIXTURES === '1')('records codex-acp edit-session', async () => {
    const s = await open((ws) => ({
      turns: [
        {
          replies: [
            { say: 'Let me look at the sketch.', tool: { codex: { name: 'exec_command', input: { cmd: 'cat Blink.ino' } } } },
            { tool: { codex: { name: 'apply_patch', input: { patch: `*** Begin Patch\n*** Update File: ${join(ws, 'Blink.ino')}\n@@\n-  delay(1000);\n+  delay(250);\n*** End Patch\n` } } } },
            { say: 'The LED now blinks four times faster.' },
          ],
        },
        {
          replies: [
            { tool: { codex: { name: 'apply_patch', input: { patch: `*** Begin Patch\n*** Add File: ${join(ws, 'pins.h')}\n+#pragma once\n+const int LED_PIN = 13;\n*** End Patch\n` } } } },
            { say: 'Created pins.h with LED_PIN.' },
          ],
        },
        { replies: [{ tool: { codex: { name: 'exec_command', input: { cmd: 'ls' } } } }, { say: 'The folder holds Blink.ino and pins.h.' }] },
      ],
    }));
    for (const prompt of ['Make the LED blink faster', 'Add a pins header', 'List the sketch folder']) {
      expect((await s.probe.prompt(s.sessionId, prompt)).stopReason).toBe('end_turn');
    }
    const text = s.probe.lines.map((line) => line.split(s.workspace).join('/home/user/Blink')).join('\n') + '\n';
    writeFileSync(join(fileURLToPath(new URL('../fixtures/recorded/', import.meta.url)), 'codex-acp-edit-session.jsonl'), text);
  });

  it('ends a turn with cancelled when session/cancel arrives while the model hangs', async () => {
    const s = await open(() => ({ turns: [{ replies: [{ hang: true }] }] }));
    const pending = s.probe.prompt(s.sessionId, 'think forever');
    await waitFor(() => s.model.requests.some((r) => r.handledAs === 'script'));
    await s.probe.cancel(s.sessionId);
    expect((await pending).stopReason).toBe('cancelled');
  });
});
