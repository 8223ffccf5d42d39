// The board tools as an MCP server: one registration per tool, device changes asked
// first. Served over loopback HTTP (http-server.ts) or over the ACP connection itself
// (acp-mcp-server.ts).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { notAllowed } from '../../boards/operation-faces.js';
import { asksConsent, truncateForAgent, type DeviceConsent, type HardwareTool } from './hardware-tool.js';
import { MCP_SERVER_NAME } from './names.js';

/** A fresh MCP server over the board tools (one per request: the tools keep their state in boards/). */
export function toolServer(tools: HardwareTool[], consent: DeviceConsent): McpServer {
  const mcp = new McpServer({ name: MCP_SERVER_NAME, version: '0.1.0' });
  for (const tool of tools) {
    mcp.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: { readOnlyHint: tool.readOnly, destructiveHint: asksConsent(tool), openWorldHint: false },
      },
      async (input: Record<string, unknown>, extra: { signal: AbortSignal }) => {
        try {
          const asked = await tool.consentQuestion?.(input as never);
          if (asked) {
            const answer = await consent(tool.name, asked.question, asked.kind);
            if (!answer.granted) {
              return { content: [{ type: 'text' as const, text: notAllowed(asked.question, answer.reason) }], isError: true };
            }
          }
          const output = await tool.run(input as never, extra.signal);
          return {
            content: [{ type: 'text' as const, text: truncateForAgent(output.text) }, ...(output.image ? [{ type: 'image' as const, ...output.image }] : [])],
            // Not sent as structuredContent: claude-code-acp hands the model the structured content
            // instead of the text when there is one (measured: agent-board-tools), and the text is
            // what the agent reads. The typed result stays on ToolOutput.structured.
            isError: Boolean(output.isError),
          };
        } catch (error) {
          return { content: [{ type: 'text' as const, text: `boardbridge ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}` }], isError: true };
        }
      },
    );
  }
  return mcp;
}
