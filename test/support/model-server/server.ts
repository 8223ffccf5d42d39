// A scripted stand-in for the model APIs (Anthropic, Gemini, OpenAI Responses) on 127.0.0.1, so real ACP agents run
// offline in tests. The script format and reply selection are described in script.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicConversation, isAnthropicBackground, writeAnthropicCountTokens, writeAnthropicReply, type AnthropicRequest } from './anthropic.js';
import { geminiConversation, isGeminiBackground, writeGeminiCountTokens, writeGeminiGenerate, writeGeminiStream, type GeminiRequest } from './gemini.js';
import { chatConversation, isChatBackground, writeChatReply, type ChatRequest } from './chat-completions.js';
import { isOpenaiBackground, openaiConversation, writeOpenaiReply, type ResponsesRequest } from './openai.js';
import { chooseReply, type Agent, type Conversation, type ModelScript, type Reply, type ScriptPosition } from './script.js';

export interface RecordedRequest {
  method: string;
  /** Path with query, e.g. "/v1/messages?beta=true". */
  url: string;
  agent?: Agent;
  body: unknown;
  /** script: answered from the script; background: a side request; past-script: script exhausted; other: probes, count_tokens, unknown paths. */
  handledAs: 'script' | 'background' | 'past-script' | 'other';
  position?: ScriptPosition;
  conversation?: Conversation;
  /** The client closed the connection before the reply was complete (a hang reply always ends so). */
  aborted: boolean;
}

export interface ModelServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const backgroundReply: Reply = { say: 'OK.' };

export async function startModelServer(script: ModelScript): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const record: RecordedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', body: parseJson(raw), handledAs: 'other', aborted: false };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished) record.aborted = true;
      });
      route(script, record, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function route(script: ModelScript, record: RecordedRequest, res: ServerResponse): void {
  const path = record.url.split('?')[0] ?? '/';
  if (record.method === 'HEAD') return void res.writeHead(200).end();
  if (record.method === 'POST' && path === '/v1/messages/count_tokens') return writeAnthropicCountTokens(res);
  if (record.method === 'POST' && path === '/v1/messages') return answerAnthropic(script, record, res);
  if (record.method === 'POST' && path === '/v1/responses') return answerOpenai(script, record, res);
  const chat = /^\/(opencode|qwen)\/v1\/chat\/completions$/.exec(path);
  if (record.method === 'POST' && chat) return answerChat(script, record, res, chat[1] as 'opencode' | 'qwen');
  const gemini = /^\/v1(?:beta)?\/models\/[^/:]+:(\w+)$/.exec(path);
  if (record.method === 'POST' && gemini) return answerGemini(script, record, res, gemini[1] ?? '');
  if (record.method === 'GET' && path.endsWith('/models')) return void json(res, 200, { data: [], models: [] });
  json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `fake model server has no ${record.method} ${path}` } });
}

function answerAnthropic(script: ModelScript, record: RecordedRequest, res: ServerResponse): void {
  const body = (record.body ?? {}) as AnthropicRequest;
  record.agent = 'claude';
  const conversation = anthropicConversation(body);
  const reply = pick(script, record, conversation, isAnthropicBackground(body));
  if (reply) writeAnthropicReply(res, body, reply, conversation.offeredTools);
}

function answerOpenai(script: ModelScript, record: RecordedRequest, res: ServerResponse): void {
  const body = (record.body ?? {}) as ResponsesRequest;
  record.agent = 'codex';
  const conversation = openaiConversation(body);
  const reply = pick(script, record, conversation, isOpenaiBackground(body));
  if (reply) writeOpenaiReply(res, body, reply, conversation.offeredTools);
}

// Qwen Code sends its environment as a first user message; OpenCode wraps reminders in tags.
const chatInjected = (text: string) => /^\s*(This is the Qwen Code|<system-reminder>|<environment)/.test(text);

function answerChat(script: ModelScript, record: RecordedRequest, res: ServerResponse, agent: 'opencode' | 'qwen'): void {
  const body = (record.body ?? {}) as ChatRequest;
  record.agent = agent;
  const conversation = chatConversation(body, chatInjected);
  const reply = pick(script, record, conversation, isChatBackground(body));
  if (reply) writeChatReply(res, body, reply, agent, conversation.offeredTools);
}

function answerGemini(script: ModelScript, record: RecordedRequest, res: ServerResponse, action: string): void {
  const body = (record.body ?? {}) as GeminiRequest;
  record.agent = 'gemini';
  if (action === 'countTokens') return writeGeminiCountTokens(res);
  const conversation = geminiConversation(body);
  const streaming = action === 'streamGenerateContent';
  const reply = pick(script, record, conversation, !streaming || isGeminiBackground(body));
  if (!reply) return;
  if (streaming) writeGeminiStream(res, reply, conversation.offeredTools);
  else writeGeminiGenerate(res, body, reply, conversation.offeredTools);
}

// Returns the reply to send, or undefined when the script says to hang (the response then stays
// open until the client gives up, which is what a cancellation test needs).
function pick(script: ModelScript, record: RecordedRequest, conversation: Conversation, background: boolean): Reply | undefined {
  record.conversation = conversation;
  if (background) {
    record.handledAs = 'background';
    return backgroundReply;
  }
  const choice = chooseReply(script, conversation);
  record.handledAs = choice.kind;
  if (choice.kind === 'script') record.position = choice.position;
  return 'hang' in choice.reply ? undefined : choice.reply;
}

function json(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseJson(raw: string): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
