// The events a face receives from a BridgeSession. `boardbridge run --json`
// prints exactly these, one per line: this is the stable event schema that the
// README documents. Add fields freely; never rename or remove one.
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
import type { PermissionCategory } from '../services/permission/classify.js';
import type { SimulationEvent } from './simulation-event.js';
import type { ToolCallState } from './state.js';

export type BridgeEvent =
  | {
      type: 'session_started';
      sessionId: string;
      agent: { id: string; name?: string; version?: string };
      cwd: string;
      capabilities: { loadSession: boolean; embeddedContext: boolean; mcpHttp: boolean };
      modes: { currentModeId?: string; availableModes: SessionMode[] };
      configOptions: SessionConfigOption[];
      journal: string;
    }
  | { type: 'context_sent'; kind: string; board: string; form: 'resource' | 'text'; chars: number; full: boolean }
  | { type: 'prompt_sent'; text: string }
  | { type: 'message_chunk'; role: 'user' | 'agent' | 'thought'; text: string }
  | { type: 'tool_call'; created: boolean; toolCall: ToolCallState }
  | { type: 'plan'; entries: PlanEntry[] }
  | { type: 'mode'; currentModeId: string }
  | { type: 'config_options'; configOptions: SessionConfigOption[] }
  | { type: 'available_commands'; commands: AvailableCommand[] }
  | { type: 'usage'; used: number; size: number }
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
      by: string;
      reason?: string;
    }
  | { type: 'file_written'; path: string; created: boolean; seq: number }
  | { type: 'terminal_started'; terminalId: string; command: string; inProcess: boolean }
  /** A terminal's output as it arrives (the first 256 KiB; `truncated` marks where faces stop seeing it). */
  | { type: 'terminal_output'; terminalId: string; text: string; truncated?: boolean }
  | { type: 'terminal_exited'; terminalId: string; command: string; exitCode: number | null; signal: string | null }
  /** A `simulate` run the agent started (MCP tool or terminal) finished: summary and a bounded trace. */
  | SimulationEvent
  | { type: 'stop'; stopReason: StopReason }
  | { type: 'agent_exited'; code: number | null; signal: string | null; stderrTail: string; duringTurn: boolean }
  | { type: 'error'; code: string; message: string; hint?: string };

export type BridgeEventType = BridgeEvent['type'];

export function exitStatusFields(exit: TerminalExitStatus | undefined): { exitCode: number | null; signal: string | null } {
  return { exitCode: exit?.exitCode ?? null, signal: exit?.signal ?? null };
}
