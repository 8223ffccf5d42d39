// What a session hands its agent as the board MCP server: the tools for one
// workspace, and the `mcpServers` entry that points the agent at them. Shared by
// BridgeSession and the ACP proxy, so both faces offer the same server the same way.
import type { McpServer } from '@agentclientprotocol/sdk';
import { cliEntry } from '../cli-entry.js';
import type { ContextService } from '../context/context-service.js';
import type { SessionOperations } from '../hardware/bridge-hardware.js';
import { operationTools } from './command-tools.js';
import { contextTools } from './context-tools.js';
import type { HardwareTool } from './hardware-tool.js';
import type { HardwareMcpServer } from './http-server.js';
import { MCP_SERVER_NAME, MCP_TOKEN_ENV } from './names.js';
import { WorkspaceGuard } from '../services/fs/workspace-guard.js';

export interface SessionToolsOptions {
  workspace: string;
  /** --sketch: which project of the workspace the context tools describe. */
  sketch?: string;
  contexts?: ContextService;
  /** The board selected now (it can change mid-session). */
  board: () => string | undefined;
  /** The session's board operations (one context: the terminals' and these tools' hub, cursors, simulation). */
  operations?: SessionOperations;
  /**
   * The session's fs guard (the workspace and the read-only platform folders): tool output quotes
   * no file outside it. Absent: a guard of the workspace alone.
   */
  guard?: WorkspaceGuard;
  env: NodeJS.ProcessEnv;
  /** The agent takes images: simulation answers carry a still of the circuit. */
  images?: boolean;
}

export function sessionTools(options: SessionToolsOptions): HardwareTool[] {
  const tools: HardwareTool[] = [];
  if (options.contexts) tools.push(...contextTools(options.contexts, options.workspace, options.board, options.sketch));
  if (options.operations) {
    const env = Object.fromEntries(Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined));
    const guard = options.guard ?? new WorkspaceGuard([options.workspace]);
    tools.push(...operationTools(options.operations.face('the agent (MCP)'), { cwd: options.workspace, env, mayShow: (file) => guard.allows(file, 'read'), mayWrite: (file) => guard.allows(file, 'write'), images: Boolean(options.images) }));
  }
  return tools;
}

// HTTP with a bearer token where the agent supports it; otherwise a stdio relay it starts itself.
export function mcpServerEntry(server: HardwareMcpServer, http: boolean): McpServer {
  if (http) {
    return { type: 'http', name: MCP_SERVER_NAME, url: server.url, headers: [{ name: 'Authorization', value: `Bearer ${server.token}` }] };
  }
  return {
    name: MCP_SERVER_NAME,
    command: process.execPath,
    args: [cliEntry(), 'mcp', '--connect', server.url],
    env: [{ name: MCP_TOKEN_ENV, value: server.token }],
  };
}
