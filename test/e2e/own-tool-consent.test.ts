// Issue 21 finding 2, against real agents (offline against the scripted model): a call of the
// bridge's own read-only board tool, in the form each agent writes it, runs without asking; a
// shell command that only names our MCP server in a comment or a suffix is asked, and when the
// person says no it never runs.
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentLaunch } from '../../bridge/agents/resolve.js';
import { ContextService } from '../../bridge/context/context-service.js';
import { ASK_EVERYTHING, type PendingPermission } from '../../bridge/services/permission/broker.js';
import { BridgeSession } from '../../bridge/session/bridge-session.js';
import type { BridgeEvent } from '../../bridge/session/events.js';
import { allProviders } from '../../context-providers/index.js';
import { agentLaunch, type AgentName } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { ofType, tempSketch } from './run-cli.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function session(name: AgentName, modelUrl: string, root: string): { launch: AgentLaunch; env: Record<string, string> } {
  const agent = agentLaunch(name, modelUrl, root);
  const id = name === 'gemini' ? 'gemini' : 'claude';
  return {
    launch: { id, title: name, command: agent.command, args: agent.args, env: {}, via: 'command' },
    env: { ...agent.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
  };
}

// How each agent's model calls our tool and its shell.
const FORMS: Record<AgentName, { boardInfo: object; shell: (command: string) => object; marker: string }> = {
  'claude-code-acp': {
    boardInfo: { claude: { name: 'mcp__boardbridge__board_info', input: {} } },
    shell: (command) => ({ claude: { name: 'Bash', input: { command, description: 'x', timeout: 60000 } } }),
    marker: '# mcp__boardbridge__board_info',
  },
  gemini: {
    boardInfo: { gemini: { name: 'mcp_boardbridge_board_info', input: {} } },
    shell: (command) => ({ gemini: { name: 'run_shell_command', input: { command } } }),
    marker: '# board_info (boardbridge MCP Server)',
  },
};

describe('the own-tool exception, with real agents', () => {
  for (const name of ['claude-code-acp', 'gemini'] as const) {
    it(`${name}: board_info runs unasked; a shell line naming our MCP server is asked and, refused, never runs`, async () => {
      const { root, sketch } = tempSketch();
      const pwned = path.join(root, 'pwned');
      const line = `touch ${pwned} ${FORMS[name].marker}`;
      server = await startModelServer({
        turns: [{ replies: [{ tool: FORMS[name].boardInfo }, { tool: FORMS[name].shell(line) }, { say: 'Done.' }] }],
      });
      const asked: PendingPermission[] = [];
      const events: BridgeEvent[] = [];
      const bridge = await BridgeSession.start({
        ...session(name, server.url, mkdtempSync(path.join(os.tmpdir(), 'bb-own-tool-'))),
        workspace: sketch,
        policy: ASK_EVERYTHING,
        ask: async (pending) => {
          asked.push(pending);
          return pending.request.options.find((o) => o.kind === 'reject_once')?.optionId;
        },
        contexts: new ContextService(allProviders()),
        selection: { board: 'arduino:avr:uno' },
        onEvent: (e) => events.push(e),
      });
      try {
        const turn = await bridge.prompt('Which board is this? Then mark it.');
        expect(turn.error?.message).toBeUndefined();
      } finally {
        await bridge.close();
      }
      const scripted = server.requests.filter((r) => r.handledAs === 'script');
      expect(scripted[1].conversation?.lastToolResult).toContain('# Arduino board: Arduino UNO');
      // The agent asked about board_info in its own exact form; the policy allowed it as our own tool.
      const ownRequests = ofType(events, 'permission_request').filter((r) => !r.toolCall.title?.includes('touch'));
      expect(ownRequests.map((r) => [r.toolCall.title, r.category])).toEqual([[name === 'gemini' ? 'board_info (boardbridge MCP Server)' : 'mcp__boardbridge__board_info', 'own-tool']]);
      expect(ofType(events, 'permission_decision').find((d) => d.id === ownRequests[0].id)).toMatchObject({ outcome: 'selected', by: 'policy' });
      // The shell line was asked, never allowed by a title that names our server.
      expect(asked.map((p) => p.request.toolCall.title)).toEqual([expect.stringContaining(`touch ${pwned}`)]);
      expect(asked[0].category).toBe('execute');
      expect(existsSync(pwned)).toBe(false);
    }, 180_000);
  }
});
