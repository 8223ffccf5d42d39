// The same one-tool MCP server as mcp-echo-stdio.mjs, over streamable HTTP on 127.0.0.1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface EchoMcpHttp {
  url: string;
  /** Tool calls received, in order. */
  calls: string[];
  close(): Promise<void>;
}

export async function startEchoMcpHttp(): Promise<EchoMcpHttp> {
  const calls: string[] = [];
  const http = createServer((req, res) => {
    // Stateless mode: a fresh server and transport per request, as the SDK recommends.
    const server = new McpServer({ name: 'echo', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echoes the text back', inputSchema: { text: z.string() } }, async ({ text }) => {
      calls.push(text);
      return { content: [{ type: 'text', text: `echo: ${text}` }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
