// The proxy's own slash commands, shown in the editor beside the agent's and
// answered by the proxy (they never reach the agent): `/board` changes the
// selection mid-session, `/context` shows what the agent is told.
import type { AvailableCommand, ContentBlock } from '@agentclientprotocol/sdk';

export const PROXY_COMMANDS: readonly AvailableCommand[] = [
  {
    name: 'board',
    description: 'boardbridge: select the board for this session (an Arduino FQBN, an MPLAB device or an OpenMV board)',
    input: { hint: 'arduino:avr:uno, PIC18F47Q10 or OPENMV4' },
  },
  { name: 'context', description: 'boardbridge: show the hardware context the agent is given' },
];

export interface SlashCommand {
  name: 'board' | 'context';
  argument: string;
}

/** A prompt that is one of our commands: its text alone, starting with /board or /context. */
export function proxyCommandOf(prompt: ContentBlock[]): SlashCommand | undefined {
  const texts = prompt.filter((b) => b.type === 'text');
  if (texts.length !== 1 || prompt.length !== 1) return undefined;
  const match = /^\/(board|context)(?:\s+([\s\S]*))?$/.exec(texts[0].text.trim());
  if (!match) return undefined;
  return { name: match[1] as SlashCommand['name'], argument: (match[2] ?? '').trim() };
}

/** The agent's commands with ours added (an agent command of the same name gives way to ours). */
export function withProxyCommands(agentCommands: readonly AvailableCommand[]): AvailableCommand[] {
  const ours = new Set(PROXY_COMMANDS.map((c) => c.name));
  return [...agentCommands.filter((c) => !ours.has(c.name)), ...PROXY_COMMANDS];
}
