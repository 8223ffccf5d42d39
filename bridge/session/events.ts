// The events a face receives from a BridgeSession. `boardbridge run --json`
// prints exactly these, one per line: this is the stable event schema that the
// docs/events.md documents. Add fields freely; never rename or remove one.
import type {
  AvailableCommand,
  PermissionOption,
  PermissionOptionKind,
  PlanEntry,
  SessionConfigOption,
  SessionMode,
  StopReason,
  TerminalExitStatus,
} from '@agentclientprotocol/sdk';
import type { FormField } from '../services/elicitation/form-fields.js';
import type { PermissionCategory } from '../services/permission/classify.js';
import type { SimulationEvent } from '../hardware/simulation-event.js';
import type { PermissionAnswer } from './permission-answer.js';
import type { Entry, ToolCallState } from './state.js';

export type BridgeEvent =
  | {
      type: 'session_started';
      sessionId: string;
      agent: { id: string; name?: string; version?: string };
      cwd: string;
      capabilities: { loadSession: boolean; embeddedContext: boolean; mcpHttp: boolean; logout: boolean; listSessions: boolean };
      modes: { currentModeId?: string; availableModes: SessionMode[] };
      configOptions: SessionConfigOption[];
      journal: string;
    }
  /** `note`: which project the context is about, when the workspace is not simply it (see sketch-discovery.ts). */
  | { type: 'context_sent'; kind: string; board: string; form: 'resource' | 'text'; chars: number; full: boolean; note?: string }
  /** The prompt went without a hardware context; the agent was told this reason too. */
  | { type: 'context_missing'; reason: string }
  | { type: 'prompt_sent'; text: string }
  | { type: 'message_chunk'; role: 'user' | 'agent' | 'thought'; text: string }
  | { type: 'tool_call'; created: boolean; toolCall: ToolCallState }
  | { type: 'plan'; entries: PlanEntry[] }
  | { type: 'mode'; currentModeId: string }
  | { type: 'config_options'; configOptions: SessionConfigOption[] }
  | { type: 'available_commands'; commands: AvailableCommand[] }
  /** Context window use, and the session's cumulative cost when the agent reports one. */
  | { type: 'usage'; used: number; size: number; cost?: { amount: number; currency: string } }
  | { type: 'session_info'; title?: string }
  | { type: 'notice'; severity: string; title: string; description?: string }
  | {
      type: 'permission_request';
      id: number;
      category: PermissionCategory;
      toolCall: { toolCallId: string; title?: string; kind?: string };
      options: PermissionOption[];
    }
  | {
      type: 'permission_decision';
      id: number;
      outcome: 'selected' | 'rejected' | 'cancelled';
      optionId?: string;
      optionKind?: PermissionOptionKind;
      /** What the answer means (permission-answer.ts): a chosen reject option is `refused`, whoever chose it. */
      answer: PermissionAnswer;
      by: string;
      reason?: string;
    }
  /** The agent asks the person for input: a form (`fields`) or a URL to open. */
  | { type: 'elicitation_request'; id: number; mode: string; message: string; fields?: FormField[]; url?: string; toolCallId?: string }
  /** `by`: person, policy (no person to ask: declined), or cancel (the turn or the agent's request was cancelled). */
  | { type: 'elicitation_decision'; id: number; action: 'accept' | 'decline' | 'cancel'; by: 'person' | 'policy' | 'cancel' }
  | { type: 'elicitation_complete'; elicitationId: string }
  | { type: 'file_written'; path: string; created: boolean; seq: number }
  | { type: 'terminal_started'; terminalId: string; command: string; inProcess: boolean }
  /** A terminal's output as it arrives (the first 256 KiB; `truncated` marks where faces stop seeing it). */
  | { type: 'terminal_output'; terminalId: string; text: string; truncated?: boolean }
  | { type: 'terminal_exited'; terminalId: string; command: string; exitCode: number | null; signal: string | null }
  /** A `simulate` run the agent started (MCP tool or terminal) finished: summary and a bounded trace. */
  | SimulationEvent
  | { type: 'stop'; stopReason: StopReason }
  /** The agent closed the session (session/close) as the face ended it. */
  | { type: 'session_closed'; sessionId: string }
  | { type: 'agent_exited'; code: number | null; signal: string | null; stderrTail: string; duringTurn: boolean }
  | { type: 'error'; code: string; message: string; hint?: string }
  /** The agent needs a login only the person can do; `logins` are the commands it offers (run in a terminal, then start again). */
  | {
      type: 'auth_required';
      agent: { id: string; name?: string; version?: string };
      message: string;
      hint?: string;
      logins: { methodId: string; name: string; command: string[]; env: Record<string, string> }[];
    };

export type BridgeEventType = BridgeEvent['type'];

const ENTRY_ROLES = { user_message: 'user', agent_message: 'agent', thought: 'thought' } as const;

/** One entry of the session's transcript (SessionState) as the event a face shows it by: a whole message, a tool call as it is now. */
export function entryEvent(entry: Entry): Extract<BridgeEvent, { type: 'message_chunk' | 'tool_call' }> {
  if (entry.type === 'tool_call') return { type: 'tool_call', created: true, toolCall: entry.toolCall };
  return { type: 'message_chunk', role: ENTRY_ROLES[entry.type], text: entry.text };
}

export function exitStatusFields(exit: TerminalExitStatus | undefined): { exitCode: number | null; signal: string | null } {
  return { exitCode: exit?.exitCode ?? null, signal: exit?.signal ?? null };
}
