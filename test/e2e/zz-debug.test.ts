import path from 'node:path';
import { it } from 'vitest';
import { agentLaunch } from '../support/agents.js';
import { startModelServer } from '../support/model-server/index.js';
import { runCli, tempSketch } from './run-cli.js';
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
it('debug', async () => {
  const { root, sketch } = tempSketch();
  const which = process.env.DBG ?? 'write';
  const script = which === 'write' ? { turns: [{ replies: [{ tool: { claude: { name: 'Write', input: { file_path: path.join(sketch, 'Blink.ino'), content: 'X' } } } }, { say: 'ok' }] }] }
    : which === 'max' ? { turns: [{ replies: [{ maxTokens: 'cut' }] }] }
    : { turns: [{ replies: [{ tool: { claude: { name: 'Bash', input: { command: 'echo hi', description: 'd' } } } }, { say: 'Done.' }] }] };
  const server = await startModelServer(script as never);
  const agent = (process.env.AG ?? 'claude-code-acp') as never;
  const launch = agentLaunch(agent, server.url, root);
  const r = await runCli(['run', 'go', '--json', '--workspace', sketch, '--allow', 'all', '--agent-command', [launch.command, ...launch.args].map(quote).join(' ')], { env: { ...launch.env, BOARDBRIDGE_STATE_DIR: root } });
  console.log(r.code, r.stdout.slice(0, 6000), r.stderr.slice(0, 2000));
  console.log(JSON.stringify(server.requests.map((q) => [q.url, q.handledAs, q.position, q.conversation?.offeredTools?.filter((t: string) => /Write|Bash|acp/.test(t))])));
  await server.close();
});
