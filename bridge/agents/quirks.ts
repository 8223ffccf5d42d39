// Behaviours of particular agents the bridge has to meet halfway, each with the
// reason; keyed by the agentInfo.name the agent reports in `initialize`.
import type { Implementation } from '@agentclientprotocol/sdk';

/**
 * gemini-cli reads through fs/read_text_file only to diff before its write and edit
 * tools write. Its ACP layer rejects with plain objects, so its ENOENT detection never
 * sees our -32002 and the write tool then refuses to create the file. For it, a missing
 * file reads as empty: the write creates it, and an edit of missing text still fails.
 */
export function readsMissingFileAsEmpty(agent: Implementation | null | undefined): boolean {
  return agent?.name === 'gemini-cli';
}

/**
 * Qwen Code 0.24 starts every ACP session in its mode `auto`, where a model classifier
 * approves edits and commands without asking. The bridge's permission policy only holds
 * when the agent asks: such a session is moved to the agent's own `default` mode.
 */
export function askingModeInstead(agent: Implementation | null | undefined, modes: { currentModeId?: string; availableModes: { id: string }[] }): string | undefined {
  if (agent?.name !== 'qwen-code' || modes.currentModeId !== 'auto') return undefined;
  return modes.availableModes.some((m) => m.id === 'default') ? 'default' : undefined;
}
