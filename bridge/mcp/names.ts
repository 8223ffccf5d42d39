// The names the hardware MCP server is known by, in a module of their own: the session kit, the
// `mcp` command's options and the servers share them without loading the MCP SDK, which a command
// needs only once a session serves its board tools (or relays them, for `boardbridge mcp`).

/** The server's name, in `session/new`'s mcpServers and in the MCP handshake. */
export const MCP_SERVER_NAME = 'boardbridge';

/** The variable that hands `boardbridge mcp` its bearer token for the bridge's HTTP server. */
export const MCP_TOKEN_ENV = 'BOARDBRIDGE_MCP_TOKEN';
