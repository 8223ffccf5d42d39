// What a permission request would do, judged from the tool call the agent shows:
// the policy decides by category, and device changes are a category of their own.
import path from 'node:path';
import type { ToolCallUpdate } from '@agentclientprotocol/sdk';
import { BOARD_OPERATIONS } from '../../../boards/operations.js';

export type PermissionCategory = 'read' | 'edit' | 'execute' | 'device' | 'own-tool' | 'other';

// boardbridge's own commands that change a device, from the operation table.
const OWN_DEVICE_COMMANDS = BOARD_OPERATIONS.flatMap((o) => (o.command && o.changesDevice === true ? [o.command] : [])).join('|');

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

// How agents name a tool of boardbridge's own MCP server: mcp__boardbridge__upload (claude),
// mcp_boardbridge_upload (gemini), "upload (boardbridge MCP Server)".
const OWN_MCP_TOOL = /\bmcp_{1,2}boardbridge_{1,2}[a-z_]+\b|\(boardbridge MCP Server\)/i;

export function classify(toolCall: ToolCallUpdate): PermissionCategory {
  if (toolCall._meta?.[DEVICE_META_KEY]) return 'device';
  const text = describe(toolCall);
  // The title holds a project path the agent chose: never read it as one of our own tools.
  if (toolCall._meta?.[PROJECT_CODE_META_KEY]) return DEVICE_COMMAND.test(text) || DEVICE_TOOL.test(toolName(toolCall)) ? 'device' : 'execute';
  // Our own tools ask the person themselves, with the exact question, before changing a device.
  if (OWN_MCP_TOOL.test(`${text} ${toolName(toolCall)}`)) return 'own-tool';
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
