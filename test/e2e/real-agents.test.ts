// End-to-end: the built CLI drives real agent packages from npm (not written here),
// offline against the scripted model server on 127.0.0.1.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentLaunch, type AgentName } from '../support/agents.js';
import { startModelServer, type ModelScript, type ModelServer } from '../support/model-server/index.js';
import { ofType, runCli, tempSketch, type RunOptions } from './run-cli.js';
import { readJournals } from '../../bridge/services/fs/journal.js';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setUp(agent: AgentName, script: ModelScript | ((sketch: string) => ModelScript)) {
  const { root, sketch, ino } = tempSketch();
  server = await startModelServer(typeof script === 'function' ? script(sketch) : script);
  const launch = agentLaunch(agent, server.url, root);
  const env = { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
  const agentCommand = [launch.command, ...launch.args].map(quote).join(' ');
  const run = (prompt: string, flags: string[] = [], onEvent?: RunOptions['onEvent']) =>
    runCli(['run', prompt, '--json', '--workspace', sketch, '--agent-command', agentCommand, ...flags], { env, onEvent });
  return { sketch, ino, env, run };
}

const FADE = 'const int ledPin = 9; // PWM pin\nvoid setup() { pinMode(ledPin, OUTPUT); }\nvoid loop() { for (int v = 0; v < 256; v++) { analogWrite(ledPin, v); delay(4); } }\n';

function writeTool(file: string, content: string) {
  return {
    claude: { name: 'Write', input: { file_path: file, content } },
    gemini: { name: 'write_file', input: { file_path: file, content } },
  };
}

const agents: Array<{ name: AgentName; short: 'claude' | 'gemini' }> = [
  { name: 'claude-code-acp', short: 'claude' },
  { name: 'gemini', short: 'gemini' },
];

describe.each(agents)('boardbridge run with the real $name agent', ({ name }) => {
  it('streams a plain reply and exits 0 on end_turn', async () => {
    const { run } = await setUp(name, { turns: [{ replies: [{ say: 'Pin 13 drives the LED on an Uno.' }] }] });
    const result = await run('Which pin is the LED on?');
    expect(result.code, result.stderr).toBe(0);
    expect(result.events[0].type).toBe('session_started');
    const text = ofType(result.events, 'message_chunk').filter((e) => e.role === 'agent').map((e) => e.text).join('');
    expect(text).toContain('Pin 13 drives the LED');
    expect(ofType(result.events, 'stop')).toEqual([{ type: 'stop', stopReason: 'end_turn' }]);
  });

  it('writes a sketch file through fs/write_text_file after a permission the policy grants, journalled for undo', async () => {
    const { run, env, sketch } = await setUp(name, (dir) => ({ turns: [{ replies: [{ tool: writeTool(path.join(dir, 'Blink.ino'), FADE) }, { say: 'The LED now fades.' }] }] }));
    const result = await run('Make the LED fade', ['--allow', 'edits']);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(path.join(sketch, 'Blink.ino'), 'utf8')).toBe(FADE);
    const written = ofType(result.events, 'file_written');
    expect(written.map((e) => path.basename(e.path))).toContain('Blink.ino');
    const decisions = ofType(result.events, 'permission_decision');
    expect(decisions.length).toBeGreaterThan(0);
    expect(decisions.every((d) => d.outcome === 'selected' && d.by === 'policy' && d.optionKind === 'allow_once')).toBe(true);
    const tools = ofType(result.events, 'tool_call');
    expect(tools.some((t) => t.toolCall.kind === 'edit' && t.toolCall.status === 'completed')).toBe(true);
    const [journal] = await readJournals(sketch, env);
    expect(journal.writes.at(-1)).toMatchObject({ path: path.join(sketch, 'Blink.ino'), after: FADE });
    expect(journal.writes[0].before).toContain('Blink ready');
    const undo = await runCli(['undo', '--workspace', sketch], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(path.join(sketch, 'Blink.ino'), 'utf8')).toContain('Blink ready');
  });

  it('creates a new file (a read of the missing file first must not stop it)', async () => {
    const { run, sketch } = await setUp(name, (dir) => ({ turns: [{ replies: [{ tool: writeTool(path.join(dir, 'src', 'fade.h'), '#pragma once\n') }, { say: 'Added a header.' }] }] }));
    const result = await run('Add a header', ['--allow', 'edits']);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(path.join(sketch, 'src', 'fade.h'), 'utf8')).toBe('#pragma once\n');
    expect(ofType(result.events, 'file_written')).toEqual([expect.objectContaining({ path: path.join(sketch, 'src', 'fade.h'), created: true })]);
  });

  it('leaves the file alone when nobody may grant the edit, and says why', async () => {
    const { run, sketch } = await setUp(name, (dir) => ({ turns: [{ replies: [{ tool: writeTool(path.join(dir, 'Blink.ino'), FADE) }, { say: 'I could not write it.' }] }] }));
    const result = await run('Make the LED fade');
    expect(readFileSync(path.join(sketch, 'Blink.ino'), 'utf8')).toContain('Blink ready');
    const decisions = ofType(result.events, 'permission_decision');
    expect(decisions.length).toBeGreaterThan(0);
    expect(decisions[0]).toMatchObject({ outcome: 'rejected', by: 'no-person' });
    expect(ofType(result.events, 'file_written')).toEqual([]);
    // Every tool call ends in a final state, even where the agent says nothing more (gemini).
    const last = new Map(ofType(result.events, 'tool_call').map((e) => [e.toolCall.toolCallId, e.toolCall.status]));
    expect([...last.values()].every((status) => status === 'completed' || status === 'failed')).toBe(true);
  });

  it('cancels a running turn on SIGINT: the stop reason is cancelled and the exit code non-zero', async () => {
    const { run } = await setUp(name, { turns: [{ replies: [{ hang: true }] }] });
    let sent = false;
    const result = await run('Think for a long time', [], (event, child) => {
      if (!sent && event.type === 'prompt_sent') {
        sent = true;
        const waitForModel = setInterval(() => {
          if (server!.requests.some((r) => r.handledAs === 'script')) {
            clearInterval(waitForModel);
            child.kill('SIGINT');
          }
        }, 20);
      }
    });
    expect(ofType(result.events, 'stop')).toEqual([{ type: 'stop', stopReason: 'cancelled' }]);
    expect(result.code).toBe(3);
  });
});

describe('boardbridge run with the real claude-code-acp agent and terminals', () => {
  it('runs the agent\'s shell command through terminal/create in the workspace', async () => {
    const { run, sketch } = await setUp('claude-code-acp', {
      turns: [{ replies: [{ tool: { claude: { name: 'Bash', input: { command: 'echo made-by-terminal > note.txt && cat note.txt', description: 'write a note', timeout: 60000 } } } }, { say: 'Done.' }] }],
    });
    const result = await run('Write a note', ['--allow', 'all']);
    expect(result.code, result.stderr).toBe(0);
    const started = ofType(result.events, 'terminal_started');
    expect(started.map((e) => e.command).join('\n')).toContain('echo made-by-terminal');
    expect(ofType(result.events, 'terminal_exited')[0]).toMatchObject({ exitCode: 0 });
    expect(readFileSync(path.join(sketch, 'note.txt'), 'utf8')).toBe('made-by-terminal\n');
    expect(server!.requests.some((r) => r.conversation?.lastToolResult?.includes('made-by-terminal'))).toBe(true);
  });
});
