// What a permission request would do, judged from the tool call the agent shows:
// the policy decides by category, and device changes are a category of their own.
import path from 'node:path';
import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import { BOARD_OPERATIONS, offers } from '../../../boards/operations.js';

export type PermissionCategory = 'read' | 'edit' | 'execute' | 'device' | 'own-tool' | 'other';

// boardbridge's own commands that change a device, from the operation table.
const OWN_DEVICE_COMMANDS = BOARD_OPERATIONS.flatMap((o) => (offers(o, 'command') && o.changesDevice === true ? [o.name.replace(/ /g, '\\s+')] : [])).join('|');

// Programs and board tools that write to a device (flash, fuses, files on the camera).
const DEVICE_COMMAND = new RegExp(
  `\\b(avrdude|arduino-cli\\s+(?:upload|burn-bootloader)|boardbridge\\s+(?:${OWN_DEVICE_COMMANDS})|ipecmd|esptool(?:\\.py)?|bossac|dfu-util|openocd|stm32flash|stm32_programmer_cli|picotool|mpremote|pyocd|nrfjprog|teensy_loader_cli|mdk|uf2conv)\\b`,
  'i',
);
const DEVICE_TOOL = /(?:^|[_\s.-])(upload|program|run_script|erase|burn_bootloader|flash)$/i;

/** Set in `_meta` by boardbridge's own device requests (MCP upload, program, run_script). */
export const DEVICE_META_KEY = 'boardbridge/device';

/** Set in `_meta` by boardbridge's own requests to run the project's code (MCP build): an execute step, whatever its title says. */
export const PROJECT_CODE_META_KEY = 'boardbridge/project-code';

/** A tool boardbridge's own MCP server offers, as the broker needs to know it. */
export interface OwnTool {
  name: string;
  readOnly: boolean;
  /** Changes a device or runs project code: it asks inside the tool too, and the agent's request is asked as well. */
  needsConsent: boolean;
}

// The whole title, as the agents write a call of an MCP tool: claude `mcp__boardbridge__<tool>`,
// gemini `<tool> (boardbridge MCP Server)`. Anything around it (a comment, a command) is not our tool.
const OWN_TOOL_TITLE = [/^mcp__boardbridge__([a-z][a-z0-9_]*)$/, /^([a-z][a-z0-9_]*) \(boardbridge MCP Server\)$/];

/**
 * The own tool a request calls, judged from the whole structured request: the exact title of a
 * tool the server offers, no shell or file-change kind, no command, no path outside the workspace.
 * Undefined for anything else, which then goes through the policy or the person as any request.
 */
export function ownToolCall(toolCall: ToolCallUpdate, offered: readonly OwnTool[], inWorkspace: (p: string) => boolean): OwnTool | undefined {
  if (toolCall._meta?.[DEVICE_META_KEY] || toolCall._meta?.[PROJECT_CODE_META_KEY]) return undefined;
  if (toolCall.kind && ['execute', 'edit', 'delete', 'move'].includes(toolCall.kind)) return undefined;
  const raw = toolCall.rawInput;
  if (raw && typeof raw === 'object' && 'command' in raw) return undefined;
  if ((toolCall.locations ?? []).some((l) => !inWorkspace(l.path))) return undefined;
  if ((toolCall.content ?? []).some((c) => c.type === 'diff' || c.type === 'terminal')) return undefined;
  const title = toolCall.title ?? '';
  const name = OWN_TOOL_TITLE.map((form) => form.exec(title)?.[1]).find(Boolean);
  return name === undefined ? undefined : offered.find((t) => t.name === name);
}

export function classify(toolCall: ToolCallUpdate): PermissionCategory {
  if (toolCall._meta?.[DEVICE_META_KEY]) return 'device';
  const text = describe(toolCall);
  // The title holds a project path the agent chose: never read it as one of our own tools.
  if (toolCall._meta?.[PROJECT_CODE_META_KEY]) return DEVICE_COMMAND.test(text) || DEVICE_TOOL.test(toolName(toolCall)) ? 'device' : 'execute';
  if (DEVICE_COMMAND.test(text) || DEVICE_TOOL.test(toolName(toolCall))) return 'device';
  switch (toolCall.kind) {
    case 'read':
    case 'search':
    case 'think':
      return 'read';
    case 'edit':
    case 'delete':
    case 'move':
      return 'edit';
    case 'execute':
      return 'execute';
    default:
      return 'other';
  }
}

/** Paths an edit would touch, from its locations, diffs and the usual raw input fields. */
export function touchedPaths(toolCall: ToolCallUpdate): string[] {
  const paths = new Set<string>();
  for (const location of toolCall.locations ?? []) paths.add(location.path);
  for (const item of toolCall.content ?? []) if (item.type === 'diff') paths.add(item.path);
  const raw = toolCall.rawInput;
  if (raw && typeof raw === 'object') {
    for (const key of ['file_path', 'path', 'absolute_path', 'notebook_path', 'filePath']) {
      const value = (raw as Record<string, unknown>)[key];
      if (typeof value === 'string' && path.isAbsolute(value)) paths.add(value);
    }
  }
  return [...paths];
}

function toolName(toolCall: ToolCallUpdate): string {
  const title = toolCall.title ?? '';
  const name = (toolCall as { name?: string | null }).name ?? '';
  return (name || title).trim().split(/\s+/)[0] ?? '';
}

function describe(toolCall: ToolCallUpdate): string {
  const raw = toolCall.rawInput;
  const command = raw && typeof raw === 'object' ? (raw as Record<string, unknown>).command : undefined;
  return [toolCall.title ?? '', typeof command === 'string' ? command : ''].join(' ');
}
