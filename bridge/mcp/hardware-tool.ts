// One hardware tool as the MCP server offers it. The same board operations are
// reachable through ACP terminals and the CLI; this is only their MCP face.
import type { z } from 'zod';
import type { ConsentRequest } from '../../boards/operations.js';
import type { DeviceConsent } from '../hardware/bridge-hardware.js';

export interface ToolOutput {
  text: string;
  isError?: boolean;
  /** The typed result (MCP structured content), when it fits a tool answer. */
  structured?: Record<string, unknown>;
  /** A PNG the agent's model sees beside the text (the circuit's still), base64. */
  image?: { mimeType: 'image/png'; data: string };
}

export interface HardwareTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: Shape;
  /** Reads only: no device or file changes. */
  readOnly: boolean;
  /** Changes a device (upload, program, run a script): annotated so agents can warn. */
  destructive?: boolean;
  /**
   * For tools that change a device or run project code: the question the person is asked first,
   * and which consent it is; undefined when this call needs none (a serial write that cannot run code).
   */
  consentQuestion?: (input: z.infer<z.ZodObject<Shape>>) => Promise<ToolConsent | undefined> | ToolConsent | undefined;
  run(input: z.infer<z.ZodObject<Shape>>, signal: AbortSignal): Promise<ToolOutput>;
}

export type ToolConsent = ConsentRequest;

export type { DeviceConsent };

/** Tool results are for a model's context: never megabytes of serial noise. */
export const MAX_TOOL_TEXT = 16 * 1024;

export function truncateForAgent(text: string, limit = MAX_TOOL_TEXT): string {
  if (text.length <= limit) return text;
  const kept = text.slice(text.length - limit);
  return `[boardbridge: ${text.length - limit} earlier characters left out; read on with a cursor or narrow the request]\n${kept}`;
}

/** Changes a device or runs project code: annotated destructive, and never allowed unasked. */
export function asksConsent(tool: Pick<HardwareTool, 'destructive' | 'consentQuestion'>): boolean {
  return Boolean(tool.destructive || tool.consentQuestion);
}

export function defineTool<Shape extends z.ZodRawShape>(tool: HardwareTool<Shape>): HardwareTool {
  return tool as unknown as HardwareTool;
}
