// claude-code-acp 0.16.2 driven through ACP against the scripted Anthropic endpoint.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentText, openProbeSession, requestMethods, toolUpdates, waitFor, type ProbeSession, type ProbeSessionOptions, type ScriptFor } from './agent-session.js';

let session: ProbeSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function open(script: ScriptFor, options?: ProbeSessionOptions): Promise<ProbeSession> {
  session = await openProbeSession('claude-code-acp', script, options);
  return session;
}

describe('claude-code-acp against the scripted model', { timeout: 180_000 }, () => {
  it('streams a plain text reply in chunks and ends the turn with end_turn', async () => {
    const s = await open({ turns: [{ replies: [{ say: 'Hello from the scripted model.' }] }] });
    const response = await s.probe.prompt(s.sessionId, 'Say hello');
    expect(response.stopReason).toBe('end_turn');
    expect(agentText(s)).toBe('Hello from the scripted model.');
    const scripted = s.model.requests.filter((r) => r.handledAs === 'script');
    expect(scripted.map((r) => r.position)).toEqual([{ turn: 0, step: 0 }]);
    expect(scripted[0]?.conversation?.userPrompts).toEqual(['Say hello']);
  });

  it('creates a new file through fs/write_text_file after an allowed permission request (Write tool)', async () => {
    const s = await open((ws) => ({
      turns: [{ replies: [{ tool: { name: 'Write', input: { file_path: join(ws, 'pins.h'), content: 'int led = 13;\n' } } }, { say: 'Done.' }] }],
    }));
    const response = await s.probe.prompt(s.sessionId, 'Create pins.h');
    expect(response.stopReason).toBe('end_turn');
    expect(readFileSync(join(s.workspace, 'pins.h'), 'utf8')).toBe('int led = 13;\n');
    expect(requestMethods(s)).toEqual(['session/request_permission', 'fs/write_text_file']);
    const permission = s.probe.agentRequests[0]?.params as { options: Array<{ kind: string; optionId: string }> };
    expect(permission.options.map((o) => [o.kind, o.optionId])).toEqual([
      ['allow_always', 'allow_always'],
      ['allow_once', 'allow'],
      ['reject_once', 'reject'],
    ]);
    // tool_call twice with one id (empty input first, full input second), then two updates.
    const updates = toolUpdates(s);
    expect(updates.map((u) => [u.sessionUpdate, u.status ?? null])).toEqual([
      ['tool_call', 'pending'],
      ['tool_call', 'pending'],
      ['tool_call_update', null],
      ['tool_call_update', 'completed'],
    ]);
    expect(new Set(updates.map((u) => u.toolCallId)).size).toBe(1);
    expect(updates[1]?.content).toEqual([{ type: 'diff', path: join(s.workspace, 'pins.h'), oldText: null, newText: 'int led = 13;\n' }]);
  });

  it('edits an existing file by reading it with fs/read_text_file, asking permission, then writing it (Edit tool)', async () => {
    const s = await open(
      (ws) => ({
        turns: [{
          replies: [
            { tool: { name: 'Edit', input: { file_path: join(ws, 'Blink.ino'), old_string: 'delay(1000);', new_string: 'delay(250);' } } },
            { say: 'Faster now.' },
          ],
        }],
      }),
      { files: { 'Blink.ino': 'void loop() {\n  delay(1000);\n}\n' } },
    );
    const response = await s.probe.prompt(s.sessionId, 'Blink faster');
    expect(response.stopReason).toBe('end_turn');
    expect(readFileSync(join(s.workspace, 'Blink.ino'), 'utf8')).toBe('void loop() {\n  delay(250);\n}\n');
    expect(requestMethods(s)).toEqual(['session/request_permission', 'fs/read_text_file', 'fs/write_text_file']);
  });

  it('runs a Bash tool call as terminal/create with the whole shell line, no args and no cwd', async () => {
    const s = await open({
      turns: [{ replies: [{ tool: { name: 'Bash', input: { command: 'echo hi && pwd', timeout: 10_000, description: 'Say hi' } } }, { say: 'Ran it.' }] }],
    });
    const response = await s.probe.prompt(s.sessionId, 'Run something');
    expect(response.stopReason).toBe('end_turn');
    expect(requestMethods(s)).toEqual([
      'session/request_permission',
      'terminal/create',
      'terminal/wait_for_exit',
      'terminal/output',
      'terminal/release',
    ]);
    const create = s.probe.agentRequests[1]?.params as Record<string, unknown>;
    expect(create).toMatchObject({ command: 'echo hi && pwd', env: [{ name: 'CLAUDECODE', value: '1' }], outputByteLimit: 32000 });
    expect(create).not.toHaveProperty('args');
    expect(create).not.toHaveProperty('cwd');
    expect(toolUpdates(s).some((u) => u.content?.some((c) => c.type === 'terminal'))).toBe(true);
    const afterTool = s.model.requests.find((r) => r.position?.step === 1);
    expect(afterTool?.conversation?.lastToolResult).toContain(`hi\n${s.workspace}`);
  });

  it('never ends a turn with max_tokens: after a cut-off reply it asks the model to continue by itself', async () => {
    const s = await open({ turns: [{ replies: [{ maxTokens: 'The answer is cut' }, { say: ' and then finished.' }] }] });
    const response = await s.probe.prompt(s.sessionId, 'Write a long answer');
    expect(response.stopReason).toBe('end_turn');
    expect(agentText(s)).toBe('The answer is cut and then finished.');
    expect(s.model.requests.filter((r) => r.handledAs === 'script').map((r) => r.position?.step)).toEqual([0, 1]);
  });

  it('fails the prompt with -32603 once the model is cut off by max_tokens four times in a row', async () => {
    const cut = { maxTokens: 'cut' };
    const s = await open({ turns: [{ replies: [cut, cut, cut, cut] }] });
    await expect(s.probe.prompt(s.sessionId, 'Write a long answer')).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('CLAUDE_CODE_MAX_OUTPUT_TOKENS'),
    });
  });

  it('fails the prompt with -32603 when the model refuses (stop_reason refusal)', async () => {
    const s = await open({ turns: [{ replies: [{ refuse: 'I cannot help with that.' }] }] });
    await expect(s.probe.prompt(s.sessionId, 'Do something bad')).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('Usage Policy') });
  });

  it('ends a turn with cancelled when session/cancel arrives while the model hangs, and answers the next prompt', async () => {
    const s = await open({ turns: [{ whenUserSays: 'think forever', replies: [{ hang: true }] }, { whenUserSays: 'next', replies: [{ say: 'Back again.' }] }] });
    const pending = s.probe.prompt(s.sessionId, 'think forever');
    await waitFor(() => s.model.requests.some((r) => r.handledAs === 'script'));
    await s.probe.cancel(s.sessionId);
    expect((await pending).stopReason).toBe('cancelled');
    await waitFor(() => s.model.requests.some((r) => r.aborted));
    expect((await s.probe.prompt(s.sessionId, 'next')).stopReason).toBe('end_turn');
    // The cancelled prompt stays in Claude's history, in the same user message as the next one.
    const last = s.model.requests.filter((r) => r.handledAs === 'script').at(-1);
    expect(last?.conversation?.userPrompts).toEqual(['think forever', 'next']);
  });

  it('ends a turn with cancelled when session/cancel arrives while a permission request is pending', async () => {
    const s = await open(
      (ws) => ({ turns: [{ replies: [{ tool: { name: 'Write', input: { file_path: join(ws, 'never.txt'), content: 'x' } } }, { say: 'unreachable' }] }] }),
      { permission: 'hold' },
    );
    const pending = s.probe.prompt(s.sessionId, 'Write never.txt');
    await s.probe.waitForRequest('session/request_permission');
    await s.probe.cancel(s.sessionId);
    expect((await pending).stopReason).toBe('cancelled');
    expect(s.probe.permissionAnswers).toEqual([{ outcome: { outcome: 'cancelled' } }]);
    expect(requestMethods(s)).not.toContain('fs/write_text_file');
  });
});
