// The board tools over the ACP connection itself (MCP-over-ACP, unstable): for an agent
// that declares `mcpCapabilities.acp`, the session lists `{type: "acp", name, serverId}` and
// the agent's `mcp/message` requests are served here — no port, no token. The SDK's
// McpOverAcpProvider does the binding (envelope, MCP 2026-07-28 metadata, limits,
// cancellation); it needs an SDK connection, so the proxy's raw relay hands each request
// to an in-process client connection. The MCP server behind it is the same tool server
// as over HTTP (tool-server.ts); `server/discover`, which MCP 2026-07-28 added, is
// answered here.
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { client, methods, McpOverAcpProvider, RequestError, McpProtocolError, MCP_PROTOCOL_VERSION, type McpOutcome, type McpRequestHandler, type McpServerRegistration } from '@agentclientprotocol/sdk/unstable';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { DeviceConsent, HardwareTool } from './hardware-tool.js';
import { MCP_SERVER_NAME } from './names.js';
import { toolServer } from './tool-server.js';

export interface AcpMcpServer {
  /** The `mcpServers` entry of the session. */
  declaration: { type: 'acp'; name: string; serverId: string };
  close(): Promise<void>;
}

/** One per proxy: the in-process end of the agent's `mcp/message` requests. */
export class AcpMcpHost {
  private readonly provider = new McpOverAcpProvider();
  private readonly toSdk: WritableStreamDefaultWriter<AnyMessage>;
  private readonly connection;
  private readonly waiting = new Map<string, { resolve: (result: unknown) => void; reject: (error: RequestError) => void }>();
  private nextId = 0;

  /** `notifyAgent`: the provider's notifications for a request still running (progress). */
  constructor(notifyAgent: (method: string, params: unknown) => void) {
    const inbound = new TransformStream<AnyMessage, AnyMessage>();
    this.toSdk = inbound.writable.getWriter();
    const outbound = new WritableStream<AnyMessage>({
      write: (message) => {
        const m = message as { id?: string; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } };
        if (m.method !== undefined) return notifyAgent(m.method, m.params);
        const pending = m.id === undefined ? undefined : this.waiting.get(m.id);
        if (!pending) return;
        this.waiting.delete(m.id!);
        if (m.error) pending.reject(new RequestError(m.error.code, m.error.message, m.error.data));
        else pending.resolve(m.result);
      },
    });
    const stream: Stream = { readable: inbound.readable, writable: outbound };
    this.connection = client({ name: 'boardbridge' }).onRequest(methods.client.mcp.message, this.provider.handleRequest).connect(stream);
  }

  /** Serves these tools as one MCP server on the connection. */
  register(tools: HardwareTool[], consent: DeviceConsent): AcpMcpServer {
    const registration: McpServerRegistration = this.provider.registerServer(this.connection.agent, { name: MCP_SERVER_NAME, handler: toolHandler(tools, consent) });
    return { declaration: { type: 'acp', name: registration.name, serverId: registration.serverId }, close: () => registration.dispose() };
  }

  serves(method: string): boolean {
    return method === methods.client.mcp.message;
  }

  /** The answer to one of the agent's `mcp/message` requests. */
  answer(params: unknown): Promise<unknown> {
    const id = `mcp-${++this.nextId}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      void this.toSdk.write({ jsonrpc: '2.0', id, method: methods.client.mcp.message, params } as AnyMessage);
    });
  }

  close(): void {
    this.connection.close();
    for (const pending of this.waiting.values()) pending.reject(new RequestError(-32603, 'boardbridge is ending'));
    this.waiting.clear();
  }
}

/** Each MCP request on a fresh tool server, as over stateless HTTP. */
function toolHandler(tools: HardwareTool[], consent: DeviceConsent): McpRequestHandler {
  return async ({ requestId, method, params, signal }): Promise<McpOutcome> => {
    if (method === 'server/discover') {
      return { result: { resultType: 'complete', supportedVersions: [MCP_PROTOCOL_VERSION], capabilities: { tools: {} }, serverInfo: { name: MCP_SERVER_NAME, version: '0.1.0' } } };
    }
    const server = toolServer(tools, consent);
    const [ours, theirs] = InMemoryTransport.createLinkedPair();
    try {
      await server.connect(theirs);
      const reply = new Promise<JSONRPCMessage>((resolve, reject) => {
        ours.onmessage = (message) => {
          if ('id' in message && message.id === requestId && !('method' in message)) resolve(message);
        };
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
      await ours.send({ jsonrpc: '2.0', id: requestId, method, ...(params ? { params } : {}) } as JSONRPCMessage);
      const message = (await reply) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
      if (message.error) throw new McpProtocolError(message.error.code, message.error.message, message.error.data);
      return { result: { resultType: 'complete', ...message.result } };
    } finally {
      await ours.close();
      await server.close();
    }
  };
}
