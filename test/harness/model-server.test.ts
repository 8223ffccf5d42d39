// The scripted model server on its own, spoken to over real HTTP on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelScript, type ModelServer } from '../support/model-server/index.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: ModelScript): Promise<ModelServer> {
  server = await startModelServer(script);
  return server;
}

const claudeTools = [{ name: 'mcp__acp__Write' }, { name: 'Glob' }];

async function anthropic(s: ModelServer, body: object): Promise<Response> {
  return fetch(`${s.url}/v1/messages?beta=true`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** The SSE events of a response, as [event, data] pairs. */
async function events(response: Response): Promise<Array<[string, Record<string, unknown>]>> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? '{}') as Record<string, unknown>;
      return [event, data];
    });
}

describe('the scripted model server', () => {
  it('streams an Anthropic text reply as message_start, text deltas in several chunks, message_delta end_turn, message_stop', async () => {
    const s = await start({ turns: [{ replies: [{ say: 'Hello there, board.' }] }] });
    const response = await anthropic(s, { stream: true, tools: claudeTools, messages: [{ role: 'user', content: 'hi' }] });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const frames = await events(response);
    expect(frames.map(([e]) => e)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const text = frames.flatMap(([, d]) => ((d.delta as { text?: string } | undefined)?.text ?? []));
    expect(text.join('')).toBe('Hello there, board.');
    expect(frames[6]?.[1]).toMatchObject({ delta: { stop_reason: 'end_turn' } });
  });

  it('sends a Claude tool call as tool_use with input_json_delta, under the mcp__acp__ name the agent offered', async () => {
    const s = await start({ turns: [{ replies: [{ tool: { claude: { name: 'Write', input: { file_path: '/w/a.txt', content: 'x' } } } }] }] });
    const frames = await events(await anthropic(s, { stream: true, tools: claudeTools, messages: [{ role: 'user', content: 'write' }] }));
    expect(frames[1]?.[1]).toMatchObject({ content_block: { type: 'tool_use', name: 'mcp__acp__Write', input: {} } });
    const json = frames.flatMap(([, d]) => ((d.delta as { partial_json?: string } | undefined)?.partial_json ?? [])).join('');
    expect(JSON.parse(json)).toEqual({ file_path: '/w/a.txt', content: 'x' });
    expect(frames.at(-2)?.[1]).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('answers a non-streaming Anthropic request with one JSON message', async () => {
    const s = await start({ turns: [{ replies: [{ maxTokens: 'cut' }] }] });
    const body = (await (await anthropic(s, { stream: false, tools: claudeTools, messages: [{ role: 'user', content: 'x' }] })).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'cut' }], stop_reason: 'max_tokens' });
  });

  it('chooses the reply by the conversation: prompts give the turn, tool results since the last prompt give the step', async () => {
    const s = await start({ turns: [{ replies: [{ say: 'turn 0 step 0' }, { say: 'turn 0 step 1' }] }, { replies: [{ say: 'turn 1 step 0' }] }] });
    const toolResult = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'file text' }] };
    const conversations = [
      [{ role: 'user', content: 'first' }],
      [{ role: 'user', content: 'first' }, { role: 'assistant', content: [{ type: 'tool_use' }] }, toolResult],
      [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'second' }],
      // A retry of the first request gets the same reply again: nothing is consumed.
      [{ role: 'user', content: 'first' }],
    ];
    for (const messages of conversations) await (await anthropic(s, { stream: true, tools: claudeTools, messages })).text();
    expect(s.requests.map((r) => r.position)).toEqual([
      { turn: 0, step: 0 },
      { turn: 0, step: 1 },
      { turn: 1, step: 0 },
      { turn: 0, step: 0 },
    ]);
    expect(s.requests[1]?.conversation?.lastToolResult).toBe('file text');
  });

  it('answers side requests without tools (titles, quota checks) with a short reply that consumes nothing', async () => {
    const s = await start({ turns: [{ replies: [{ hang: true }] }] });
    const body = (await (await anthropic(s, { stream: false, max_tokens: 1, messages: [{ role: 'user', content: 'quota' }] })).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ content: [{ type: 'text', text: 'OK.' }], stop_reason: 'end_turn' });
    expect(s.requests[0]?.handledAs).toBe('background');
  });

  it('picks a turn by whenUserSays, taking the latest mention when a prompt carries a cancelled one', async () => {
    const s = await start({ turns: [{ whenUserSays: 'hang', replies: [{ hang: true }] }, { whenUserSays: 'again', replies: [{ say: 'back' }] }] });
    const messages = [{ role: 'user', content: 'hang please\n[Request interrupted by user]\nagain' }];
    await (await anthropic(s, { stream: true, tools: claudeTools, messages })).text();
    expect(s.requests[0]?.position).toEqual({ turn: 1, step: 0 });
    expect(s.requests[0]?.conversation?.userPrompts).toEqual(['hang please', 'again']);
  });

  it('keeps a hang reply open until the client aborts, then marks the request aborted', async () => {
    const s = await start({ turns: [{ replies: [{ hang: true }] }] });
    const controller = new AbortController();
    const aborted = fetch(`${s.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ stream: true, tools: claudeTools, messages: [{ role: 'user', content: 'x' }] }),
      signal: controller.signal,
    }).catch((error: Error) => error.name);
    while (s.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(s.requests[0]?.aborted).toBe(false);
    controller.abort();
    expect(await aborted).toBe('AbortError');
    while (!s.requests[0]?.aborted) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(s.requests[0]?.handledAs).toBe('script');
  });

  it('streams Gemini text and functionCall parts as SSE and skips gemini-cli\'s injected session context', async () => {
    const s = await start({ turns: [{ replies: [{ tool: { gemini: { name: 'write_file', input: { file_path: '/w/a', content: 'x' } } }, say: 'Writing.' }] }] });
    const response = await fetch(`${s.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`, {
      method: 'POST',
      body: JSON.stringify({
        tools: [{ functionDeclarations: [{ name: 'write_file' }] }],
        contents: [{ role: 'user', parts: [{ text: '<session_context>\nThis is the Gemini CLI.</session_context>' }, { text: 'write it' }] }],
      }),
    });
    const chunks = (await response.text()).split('\r\n\r\n').filter((c) => c.startsWith('data: ')).map((c) => JSON.parse(c.slice(6)) as { candidates: Array<{ content: { parts: unknown[] }; finishReason?: string }> });
    const parts = chunks.flatMap((c) => c.candidates[0]?.content.parts ?? []);
    expect(parts.at(-1)).toEqual({ functionCall: { name: 'write_file', args: { file_path: '/w/a', content: 'x' } } });
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    expect(s.requests[0]?.conversation?.userPrompts).toEqual(['write it']);
  });

  it('answers Gemini JSON side questions with an object matching the requested schema', async () => {
    const s = await start({ turns: [] });
    const response = await fetch(`${s.url}/v1beta/models/gemini-x:generateContent`, {
      method: 'POST',
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'who speaks next?' }] }],
        generationConfig: {
          responseMimeType: 'application/json',
          responseJsonSchema: { type: 'OBJECT', properties: { reasoning: { type: 'STRING' }, next_speaker: { type: 'STRING', enum: ['model', 'user'] }, score: { type: 'INTEGER' } } },
        },
      }),
    });
    const body = (await response.json()) as { candidates: Array<{ content: { parts: Array<{ text: string }> } }> };
    expect(JSON.parse(body.candidates[0]?.content.parts[0]?.text ?? '')).toEqual({ reasoning: 'ok', next_speaker: 'user', score: 0 });
  });

  it('streams an OpenAI Responses reply: text deltas, a function_call and a freeform apply_patch call, then response.completed', async () => {
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n';
    const s = await start({ turns: [{ replies: [{ say: 'Patching.', tool: [{ codex: { name: 'exec_command', input: { cmd: 'ls' } } }, { codex: { name: 'apply_patch', input: { patch } } }] }] }] });
    const response = await fetch(`${s.url}/v1/responses`, {
      method: 'POST',
      body: JSON.stringify({
        stream: true,
        tools: [{ type: 'function', name: 'exec_command' }, { type: 'custom', name: 'apply_patch' }],
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'patch it' }] },
        ],
      }),
    });
    const frames = await events(response);
    expect(frames.map(([e]) => e)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(frames[7]?.[1]).toMatchObject({ item: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}' } });
    expect(frames[9]?.[1]).toMatchObject({ item: { type: 'custom_tool_call', name: 'apply_patch', input: patch } });
    expect(s.requests[0]?.conversation?.userPrompts).toEqual(['patch it']);
  });

  it('answers probes and unknown paths without crashing: HEAD 200, count_tokens, 404 with a message', async () => {
    const s = await start({ turns: [] });
    expect((await fetch(s.url, { method: 'HEAD' })).status).toBe(200);
    expect(await (await fetch(`${s.url}/v1/messages/count_tokens?beta=true`, { method: 'POST', body: '{}' })).json()).toEqual({ input_tokens: 42 });
    const missing = await fetch(`${s.url}/v2/nothing`, { method: 'POST', body: 'not json' });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('fake model server has no POST /v2/nothing');
  });
});
