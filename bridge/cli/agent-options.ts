// What a person sees when no agent is ready: each real option with its one install
// and one login command, at least one that costs nothing and one on a local model.
import type { AgentStatus } from '../agents/status.js';
import { cliCommand, startedAs } from '../cli-entry.js';

const OLLAMA_CONFIG = '{"provider":{"ollama":{"npm":"@ai-sdk/openai-compatible","options":{"baseURL":"http://localhost:11434/v1"},"models":{"qwen2.5-coder:7b":{}}}},"model":"ollama/qwen2.5-coder:7b"}';

export function agentOptionsText(statuses: AgentStatus[], configDir = '~/.config'): string {
  const lines = ['No agent is ready yet: boardbridge needs an ACP agent that is installed and logged in.', 'Any one of these works (agents are tried in this order):', ''];
  for (const s of statuses) {
    lines.push(`  ${s.title} (--agent ${s.id}): ${s.offer}`);
    lines.push(`      install: ${s.installed ? `already installed (${s.command})` : s.install ?? 'see its documentation'}`);
    if (s.nodeProblem) lines.push(`      node:    ${s.nodeProblem}`);
    const key = `export ${s.keyEnv[0]}=...${s.keyNote ? `   (${s.keyNote})` : ''}`;
    lines.push(`      login:   ${s.authenticated ? `already logged in (${s.credentials})` : s.login ?? (s.keyEnv.length ? key : s.credentials)}`);
  }
  lines.push(
    '',
    '  A local model, free and offline: OpenCode with Ollama (https://ollama.com)',
    '      ollama pull qwen2.5-coder:7b',
    `      write ${configDir}/opencode/opencode.json: ${OLLAMA_CONFIG}`,
    '',
    `Then run: ${cliCommand('chat --agent <id>')}${startedAs() === 'npm-start' ? '   (or npm start again)' : ''}. ${cliCommand('agents')} shows what is installed and logged in.`,
  );
  return lines.join('\n') + '\n';
}
