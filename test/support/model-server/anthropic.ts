// Anthropic Messages API, as Claude Code calls it: POST /v1/messages?beta=true, streamed as SSE.
import type { ServerResponse } from 'node:http';
import { chunksOf, toolCallsOf, type Conversation, type Reply } from './script.js';

interface AnthropicBlock {
  type: string;
  text?: string;
  content?: unknown;
}
interface AnthropicMessage {
  role: string;
  content: string | AnthropicBlock[];
}
export interface AnthropicRequest {
  model?: string;
  stream?: boolean;
  tools?: Array<{ name?: string }>;
  messages?: AnthropicMessage[];
}

export function anthropicConversation(body: AnthropicRequest): Conversation {
  const conversation: Conversation = {
    userPrompts: [],
    stepsSinceLastPrompt: 0,
    offeredTools: (body.tools ?? []).flatMap((t) => (typeof t.name === 'string' ? [t.name] : [])),
  };
  for (const message of body.messages ?? []) {
    if (message.role !== 'user') continue;
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const toolResults = blocks.filter((b) => b.type === 'tool_result');
    if (toolResults.length > 0) {
      conversation.stepsSinceLastPrompt += 1;
      conversation.lastToolResult = toolResults.map((b) => textOf(b.content)).join('\n');
      continue;
    }
    // Claude Code wraps context it injects in <system-reminder>; the prompt is the rest.
    const prompt = blocks
      .filter((b) => b.type === 'text' && !(b.text ?? '').trimStart().startsWith('<system-reminder>'))
      .map((b) => b.text ?? '')
      .join('\n');
    if (prompt.startsWith(maxTokensFollowUp)) {
      conversation.stepsSinceLastPrompt += 1;
      continue;
    }
    // A prompt sent after a cancelled turn arrives in the same message, after this marker.
    conversation.userPrompts.push(...prompt.split(interruptedMarker));
    conversation.stepsSinceLastPrompt = 0;
  }
  return conversation;
}

// After a max_tokens stop Claude Code itself asks the model to go on with this message.
const maxTokensFollowUp = 'Your response was cut off because it exceeded the output token limit';

const interruptedMarker = '\n[Request interrupted by user]\n';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c: AnthropicBlock) => c.text ?? '').join('');
  return '';
}

// Background requests (title, quota, suggestions) carry no tools; only the agent loop does.
export function isAnthropicBackground(body: AnthropicRequest): boolean {
  return (body.tools ?? []).length === 0;
}

interface ContentBlock {
  type: 'text' | 'tool_use';
  text?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
}

let toolUseSeq = 0;

function messageOf(reply: Reply, offeredTools: string[]): { blocks: ContentBlock[]; stopReason: string } {
  if ('say' in reply && !('tool' in reply)) return { blocks: [{ type: 'text', text: reply.say }], stopReason: 'end_turn' };
  if ('maxTokens' in reply) return { blocks: [{ type: 'text', text: reply.maxTokens }], stopReason: 'max_tokens' };
  if ('refuse' in reply) return { blocks: [{ type: 'text', text: reply.refuse }], stopReason: 'refusal' };
  if ('tool' in reply) {
    const blocks: ContentBlock[] = reply.say ? [{ type: 'text', text: reply.say }] : [];
    for (const call of toolCallsOf(reply, 'claude', offeredTools)) {
      toolUseSeq += 1;
      blocks.push({ type: 'tool_use', id: `toolu_fake${String(toolUseSeq).padStart(6, '0')}`, name: call.name, input: call.input });
    }
    return { blocks, stopReason: 'tool_use' };
  }
  return { blocks: [], stopReason: 'end_turn' };
}

export function writeAnthropicReply(res: ServerResponse, body: AnthropicRequest, reply: Reply, offeredTools: string[]): void {
  const { blocks, stopReason } = messageOf(reply, offeredTools);
  const id = `msg_fake${Date.now().toString(36)}`;
  const model = body.model ?? 'claude-fake';
  const usage = { input_tokens: 20, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': id });
    const content = blocks.map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'tool_use', id: b.id, name: b.name, input: b.input }));
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': id });
  const send = (event: string, data: object): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  };
  send('message_start', {
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const text of chunksOf(block.text ?? '')) send('content_block_delta', { index, delta: { type: 'text_delta', text } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      for (const partial_json of chunksOf(JSON.stringify(block.input ?? {}))) {
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
      }
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 10 } });
  send('message_stop', {});
  res.end();
}

export function writeAnthropicCountTokens(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ input_tokens: 42 }));
}
