// OpenAI Chat Completions, as OpenAI-compatible clients call it (OpenCode's custom
// providers, Qwen Code): POST <prefix>/v1/chat/completions, streamed as SSE chunks
// (or one JSON answer when `stream` is false). The path prefix names the agent.
import type { ServerResponse } from 'node:http';
import { chunksOf, toolCallsOf, type Agent, type Conversation, type Reply } from './script.js';

interface ChatPart {
  type?: string;
  text?: string;
}
interface ChatMessage {
  role?: string;
  content?: string | ChatPart[] | null;
}
export interface ChatRequest {
  model?: string;
  stream?: boolean;
  tools?: Array<{ type?: string; function?: { name?: string } }>;
  messages?: ChatMessage[];
}

export function chatConversation(body: ChatRequest, injected: (text: string) => boolean): Conversation {
  const conversation: Conversation = {
    userPrompts: [],
    stepsSinceLastPrompt: 0,
    offeredTools: (body.tools ?? []).flatMap((t) => (typeof t.function?.name === 'string' ? [t.function.name] : [])),
  };
  for (const message of body.messages ?? []) {
    if (message.role === 'tool') {
      conversation.stepsSinceLastPrompt += 1;
      conversation.lastToolResult = textOf(message.content);
      continue;
    }
    if (message.role !== 'user') continue;
    const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    const texts = parts.flatMap((p) => (p.type === 'text' && p.text !== undefined && !injected(p.text) ? [p.text] : []));
    if (texts.length === 0) continue;
    conversation.userPrompts.push(texts.join('\n'));
    conversation.stepsSinceLastPrompt = 0;
  }
  return conversation;
}

// Title and summary requests carry no tools.
export function isChatBackground(body: ChatRequest): boolean {
  return (body.tools ?? []).length === 0;
}

let callSeq = 0;

export function writeChatReply(res: ServerResponse, body: ChatRequest, reply: Reply, agent: Agent, offeredTools: string[]): void {
  const id = `chatcmpl-fake${Date.now().toString(36)}`;
  const model = body.model ?? 'fake-model';
  const created = Math.floor(Date.now() / 1000);
  const text = 'say' in reply ? reply.say : 'maxTokens' in reply ? reply.maxTokens : 'refuse' in reply ? reply.refuse : undefined;
  const calls = toolCallsOf(reply, agent, offeredTools).map((call) => {
    callSeq += 1;
    return { id: `call_fake${String(callSeq).padStart(6, '0')}`, type: 'function' as const, function: { name: call.name, arguments: JSON.stringify(call.input) } };
  });
  const finish = calls.length ? 'tool_calls' : 'maxTokens' in reply ? 'length' : 'refuse' in reply ? 'content_filter' : 'stop';
  const usage = { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 };
  if (body.stream === false) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message: { role: 'assistant', content: text ?? null, ...(calls.length ? { tool_calls: calls } : {}) }, finish_reason: finish }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (delta: object, finishReason: string | null = null, extra: object = {}): void => {
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`);
  };
  send({ role: 'assistant', content: '' });
  if (text !== undefined) for (const piece of chunksOf(text)) send({ content: piece });
  calls.forEach((call, index) => {
    send({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
    send({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] });
  });
  send({}, finish);
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
  res.write('data: [DONE]\n\n');
  res.end();
}

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((p) => p.text ?? '').join('');
}
