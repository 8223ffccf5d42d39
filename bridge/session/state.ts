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

export interface ToolCallState {
  toolCallId: string;
  title: string;
  kind: ToolKind;
  status: ToolCallStatus;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  /** How the call first reached us: agents differ (gemini shows gated tools first in a permission request). */
  firstSeenIn: 'tool_call' | 'tool_call_update' | 'permission_request';
}

export type Entry =
  | { type: 'user_message'; text: string; blocks: ContentBlock[]; messageId?: string }
  | { type: 'agent_message'; text: string; blocks: ContentBlock[]; messageId?: string }
  | { type: 'thought'; text: string; messageId?: string }
  | { type: 'tool_call'; toolCallId: string };

export interface SessionState {
  sessionId: string;
  entries: Entry[];
  toolCalls: Readonly<Record<string, ToolCallState>>;
  plan: PlanEntry[];
  modes: { currentModeId?: string; availableModes: SessionMode[] };
  configOptions: SessionConfigOption[];
  availableCommands: AvailableCommand[];
  usage?: { used: number; size: number; cost?: { amount: number; currency: string } | null };
  title?: string;
  /** Updates the reducer did not understand, counted rather than dropped silently. */
  unknownUpdates: number;
}

export function initialState(
  sessionId: string,
  init: { modes?: SessionState['modes']; configOptions?: SessionConfigOption[] } = {},
): SessionState {
  return {
    sessionId,
    entries: [],
    toolCalls: {},
    plan: [],
    modes: init.modes ?? { availableModes: [] },
    configOptions: init.configOptions ?? [],
    availableCommands: [],
    unknownUpdates: 0,
  };
}
