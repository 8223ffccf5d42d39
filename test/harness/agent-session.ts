// One real agent, one scripted model server, one ACP session in a fresh temporary workspace.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpServer, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { AgentProbe, type MissingFileAnswer, type PermissionPolicy } from '../support/acp-probe.js';
import { agentLaunch, type AgentName } from '../support/agents.js';
import { startModelServer, type ModelScript, type ModelServer } from '../support/model-server/index.js';

export interface ProbeSessionOptions {
  permission?: PermissionPolicy;
  missingFile?: MissingFileAnswer;
  mcpServers?: McpServer[];
  /** Files to create in the workspace before the agent starts, by relative path. */
  files?: Record<string, string>;
  /** Drop gemini's --skip-trust (to show what it changes). */
  withoutSkipTrust?: boolean;
}

export interface ProbeSession {
  probe: AgentProbe;
  model: ModelServer;
  sessionId: string;
  workspace: string;
  close(): Promise<void>;
}

/** A script, or a function building it from the workspace path (tool inputs need absolute paths). */
export type ScriptFor = ModelScript | ((workspace: string) => ModelScript);

export async function openProbeSession(agent: AgentName, script: ScriptFor, options: ProbeSessionOptions = {}): Promise<ProbeSession> {
  const root = mkdtempSync(join(tmpdir(), `bb-harness-${agent}-`));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  for (const [path, text] of Object.entries(options.files ?? {})) writeFileSync(join(workspace, path), text);
  const model = await startModelServer(typeof script === 'function' ? script(workspace) : script);
  const launch = agentLaunch(agent, model.url, root);
  if (options.withoutSkipTrust) launch.args = launch.args.filter((arg) => arg !== '--skip-trust');
  const probe = new AgentProbe({ launch, cwd: workspace, permission: options.permission, missingFile: options.missingFile });
  const close = async (): Promise<void> => {
    await probe.close();
    await model.close();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await probe.initialize();
    const sessionId = await probe.newSession(workspace, options.mcpServers ?? []);
    return { probe, model, sessionId, workspace, close };
  } catch (error) {
    await close();
    throw new Error(`${agent} did not open a session: ${String(error)}\nstderr:\n${probe.stderr.slice(-2000)}`);
  }
}

/** The session/update kinds the agent sent, in order, for compact assertions. */
export function updateKinds(session: ProbeSession): string[] {
  return session.probe.updates.map((n) => n.update.sessionUpdate);
}

/** Methods of the agent→client requests, in order. */
export function requestMethods(session: ProbeSession): string[] {
  return session.probe.agentRequests.map((r) => r.method);
}

/** All agent_message_chunk text, joined. */
export function agentText(session: ProbeSession): string {
  return session.probe.updates
    .flatMap((n) => (n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? [n.update.content.text] : []))
    .join('');
}

/** tool_call and tool_call_update updates, in order. */
export function toolUpdates(session: ProbeSession): Array<ToolCallUpdate & { sessionUpdate: string }> {
  return session.probe.updates.flatMap((n) => (n.update.sessionUpdate === 'tool_call' || n.update.sessionUpdate === 'tool_call_update' ? [n.update] : []));
}

export async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
