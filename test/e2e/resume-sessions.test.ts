// `chat --resume` against real agents offline: claude-code-acp (session/list and
// session/load) and OpenCode (session/list, load, resume and close). A first turn runs
// with `run`, then a chat picks that session from the agent's list, or names it, and the
// model sees the earlier conversation. Sessions end with session/close where offered.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentLaunch, opencodeBinary, opencodeLaunch, type AgentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { endScreens, quote, startInPty } from './pty-screen.js';
import { cliMain, ofType, runCli, tempSketch } from './run-cli.js';

let server: ModelServer | undefined;
afterEach(async () => {
  endScreens();
  await server?.close();
  server = undefined;
});

const opencode = opencodeBinary();
const cases: Array<{ name: string; available: boolean; launch: (url: string, root: string) => AgentLaunch; closes: boolean }> = [
  { name: 'claude-code-acp', available: true, launch: (url, root) => agentLaunch('claude-code-acp', url, root), closes: false },
  { name: 'opencode', available: opencode !== undefined, launch: (url, root) => opencodeLaunch(opencode!, url, root), closes: true },
];

describe.each(cases)('chat --resume with the real $name', { timeout: 240_000 }, (c) => {
  async function setUp() {
    const { root, sketch } = tempSketch();
    server = await startModelServer({
      turns: [{ replies: [{ say: 'I will remember the word PWM.' }] }, { replies: [{ say: 'The word was PWM, from our earlier talk.' }] }],
    });
    const launch = c.launch(server.url, root);
    const env = { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') };
    const agentCommand = [launch.command, ...launch.args].map(quote).join(' ');
    const first = await runCli(['run', 'Remember the word PWM', '--json', '--workspace', sketch, '--agent-command', agentCommand], { env });
    expect(first.code, first.stderr).toBe(0);
    const sessionId = ofType(first.events, 'session_started')[0].sessionId;
    const chat = (resume: string[]) => startInPty([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', agentCommand, ...resume], { ...env, TERM: 'dumb', NO_COLOR: '1' });
    return { first, sessionId, chat };
  }

  it.skipIf(!c.available)(`ends run's session ${c.closes ? 'with session/close' : 'without session/close (not offered)'}`, async () => {
    const { first, sessionId } = await setUp();
    expect(ofType(first.events, 'session_closed')).toEqual(c.closes ? [{ type: 'session_closed', sessionId }] : []);
  });

  it.skipIf(!c.available)('picks the earlier session from session/list and continues it: the model gets both prompts', async () => {
    const { sessionId, chat } = await setUp();
    const screen = chat(['--resume']);
    const listed = await screen.waitFor('Earlier sessions in this folder:');
    const question = await screen.waitFor(/Resume which \(1-\d+, n for a new session\) \[1\]: /, listed);
    expect(screen.text.slice(listed, question)).toContain(sessionId);
    screen.type('\r');
    const started = await screen.waitFor(`session ${sessionId}`, question);
    await screen.waitFor('› ', started);
    screen.type('Which word was it?\r');
    await screen.waitFor('The word was PWM, from our earlier talk.', started);
    const last = server!.requests.filter((r) => r.handledAs === 'script').at(-1)!;
    expect(last.conversation?.userPrompts.join('\n')).toContain('Remember the word PWM');
    expect(last.conversation?.userPrompts.at(-1)).toContain('Which word was it?');
    screen.type('/quit\r');
    expect(await screen.exited()).toBe(0);
  });

  it.skipIf(!c.available)('continues the session named by --resume <id>', async () => {
    const { sessionId, chat } = await setUp();
    const screen = chat(['--resume', sessionId]);
    const started = await screen.waitFor(`session ${sessionId}`);
    await screen.waitFor('› ', started);
    screen.type('Which word was it?\r');
    await screen.waitFor('The word was PWM, from our earlier talk.', started);
    screen.type('/quit\r');
    expect(await screen.exited()).toBe(0);
  });
});
