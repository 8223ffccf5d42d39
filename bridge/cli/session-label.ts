// What a person is shown as a session's name: in `undo --list` and in chat's list of earlier sessions.
import { terminalLine } from './terminal-text.js';

// "2026-12-02 03:50  Claude Code — make the LED on pin 9 fade…": the local time, the agent's
// name and the first prompt (journals from before names were kept show the launch id alone).
export function sessionLabel(header: { startedAt: string; agent: string; name?: { agentName: string; firstPrompt: string } }): string {
  const started = new Date(header.startedAt);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = Number.isNaN(started.getTime())
    ? header.startedAt
    : `${started.getFullYear()}-${pad(started.getMonth() + 1)}-${pad(started.getDate())} ${pad(started.getHours())}:${pad(started.getMinutes())}`;
  if (!header.name) return `${time}  ${header.agent}`;
  const prompt = header.name.firstPrompt.replace(/\s+/g, ' ').trim();
  const short = prompt.length > PROMPT_CHARS ? `${prompt.slice(0, PROMPT_CHARS - 1).trimEnd()}…` : prompt;
  return `${time}  ${terminalLine(header.name.agentName)} — ${terminalLine(short)}`;
}

const PROMPT_CHARS = 48;
