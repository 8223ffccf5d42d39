// What the agent said it can do in its `initialize` answer, read once into one object
// whose optional parts exist only when the agent offers them (as Zed's acp_thread asks a
// connection for `session_list()` or `session_modes()` and gets an Option): callers test
// `caps.list`, never the protocol's flags, so the two faces cannot read them differently.
import type { ClientCapabilities, InitializeResponse } from '@agentclientprotocol/sdk';
import { readsMissingFileAsEmpty } from '../agents/quirks.js';

export interface AgentCapabilities {
  /** How an earlier session is re-opened: `load` replays its history as updates, `resume` does not. */
  readonly reopen?: 'load' | 'resume';
  /** session/list */
  readonly list?: true;
  /** session/close */
  readonly close?: true;
  /** ACP `logout` */
  readonly logout?: true;
  /** `additionalDirectories` on session/new: read-only folders are named to the agent. */
  readonly additionalDirectories?: true;
  /** The hardware context goes as an embedded resource, not as text. */
  readonly embeddedContext: boolean;
  /** The agent's model takes images (`promptCapabilities.image`): a tool answer may carry a circuit still. */
  readonly images: boolean;
  /** The MCP transports the agent takes besides stdio (which every agent takes). */
  readonly mcp: { readonly http: boolean; readonly acp: boolean };
  /** A read of a missing file is answered with empty text (agents/quirks.ts). */
  readonly missingFileAsEmpty: boolean;
}

export function agentCapabilities(init: InitializeResponse | undefined): AgentCapabilities {
  const caps = init?.agentCapabilities ?? {};
  const session = caps.sessionCapabilities ?? {};
  return {
    ...(caps.loadSession ? { reopen: 'load' as const } : session.resume ? { reopen: 'resume' as const } : {}),
    ...(session.list ? { list: true as const } : {}),
    ...(session.close ? { close: true as const } : {}),
    ...(caps.auth?.logout ? { logout: true as const } : {}),
    ...(session.additionalDirectories ? { additionalDirectories: true as const } : {}),
    embeddedContext: Boolean(caps.promptCapabilities?.embeddedContext),
    images: Boolean(caps.promptCapabilities?.image),
    // MCP over ACP is unstable ACP: not in the stable type.
    mcp: { http: Boolean(caps.mcpCapabilities?.http), acp: Boolean((caps.mcpCapabilities as { acp?: boolean } | undefined)?.acp) },
    missingFileAsEmpty: readsMissingFileAsEmpty(init?.agentInfo),
  };
}

/** What faces are told of the agent (`session_started`). */
export function capabilitySummary(caps: AgentCapabilities): { loadSession: boolean; embeddedContext: boolean; mcpHttp: boolean; logout: boolean; listSessions: boolean } {
  return { loadSession: caps.reopen === 'load', embeddedContext: caps.embeddedContext, mcpHttp: caps.mcp.http, logout: Boolean(caps.logout), listSessions: Boolean(caps.list) };
}

/** What the editor in front of `boardbridge acp` serves itself; the proxy serves the rest. */
export interface EditorServices {
  readonly readTextFile: boolean;
  readonly writeTextFile: boolean;
  readonly terminal: boolean;
}

export function editorServices(caps: ClientCapabilities): EditorServices {
  return { readTextFile: Boolean(caps.fs?.readTextFile), writeTextFile: Boolean(caps.fs?.writeTextFile), terminal: Boolean(caps.terminal) };
}
