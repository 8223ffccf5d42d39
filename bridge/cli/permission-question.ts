// The permission question `chat` shows: built from the request's structured fields,
// with the agent's own words only inside a bounded quotation.
import type { PermissionOption } from '@agentclientprotocol/sdk';
import type { PendingPermission } from '../services/permission/broker.js';
import { quotedLines, terminalLine } from './terminal-text.js';

// How much of the request's own text a question shows: enough to read, never so much
// that the options and the prompt scroll out of view.
const QUOTE = { lines: 8, chars: 240 };
const OPTION_NAME_CHARS = 80;

/**
 * The question, built from the request's structured fields: what kind of operation and
 * whether it changes a device (decided by the bridge), then the request's title and
 * command as quoted, bounded text, then the files it names. Nothing the agent wrote is
 * printed outside a quotation.
 */
export function permissionQuestion(pending: PendingPermission): string[] {
  const { toolCall } = pending.request;
  const lines = [`Permission needed${pending.category === 'device' ? ' (changes a device)' : ''} · ${terminalLine(toolCall.kind ?? 'other')} · the request says:`];
  lines.push(...quotedLines(toolCall.title ?? toolCall.toolCallId, QUOTE).map((l) => `  ${l}`));
  const raw = toolCall.rawInput && typeof toolCall.rawInput === 'object' ? (toolCall.rawInput as Record<string, unknown>).command : undefined;
  const command = typeof raw === 'string' ? raw : Array.isArray(raw) && raw.every((w) => typeof w === 'string') ? raw.join(' ') : undefined;
  if (command && command !== toolCall.title && `\`${command}\`` !== toolCall.title) lines.push('  command:', ...quotedLines(command, QUOTE).map((l) => `  ${l}`));
  const files = (toolCall.locations ?? []).map((l) => l.path);
  if (files.length) lines.push(`  files: ${files.slice(0, 5).map(terminalLine).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more` : ''}`);
  return lines;
}

export function optionName(option: PermissionOption): string {
  const chars = [...terminalLine(option.name)];
  return chars.length > OPTION_NAME_CHARS ? `${chars.slice(0, OPTION_NAME_CHARS).join('')}…` : chars.join('');
}
