// A pure reducer over `session/update`: (state, update) -> (state, changes).
// It upserts tool calls by id, tolerates updates for calls it has not seen and
// merges only the fields an update carries. Tool calls live in their entries with
// an id index; entries and a message's blocks are EntryLists, so the cost of an
// update does not grow with the length of the session or of the message.
import type { ContentBlock, SessionUpdate, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { EntryList } from './entry-list.js';
import { findToolCall, type Entry, type SessionState, type ToolCallState } from './state.js';

export type StateChange =
  | { type: 'message_chunk'; role: 'user' | 'agent' | 'thought'; text: string; block: ContentBlock; entryIndex: number }
  | { type: 'tool_call'; toolCall: ToolCallState; created: boolean }
  | { type: 'plan' }
  | { type: 'mode'; currentModeId: string }
  | { type: 'config_options' }
  | { type: 'available_commands' }
  | { type: 'usage' }
  | { type: 'session_info' }
  | { type: 'notice'; severity: string; title: string; description?: string }
  | { type: 'unknown'; sessionUpdate: string };

export interface Reduction {
  state: SessionState;
  changes: StateChange[];
}

const CHUNK_ROLES = {
  user_message_chunk: 'user',
  agent_message_chunk: 'agent',
  agent_thought_chunk: 'thought',
} as const;

export function reduceUpdate(state: SessionState, update: SessionUpdate): Reduction {
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
      return appendChunk(state, CHUNK_ROLES[update.sessionUpdate], update.content, update.messageId ?? undefined);
    case 'tool_call':
      return upsertToolCall(state, update, 'tool_call');
    case 'tool_call_update':
      return upsertToolCall(state, update, 'tool_call_update');
    case 'plan':
      return { state: { ...state, plan: update.entries }, changes: [{ type: 'plan' }] };
    case 'current_mode_update':
      return {
        state: { ...state, modes: { ...state.modes, currentModeId: update.currentModeId } },
        changes: [{ type: 'mode', currentModeId: update.currentModeId }],
      };
    case 'config_option_update':
      return { state: { ...state, configOptions: update.configOptions }, changes: [{ type: 'config_options' }] };
    case 'available_commands_update':
      return { state: { ...state, availableCommands: update.availableCommands }, changes: [{ type: 'available_commands' }] };
    case 'usage_update':
      return {
        state: { ...state, usage: { used: update.used, size: update.size, cost: update.cost } },
        changes: [{ type: 'usage' }],
      };
    case 'session_info_update':
      return {
        state: update.title === undefined ? state : { ...state, title: update.title ?? undefined },
        changes: [{ type: 'session_info' }],
      };
    case 'notice':
      return {
        state,
        changes: [{ type: 'notice', severity: update.severity, title: update.title, description: update.description ?? undefined }],
      };
    default: {
      const kind = (update as { sessionUpdate?: unknown }).sessionUpdate;
      return {
        state: { ...state, unknownUpdates: state.unknownUpdates + 1 },
        changes: [{ type: 'unknown', sessionUpdate: String(kind) }],
      };
    }
  }
}

/** The person's prompt went out: what the agent says next is a new message, even with no messageId. */
export function reduceTurnStart(state: SessionState): SessionState {
  return { ...state, turn: state.turn + 1 };
}

/** A tool call first seen inside `session/request_permission` (gemini does this for gated tools). */
export function reducePermissionToolCall(state: SessionState, toolCall: ToolCallUpdate): Reduction {
  return upsertToolCall(state, toolCall, 'permission_request');
}

// The permission answer the bridge gave for a call: a refused call is shown as refused, not as failed.
export function reduceRefusal(state: SessionState, toolCallId: string): Reduction {
  const found = findToolCall(state, toolCallId);
  if (!found || found.toolCall.refused) return { state, changes: [] };
  const toolCall: ToolCallState = { ...found.toolCall, refused: true };
  return { state: { ...state, entries: state.entries.set(found.index, { type: 'tool_call', toolCall }) }, changes: [{ type: 'tool_call', toolCall, created: false }] };
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    default:
      return `[${block.type}]`;
  }
}

function appendChunk(
  state: SessionState,
  role: 'user' | 'agent' | 'thought',
  block: ContentBlock,
  messageId: string | undefined,
): Reduction {
  const text = blockText(block);
  const last = state.entries.last();
  const type = role === 'user' ? 'user_message' : role === 'agent' ? 'agent_message' : 'thought';
  // Chunks join the open message unless a new messageId or a new turn says another message began.
  const continues = last !== undefined && last.type === type && last.turn === state.turn && (messageId === undefined || last.messageId === messageId);
  const entries = continues
    ? state.entries.set(state.entries.length - 1, joinChunk(last, text, block))
    : state.entries.push(type === 'thought' ? { type, text, messageId, turn: state.turn } : { type, text, blocks: EntryList.of(block), messageId, turn: state.turn });
  return {
    state: { ...state, entries },
    changes: [{ type: 'message_chunk', role, text, block, entryIndex: entries.length - 1 }],
  };
}

// Constant time per chunk however long the message: V8 joins strings without copying
// them (until read), and the blocks are an EntryList.
function joinChunk(entry: Entry, text: string, block: ContentBlock): Entry {
  if (entry.type === 'thought') return { ...entry, text: entry.text + text };
  if (entry.type === 'tool_call') return entry;
  return { ...entry, text: entry.text + text, blocks: entry.blocks.push(block) };
}

function upsertToolCall(
  state: SessionState,
  update: ToolCallUpdate & { title?: string | null },
  via: ToolCallState['firstSeenIn'],
): Reduction {
  const found = findToolCall(state, update.toolCallId);
  const previous = found?.toolCall;
  const base: ToolCallState = previous ?? {
    toolCallId: update.toolCallId,
    title: '',
    kind: 'other',
    status: 'pending',
    content: [],
    locations: [],
    firstSeenIn: via,
  };
  const merged: ToolCallState = { ...base };
  if (update.title != null) merged.title = update.title;
  if (update.kind != null) merged.kind = update.kind;
  if (update.status != null) merged.status = update.status;
  if (update.content != null) merged.content = update.content;
  if (update.locations != null) merged.locations = update.locations;
  if (update.rawInput !== undefined) merged.rawInput = update.rawInput;
  if (update.rawOutput !== undefined) merged.rawOutput = update.rawOutput;
  const index = found ? found.index : state.entries.length;
  if (!found) state.toolCallIndex.set(update.toolCallId, index);
  const entries = state.entries.set(index, { type: 'tool_call', toolCall: merged });
  return {
    state: { ...state, entries },
    changes: [{ type: 'tool_call', toolCall: merged, created: !previous }],
  };
}
