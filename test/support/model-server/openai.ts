// OpenAI Responses API as codex calls it: POST /v1/responses, streamed as SSE.
import type { ServerResponse } from 'node:http';
import { chunksOf, toolCallsOf, type Conversation, type Reply } from './script.js';

interface ResponsesItem {
  type?: string;
  role?: string;
  content?: Array<{ type?: string; text?: string }> | string;
  output?: unknown;
}
export interface ResponsesRequest {
  model?: string;
  tools?: Array<{ type?: string; name?: string }>;
  input?: ResponsesItem[];
}

export function openaiConversation(body: ResponsesRequest): Conversation {
  const conversation: Conversation = {
    userPrompts: [],
    stepsSinceLastPrompt: 0,
    offeredTools: (body.tools ?? []).flatMap((t) => (typeof t.name === 'string' ? [t.name] : [])),
  };
  for (const item of body.input ?? []) {
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      conversation.stepsSinceLastPrompt += 1;
      conversation.lastToolResult = typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
      continue;
    }
    if (item.type !== 'message' || item.role !== 'user') continue;
    const parts = typeof item.content === 'string' ? [{ text: item.content }] : (item.content ?? []);
    // codex sends its environment and AGENTS.md as user messages wrapped in <tags>.
    const texts = parts.flatMap((p) => (p.text !== undefined && !isInjectedContext(p.text) ? [p.text] : []));
    if (texts.length === 0) continue;
    conversation.userPrompts.push(texts.join('\n'));
    conversation.stepsSinceLastPrompt = 0;
  }
  return conversation;
}

function isInjectedContext(text: string): boolean {
  const start = text.trimStart();
  return start.startsWith('<environment_context>') || start.startsWith('<user_instructions>') || start.startsWith('# AGENTS.md');
}

// Side requests (none seen so far) are told apart the same way as for the other APIs.
export function isOpenaiBackground(body: ResponsesRequest): boolean {
  return (body.tools ?? []).length === 0;
}

let callSeq = 0;

export function writeOpenaiReply(res: ServerResponse, body: ResponsesRequest, reply: Reply, offeredTools: string[]): void {
  const id = `resp_fake${Date.now().toString(36)}`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let seq = 0;
  const send = (type: string, data: object): void => {
    seq += 1;
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq, ...data })}\n\n`);
  };
  const base = { id, object: 'response', model: body.model ?? 'gpt-fake', output: [] as unknown[] };
  send('response.created', { response: { ...base, status: 'in_progress' } });
  const text = 'say' in reply ? reply.say : 'maxTokens' in reply ? reply.maxTokens : 'refuse' in reply ? reply.refuse : undefined;
  let index = 0;
  if (text !== undefined) {
    const itemId = `msg_fake${index}`;
    send('response.output_item.added', { output_index: index, item: { id: itemId, type: 'message', role: 'assistant', status: 'in_progress', content: [] } });
    for (const delta of chunksOf(text)) send('response.output_text.delta', { item_id: itemId, output_index: index, content_index: 0, delta });
    const item = { id: itemId, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    send('response.output_item.done', { output_index: index, item });
    base.output.push(item);
    index += 1;
  }
  for (const call of toolCallsOf(reply, 'codex', offeredTools)) {
    callSeq += 1;
    const callId = `call_fake${String(callSeq).padStart(6, '0')}`;
    // apply_patch is a freeform ("custom") tool in codex: its input is the patch text itself.
    const custom = typeof call.input.patch === 'string' && call.name === 'apply_patch';
    const item = custom
      ? { id: `ctc_${callId}`, type: 'custom_tool_call', status: 'completed', call_id: callId, name: call.name, input: call.input.patch }
      : { id: `fc_${callId}`, type: 'function_call', status: 'completed', call_id: callId, name: call.name, arguments: JSON.stringify(call.input) };
    send('response.output_item.added', { output_index: index, item });
    send('response.output_item.done', { output_index: index, item });
    base.output.push(item);
    index += 1;
  }
  const usage = { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 30 };
  if ('maxTokens' in reply) {
    send('response.incomplete', { response: { ...base, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage } });
  } else {
    send('response.completed', { response: { ...base, status: 'completed', usage } });
  }
  res.end();
}
