// The conversation as a state model reduced from `session/update` notifications,
// kept apart from any rendering (the idea of Zed's acp_thread).
import type {
  AvailableCommand,
  ContentBlock,
  PlanEntry,
  SessionConfigOption,
  SessionMode,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from '@agentclientprotocol/sdk';
import { EntryList } from './entry-list.js';

export interface ToolCallState {
  toolCallId: string;
  title: string;
  kind: ToolKind;
  status: ToolCallStatus;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  /**
   * Set when the call's permission request was answered with a reject option: the outcome the
   * bridge itself recorded, never the agent's words. The agent then reports the call `failed`.
   */
  refused?: true;
  /** How the call first reached us: agents differ (gemini shows gated tools first in a permission request). */
  firstSeenIn: 'tool_call' | 'tool_call_update' | 'permission_request';
}

export type Entry =
  | { type: 'user_message'; text: string; blocks: EntryList<ContentBlock>; messageId?: string; turn: number }
  | { type: 'agent_message'; text: string; blocks: EntryList<ContentBlock>; messageId?: string; turn: number }
  | { type: 'thought'; text: string; messageId?: string; turn: number }
  | { type: 'tool_call'; toolCall: ToolCallState };

export interface SessionState {
  sessionId: string;
  entries: EntryList<Entry>;
  /**
   * Where each tool call's entry is, so updates find it without a search. Shared by the
   * states of one history and only ever added to; getToolCall checks every hit.
   */
  toolCallIndex: Map<string, number>;
  plan: PlanEntry[];
  modes: { currentModeId?: string; availableModes: SessionMode[] };
  configOptions: SessionConfigOption[];
  availableCommands: AvailableCommand[];
  usage?: { used: number; size: number; cost?: { amount: number; currency: string } | null };
  title?: string;
  /** Updates the reducer did not understand, counted rather than dropped silently. */
  unknownUpdates: number;
  /** Prompts sent so far: a message never runs on from one turn into the next. */
  turn: number;
}

export function initialState(
  sessionId: string,
  init: { modes?: SessionState['modes']; configOptions?: SessionConfigOption[] } = {},
): SessionState {
  return {
    sessionId,
    entries: EntryList.empty<Entry>(),
    toolCallIndex: new Map(),
    plan: [],
    modes: init.modes ?? { availableModes: [] },
    configOptions: init.configOptions ?? [],
    availableCommands: [],
    unknownUpdates: 0,
    turn: 0,
  };
}

export function getToolCall(state: SessionState, toolCallId: string): ToolCallState | undefined {
  return findToolCall(state, toolCallId)?.toolCall;
}

export function findToolCall(state: SessionState, toolCallId: string): { index: number; toolCall: ToolCallState } | undefined {
  const index = state.toolCallIndex.get(toolCallId);
  if (index === undefined) return undefined;
  const entry = state.entries.get(index);
  if (entry?.type === 'tool_call' && entry.toolCall.toolCallId === toolCallId) return { index, toolCall: entry.toolCall };
  // The index was written by another history branched from an older state: search this one.
  let i = 0;
  for (const e of state.entries) {
    if (e.type === 'tool_call' && e.toolCall.toolCallId === toolCallId) return { index: i, toolCall: e.toolCall };
    i++;
  }
  return undefined;
}

export function allToolCalls(state: SessionState): ToolCallState[] {
  return state.entries.toArray().flatMap((e) => (e.type === 'tool_call' ? [e.toolCall] : []));
}
