// Gemini API as gemini-cli calls it: POST /v1beta/models/{model}:streamGenerateContent?alt=sse for
// the agent loop, :generateContent for its JSON side questions (model router, next-speaker check).
import type { ServerResponse } from 'node:http';
import { chunksOf, toolCallsOf, type Conversation, type Reply } from './script.js';

interface GeminiPart {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
  functionResponse?: { name?: string; response?: unknown };
}
interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
}
export interface GeminiRequest {
  contents?: GeminiContent[];
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>;
  generationConfig?: { responseJsonSchema?: JsonSchema; responseSchema?: JsonSchema; responseMimeType?: string };
}

export function geminiConversation(body: GeminiRequest): Conversation {
  const conversation: Conversation = {
    userPrompts: [],
    stepsSinceLastPrompt: 0,
    offeredTools: (body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).flatMap((f) => (f.name ? [f.name] : []))),
  };
  for (const content of body.contents ?? []) {
    if (content.role !== 'user') continue;
    const parts = content.parts ?? [];
    const responses = parts.filter((p) => p.functionResponse !== undefined);
    if (responses.length > 0) {
      conversation.stepsSinceLastPrompt += 1;
      conversation.lastToolResult = responses.map((p) => JSON.stringify(p.functionResponse?.response ?? null)).join('\n');
      continue;
    }
    const texts = parts.flatMap((p) => (p.text !== undefined && !isInjectedContext(p.text) ? [p.text] : []));
    if (texts.length === 0) continue;
    const prompt = texts.join('');
    conversation.userPrompts.push(prompt);
    conversation.stepsSinceLastPrompt = 0;
  }
  return conversation;
}

// gemini-cli puts a "<session_context> This is the Gemini CLI..." part in front of the first
// prompt (same content, separate part): it is not the user's words.
function isInjectedContext(text: string): boolean {
  return text.startsWith('<session_context>') || text.startsWith('This is the Gemini CLI');
}

export function isGeminiBackground(body: GeminiRequest): boolean {
  return (body.tools ?? []).length === 0;
}

function partsOf(reply: Reply, offeredTools: string[]): { parts: GeminiPart[]; finishReason: string } {
  if ('say' in reply && !('tool' in reply)) return { parts: [{ text: reply.say }], finishReason: 'STOP' };
  if ('maxTokens' in reply) return { parts: [{ text: reply.maxTokens }], finishReason: 'MAX_TOKENS' };
  if ('refuse' in reply) return { parts: [{ text: reply.refuse }], finishReason: 'SAFETY' };
  if ('tool' in reply) {
    const parts: GeminiPart[] = reply.say ? [{ text: reply.say }] : [];
    for (const call of toolCallsOf(reply, 'gemini', offeredTools)) parts.push({ functionCall: { name: call.name, args: call.input } });
    return { parts, finishReason: 'STOP' };
  }
  return { parts: [], finishReason: 'STOP' };
}

const usageMetadata = { promptTokenCount: 20, candidatesTokenCount: 10, totalTokenCount: 30 };

export function writeGeminiStream(res: ServerResponse, reply: Reply, offeredTools: string[]): void {
  const { parts, finishReason } = partsOf(reply, offeredTools);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const frames: GeminiPart[][] = parts.flatMap((part) => (part.text !== undefined ? chunksOf(part.text).map((text) => [{ text }]) : [[part]]));
  if (frames.length === 0) frames.push([{ text: '' }]);
  frames.forEach((frameParts, i) => {
    const last = i === frames.length - 1;
    const candidate = { content: { role: 'model', parts: frameParts }, index: 0, ...(last ? { finishReason } : {}) };
    res.write(`data: ${JSON.stringify({ candidates: [candidate], usageMetadata, modelVersion: 'gemini-fake' })}\r\n\r\n`);
  });
  res.end();
}

// Side questions ask for JSON matching a schema; answer with the least eventful valid object
// (the router picks the first model, the next-speaker check hands the turn back to the user).
export function writeGeminiGenerate(res: ServerResponse, body: GeminiRequest, reply: Reply, offeredTools: string[]): void {
  const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
  const { parts, finishReason } = schema ? { parts: [{ text: JSON.stringify(sampleOf(schema)) }], finishReason: 'STOP' } : partsOf(reply, offeredTools);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0, finishReason }], usageMetadata, modelVersion: 'gemini-fake' }));
}

function sampleOf(schema: JsonSchema): unknown {
  if (schema.enum && schema.enum.length > 0) return schema.enum.includes('user') ? 'user' : schema.enum[0];
  const type = (Array.isArray(schema.type) ? schema.type[0] : schema.type)?.toLowerCase();
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sampleOf(value)]));
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return 'ok';
  }
}

export function writeGeminiCountTokens(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ totalTokens: 42 }));
}
