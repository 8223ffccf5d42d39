// `boardbridge undo --list` names each session by the agent (its own name from initialize)
// and the person's first prompt, with the local time it started: a real claude-code-acp
// run (scripted model server) that writes a file.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { quote } from './pty-screen.js';
import { ofType, runCli, tempSketch } from './run-cli.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('boardbridge undo --list', { timeout: 180_000 }, () => {
  it('names a session by the agent and its first prompt, shortened, with the time it started', async () => {
    const { root, sketch, ino } = tempSketch();
    server = await startModelServer({
      turns: [{ replies: [{ tool: { claude: { name: 'Write', input: { file_path: ino, content: 'void setup() {}\nvoid loop() { analogWrite(9, 128); }\n' } } } }, { say: 'Done.' }] }],
    });
    const launch = agentLaunch('claude-code-acp', server.url, root);
    const env = { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
    const prompt = 'make the LED on pin 9 fade slowly from off to full brightness and back, forever';
    const run = await runCli(['run', prompt, '--json', '--workspace', sketch, '--agent-command', [launch.command, ...launch.args].map(quote).join(' '), '--allow', 'edits'], { env });
    expect(run.code, run.stderr).toBe(0);
    const [started] = ofType(run.events, 'session_started');
    expect(ofType(run.events, 'file_written')).toHaveLength(1);
    const list = await runCli(['undo', '--list', '--workspace', sketch], { env });
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const [time, label, writes] = lines[0].split('  ');
    expect(time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    const [name, shown] = label.split(' — ');
    // The agent's own title or name from initialize, not the command that ran it (node).
    expect(name).toMatch(/claude/i);
    expect(shown).toMatch(/^make the LED on pin 9 fade slowly .*…$/);
    expect(prompt.startsWith(shown.slice(0, -1))).toBe(true);
    expect(shown.length).toBeLessThan(prompt.length);
    expect(writes).toBe('1 write(s)');
    expect(lines[0].endsWith(`--session ${started.sessionId}`)).toBe(true);
  });
});
