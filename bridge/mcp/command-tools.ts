// The board operations as MCP tools, generated from BOARD_OPERATIONS: the tool's name is the
// operation's in snake_case, its inputSchema the operation's schema, its annotations and consent
// question the entry's. A call runs the operation's typed run in the session's OperationContext
// (the same one its terminals use: one serial hub, one simulation): no command line in between.
import type { CommandIo } from '../../boards/command.js';
import type { SimulationRecord } from '../../boards/commands/simulate-command.js';
import { asFace, type OperationContext } from '../../boards/operation-context.js';
import { asksBefore, BOARD_OPERATIONS, consentFor, offers, toolName, type AnyOperation } from '../../boards/operations.js';
import { errorText } from '../../boards/operation-faces.js';
import { simulationJsonWithin } from '../hardware/simulation-event.js';
import { MAX_TOOL_TEXT, type HardwareTool, type ToolOutput } from './hardware-tool.js';

/** Where a session's tool calls run: its workspace, environment and fs guard. */
export interface ToolPlace {
  cwd: string;
  env: Record<string, string>;
  /** The files the agent may read (its fs guard): output quotes no other. */
  mayShow?: (file: string) => boolean;
  /** The files the agent may write (its fs guard): a VCD goes nowhere else. */
  mayWrite?: (file: string) => boolean;
  /** The agent takes images (ACP `promptCapabilities.image`): a run's circuit still goes with its answer. */
  images?: boolean;
}

/** Every operation an MCP face offers, as a tool running in `context`. */
export function operationTools(context: OperationContext, place: ToolPlace): HardwareTool[] {
  const face = asFace(context, context.owner ?? 'the agent (MCP)');
  return BOARD_OPERATIONS.filter((o) => offers(o, 'mcp')).map((operation) => operationTool(operation, face, place));
}

export function operationTool(operation: AnyOperation, context: OperationContext, place: ToolPlace): HardwareTool {
  return {
    name: toolName(operation),
    title: operation.title,
    description: operation.details ? `${capital(operation.help)}. ${operation.details}` : `${capital(operation.help)}.`,
    input: operation.input,
    readOnly: operation.readOnly,
    destructive: operation.changesDevice !== false || operation.runsProjectCode,
    // Only an operation that can ask has a question (asksConsent reads its presence).
    ...(asksBefore(operation) ? { consentQuestion: (input: unknown) => consentFor(operation, input, context) } : {}),
    run: async (input, signal) => {
      let text = '';
      const io: CommandIo = {
        write: (t) => (text += t),
        signal,
        cwd: place.cwd,
        env: place.env,
        ...(place.mayShow ? { mayShow: place.mayShow } : {}),
        ...(place.mayWrite ? { mayWrite: place.mayWrite } : {}),
      };
      try {
        const outcome = await operation.run(input, context, io);
        const isError = outcome.exitCode !== 0;
        const agentText = agentView(operation, outcome.data);
        const output: ToolOutput = { text: agentText ?? (text || `(no output; exit ${outcome.exitCode})`), isError };
        // Agents (claude-code-acp) hand the model the structured content instead of the text when
        // there is one, so it carries the text too: what the run said is never lost to the agent.
        const structured = isError ? undefined : agentText !== undefined ? structuredOf(JSON.parse(agentText)) : structuredOf(withOutput(outcome.data, text));
        // A failed scenario's still shows the circuit where it went wrong: sent whatever the exit code.
        const image = place.images && outcome.still ? { mimeType: 'image/png' as const, data: outcome.still().toString('base64') } : undefined;
        return { ...output, ...(structured ? { structured } : {}), ...(image ? { image } : {}) };
      } catch (error) {
        return { text: text + errorText(operation, error), isError: true };
      }
    },
  };
}

// A finished simulation as the agent reads it: valid JSON within its limit (the record carries up to 64 KiB of serial text).
function agentView(operation: AnyOperation, data: unknown): string | undefined {
  if (operation.name !== 'simulate' || !(data as { ok?: boolean } | undefined)?.ok) return undefined;
  return simulationJsonWithin(data as SimulationRecord, MAX_TOOL_TEXT - 256);
}

function withOutput(data: unknown, text: string): unknown {
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? { ...data, output: text } : undefined;
}

// MCP structured content: an object, and only when it fits a tool answer.
function structuredOf(data: unknown): Record<string, unknown> | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  return JSON.stringify(data).length <= MAX_TOOL_TEXT ? (data as Record<string, unknown>) : undefined;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
