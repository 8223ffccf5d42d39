// How the board MCP server (http-server.ts) and the MCP SDK under it (some 80 ms of a start on Node
// 22) load: with the first session that serves board tools, or earlier through the session kit's
// preload; never when the bridge starts. Named here, beside the server, so that the parts follow
// what it imports.

export const loadHttpServer = () => import('./http-server.js');

/**
 * What http-server.ts imports, in parts of some 10 to 25 ms each (Node 22): the MCP SDK's zod
 * schemas, its ajv validator, its server, and the HTTP transport (@hono/node-server, which loads
 * Node's fetch), then the server itself. A module's evaluation cannot be interrupted; loaded a part
 * at a time (session/in-turns.ts), they leave the event loop free between the parts.
 */
export const httpServerParts: ReadonlyArray<() => Promise<unknown>> = [
  () => import('@modelcontextprotocol/sdk/types.js'),
  () => import('@modelcontextprotocol/sdk/validation/ajv'),
  () => import('@modelcontextprotocol/sdk/server/mcp.js'),
  () => import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  loadHttpServer,
];
