// What each agent does with MCP servers handed to it in session/new (stdio and HTTP).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { AgentName } from '../support/agents.js';
import { openProbeSession, type ProbeSession } from './agent-session.js';
import { startEchoMcpHttp, type EchoMcpHttp } from './mcp-echo-http.js';

const echoStdio = join(fileURLToPath(new URL('.', import.meta.url)), 'mcp-echo-stdio.mjs');

let session: ProbeSession | undefined;
let http: EchoMcpHttp | undefined;
afterEach(async () => {
  await session?.close();
  await http?.close();
  session = undefined;
  http = undefined;
});

async function serversFor(): Promise<McpServer[]> {
  http = await startEchoMcpHttp();
  return [
    { name: 'boardbridge', command: process.execPath, args: [echoStdio], env: [] },
    { type: 'http', name: 'board-http', url: http.url, headers: [] },
  ];
}

const toolNames: Record<AgentName, { stdio: string; http: string }> = {
  'claude-code-acp': { stdio: 'mcp__boardbridge__echo', http: 'mcp__board-http__echo' },
  gemini: { stdio: 'mcp_boardbridge_echo', http: 'mcp_board-http_echo' },
};

describe.each(['claude-code-acp', 'gemini'] as const)('%s with MCP servers from session/new', { timeout: 180_000 }, (agent) => {
  it(`offers stdio and http MCP tools to the model as ${toolNames[agent].stdio} and ${toolNames[agent].http}, and calls both`, async () => {
    const names = toolNames[agent];
    const s = await openProbeSession(
      agent,
      { turns: [{ replies: [{ tool: { name: names.stdio, input: { text: 'over stdio' } } }, { tool: { name: names.http, input: { text: 'over http' } } }, { say: 'Both echoed.' }] }] },
      { mcpServers: await serversFor() },
    );
    session = s;
    expect((await s.probe.prompt(s.sessionId, 'Echo twice')).stopReason).toBe('end_turn');
    const first = s.model.requests.find((r) => r.position?.step === 0);
    expect(first?.conversation?.offeredTools).toEqual(expect.arrayContaining([names.stdio, names.http]));
    expect(s.model.requests.find((r) => r.position?.step === 1)?.conversation?.lastToolResult).toContain('echo: over stdio');
    expect(http?.calls).toEqual(['over http']);
    // MCP tools are gated like any other tool.
    expect(s.probe.agentRequests.filter((r) => r.method === 'session/request_permission')).toHaveLength(2);
  });
});

describe('gemini without --skip-trust', { timeout: 180_000 }, () => {
  it('silently starts no MCP server: the model is offered none of their tools', async () => {
    const s = await openProbeSession('gemini', { turns: [{ replies: [{ say: 'No tools here.' }] }] }, { mcpServers: await serversFor(), withoutSkipTrust: true });
    session = s;
    expect((await s.probe.prompt(s.sessionId, 'List tools')).stopReason).toBe('end_turn');
    const offered = s.model.requests.find((r) => r.handledAs === 'script')?.conversation?.offeredTools ?? [];
    expect(offered).toContain('read_file');
    expect(offered.filter((name) => name.startsWith('mcp_'))).toEqual([]);
  });
});
