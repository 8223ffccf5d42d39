// The hardware MCP server: Streamable HTTP on 127.0.0.1 only, a bearer token per
// session, Host checked against DNS rebinding. Stateless: each request gets a
// fresh MCP server over the same tools (their state lives in boards/, not here).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { DeviceConsent, HardwareTool } from './hardware-tool.js';
import { toolServer } from './tool-server.js';

export interface HardwareMcpServer {
  url: string;
  token: string;
  close(): Promise<void>;
}

export async function startHardwareMcpServer(tools: HardwareTool[], consent: DeviceConsent): Promise<HardwareMcpServer> {
  const token = randomBytes(24).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  let port = 0;
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, `boardbridge MCP server error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return reply(res, 403, 'forbidden host');
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return reply(res, 401, 'missing or wrong bearer token');
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return reply(res, 404, 'not found');
    if (req.method !== 'POST') return reply(res, 405, 'this server is stateless: POST only');
    const mcp = toolServer(tools, consent);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(message);
}
