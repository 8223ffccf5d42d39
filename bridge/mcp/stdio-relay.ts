// `boardbridge mcp --connect URL`: a stdio MCP server for agents that only start
// MCP servers as processes. It relays every message to the running bridge's HTTP
// server, so one serial hub serves every face.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export async function relayStdioToHttp(url: string, token: string): Promise<void> {
  const upstream = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const local = new StdioServerTransport();
  const done = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    upstream.onclose = () => resolve();
  });
  local.onmessage = (message) => {
    upstream.send(message).catch((error: unknown) => {
      const id = 'id' in message ? message.id : undefined;
      if (id !== undefined) {
        void local.send({ jsonrpc: '2.0', id, error: { code: -32603, message: `boardbridge is not reachable at ${url}: ${error instanceof Error ? error.message : String(error)}` } });
      }
    });
  };
  upstream.onmessage = (message) => void local.send(message);
  upstream.onerror = (error) => process.stderr.write(`boardbridge mcp relay: ${error.message}\n`);
  await upstream.start();
  await local.start();
  await done;
  await upstream.close();
}
