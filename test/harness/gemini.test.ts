// gemini-cli 0.61 (`gemini --acp --skip-trust`) driven through ACP against the scripted Gemini endpoint.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelScript } from '../support/model-server/index.js';
import { agentText, openProbeSession, requestMethods, toolUpdates, waitFor, type ProbeSession, type ProbeSessionOptions, type ScriptFor } from './agent-session.js';

let session: ProbeSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function open(script: ScriptFor, options?: ProbeSessionOptions): Promise<ProbeSession> {
  session = await openProbeSession('gemini', script, options);
  return session;
}

const writeNotes = (ws: string): ModelScript => ({
  turns: [{ replies: [{ tool: { name: 'write_file', input: { file_path: join(ws, 'notes.txt'), content: 'pin 13 is the LED\n' } } }, { say: 'Saved.' }] }],
});

describe('gemini --acp against the scripted model', { timeout: 180_000 }, () => {
  it('streams a plain text reply and ends the turn with end_turn, after a routing side request', async () => {
    const s = await open({ turns: [{ replies: [{ say: 'Hello from the scripted model.' }] }] });
    const response = await s.probe.prompt(s.sessionId, 'Say hello');
    expect(response.stopReason).toBe('end_turn');
    expect(agentText(s)).toBe('Hello from the scripted model.');
    expect(s.model.requests.map((r) => [r.url.replace(/models\/[^:]+/, 'models/M'), r.handledAs])).toEqual([
      ['/v1beta/models/M:generateContent', 'background'],
      ['/v1beta/models/M:streamGenerateContent?alt=sse', 'script'],
    ]);
  });

  it('creates a new file (write_file) when a read of the missing file is answered with empty text', async () => {
    const s = await open(writeNotes, { missingFile: 'empty-text' });
    expect((await s.probe.prompt(s.sessionId, 'Write notes')).stopReason).toBe('end_turn');
    expect(readFileSync(join(s.workspace, 'notes.txt'), 'utf8')).toBe('pin 13 is the LED\n');
    expect(requestMethods(s)).toEqual(['fs/read_text_file', 'session/request_permission', 'fs/read_text_file', 'fs/write_text_file']);
    const permission = s.probe.agentRequests[1]?.params as { options: Array<{ kind: string; optionId: string }>; toolCall: { toolCallId: string; content: unknown } };
    expect(permission.options.map((o) => [o.kind, o.optionId])).toEqual([
      ['allow_always', 'proceed_always'],
      ['allow_once', 'proceed_once'],
      ['reject_once', 'cancel'],
    ]);
    expect(permission.toolCall.content).toEqual([{ type: 'diff', path: join(s.workspace, 'notes.txt'), oldText: '', newText: 'pin 13 is the LED\n', _meta: { kind: 'add' } }]);
    // A gated tool is never announced with tool_call: it first appears inside the permission request.
    expect(toolUpdates(s).map((u) => [u.sessionUpdate, u.status, u.toolCallId])).toEqual([['tool_call_update', 'completed', permission.toolCall.toolCallId]]);
  });

  it('cannot create a new file when a read of the missing file is answered with error -32002 (resource not found)', async () => {
    const s = await open(writeNotes, { missingFile: 'resource-not-found' });
    expect((await s.probe.prompt(s.sessionId, 'Write notes')).stopReason).toBe('end_turn');
    expect(existsSync(join(s.workspace, 'notes.txt'))).toBe(false);
    expect(requestMethods(s)).toEqual(['fs/read_text_file', 'fs/read_text_file']);
    const failed = toolUpdates(s).at(-1);
    expect(failed?.status).toBe('failed');
    expect(JSON.stringify(failed?.content)).toContain('Error checking existing file: Resource not found');
  });

  it('cannot create a new file when a read of the missing file is answered with error -32603 either', async () => {
    const s = await open(writeNotes, { missingFile: 'internal-error' });
    expect((await s.probe.prompt(s.sessionId, 'Write notes')).stopReason).toBe('end_turn');
    expect(existsSync(join(s.workspace, 'notes.txt'))).toBe(false);
    expect(toolUpdates(s).at(-1)?.status).toBe('failed');
  });

  it('cannot create a new file with replace and an empty old_string when missing-file reads are answered with empty text', async () => {
    const create = (ws: string): ModelScript => ({
      turns: [{ replies: [{ tool: { name: 'replace', input: { file_path: join(ws, 'new.h'), old_string: '', new_string: '#define X 1\n', instruction: 'create' } } }, { say: 'Tried.' }] }],
    });
    const s = await open(create, { missingFile: 'empty-text' });
    expect((await s.probe.prompt(s.sessionId, 'Create new.h')).stopReason).toBe('end_turn');
    expect(existsSync(join(s.workspace, 'new.h'))).toBe(false);
    expect(JSON.stringify(toolUpdates(s).at(-1)?.content)).toContain('File already exists, cannot create');
  });

  it('edits an existing file (replace): read, permission, read again, write', async () => {
    const s = await open(
      (ws) => ({
        turns: [{
          replies: [
            { tool: { name: 'replace', input: { file_path: join(ws, 'Blink.ino'), old_string: 'delay(1000);', new_string: 'delay(250);', instruction: 'blink faster' } } },
            { say: 'Faster now.' },
          ],
        }],
      }),
      { files: { 'Blink.ino': 'void loop() {\n  delay(1000);\n}\n' } },
    );
    expect((await s.probe.prompt(s.sessionId, 'Blink faster')).stopReason).toBe('end_turn');
    expect(readFileSync(join(s.workspace, 'Blink.ino'), 'utf8')).toBe('void loop() {\n  delay(250);\n}\n');
    expect(requestMethods(s)).toEqual(['fs/read_text_file', 'session/request_permission', 'fs/read_text_file', 'fs/write_text_file']);
  });

  it('runs run_shell_command itself after a permission request, without terminal/*', async () => {
    const s = await open({ turns: [{ replies: [{ tool: { name: 'run_shell_command', input: { command: 'echo hi && pwd', description: 'Say hi' } } }, { say: 'Ran it.' }] }] });
    expect((await s.probe.prompt(s.sessionId, 'Run something')).stopReason).toBe('end_turn');
    expect(requestMethods(s)).toEqual(['session/request_permission']);
    const afterTool = s.model.requests.find((r) => r.position?.step === 1);
    expect(afterTool?.conversation?.lastToolResult).toContain(`hi\\n${s.workspace}`);
  });

  it('ends a turn with end_turn, not max_tokens, when the model stops with MAX_TOKENS', async () => {
    const s = await open({ turns: [{ replies: [{ maxTokens: 'The answer is cut' }] }] });
    expect((await s.probe.prompt(s.sessionId, 'Write a long answer')).stopReason).toBe('end_turn');
    expect(agentText(s)).toBe('The answer is cut');
  });

  it('ends a turn with max_tokens, before calling the model, when the prompt would overflow the context window', async () => {
    const s = await open({ turns: [{ replies: [{ say: 'never sent' }] }] });
    // gemini-cli estimates ~4 characters per token against a 1,048,576-token window.
    const response = await s.probe.prompt(s.sessionId, 'x'.repeat(4_400_000));
    expect(response.stopReason).toBe('max_tokens');
    expect(s.model.requests.filter((r) => r.handledAs === 'script')).toEqual([]);
  });

  it('ends a turn with end_turn when the model stops with SAFETY (no refusal stop reason)', async () => {
    const s = await open({ turns: [{ replies: [{ refuse: 'I cannot help with that.' }] }] });
    expect((await s.probe.prompt(s.sessionId, 'Do something bad')).stopReason).toBe('end_turn');
  });

  it('ends a turn with cancelled when session/cancel arrives while the model hangs, and forgets that prompt', async () => {
    const s = await open({ turns: [{ whenUserSays: 'think forever', replies: [{ hang: true }] }, { whenUserSays: 'next', replies: [{ say: 'Back again.' }] }] });
    const pending = s.probe.prompt(s.sessionId, 'think forever');
    await waitFor(() => s.model.requests.some((r) => r.handledAs === 'script'));
    await s.probe.cancel(s.sessionId);
    expect((await pending).stopReason).toBe('cancelled');
    expect((await s.probe.prompt(s.sessionId, 'next')).stopReason).toBe('end_turn');
    expect(s.model.requests.some((r) => r.aborted)).toBe(true);
    const last = s.model.requests.filter((r) => r.handledAs === 'script').at(-1);
    expect(last?.conversation?.userPrompts).toEqual(['next']);
  });

  it('ends a turn with cancelled when session/cancel arrives while a permission request is pending', async () => {
    const s = await open(
      (ws) => ({ turns: [{ replies: [{ tool: { name: 'replace', input: { file_path: join(ws, 'a.txt'), old_string: 'a', new_string: 'b', instruction: 'x' } } }, { say: 'unreachable' }] }] }),
      { permission: 'hold', files: { 'a.txt': 'a\n' } },
    );
    const pending = s.probe.prompt(s.sessionId, 'Change a.txt');
    await s.probe.waitForRequest('session/request_permission');
    await s.probe.cancel(s.sessionId);
    expect((await pending).stopReason).toBe('cancelled');
    expect(s.probe.permissionAnswers).toEqual([{ outcome: { outcome: 'cancelled' } }]);
    expect(readFileSync(join(s.workspace, 'a.txt'), 'utf8')).toBe('a\n');
  });
});
