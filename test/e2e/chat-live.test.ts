// `boardbridge chat` on a real terminal (tmux, whose screen is read back as a person
// sees it): running tool calls are one line rewritten in place, a status line shows the
// elapsed time and what the turn waits for, the permission default is "allow once",
// boolean session options in /config, usage and cost after a turn.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { endTmuxScreens, quote, TmuxScreen } from './pty-screen.js';
import { cliMain, repoRoot, tempSketch } from './run-cli.js';

let server: ModelServer | undefined;
afterEach(async () => {
  endTmuxScreens();
  await server?.close();
  server = undefined;
});

const terminal = { TERM: 'xterm-256color', NO_COLOR: '1', LANG: 'C.UTF-8' };

describe('boardbridge chat on a live terminal', { timeout: 180_000 }, () => {
  it('rewrites a tool call in place, defaults to allow once, and shows what a silent turn waits for', async () => {
    const { root, sketch } = tempSketch();
    const target = path.join(sketch, 'Blink.ino');
    server = await startModelServer({
      turns: [
        { whenUserSays: 'fade', replies: [{ tool: { claude: { name: 'Write', input: { file_path: target, content: 'void setup() {}\nvoid loop() { analogWrite(9, 128); }\n' } } } }, { say: 'The LED on pin 9 now fades.' }] },
        { whenUserSays: 'ponder', replies: [{ hang: true }] },
      ],
    });
    const launch = agentLaunch('claude-code-acp', server.url, root);
    const agentCommand = [launch.command, ...launch.args].map(quote).join(' ');
    const screen = TmuxScreen.start([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', agentCommand], { ...launch.env, ...terminal, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') });
    await screen.waitFor(/^›/m);
    screen.type('make the LED fade');
    screen.key('Enter');
    const asking = await screen.waitFor(/Choose 1-3 .*\[2\. Allow\]:/);
    expect(asking).toMatch(/2\. Allow\s+\[allow_once\]  \(Enter\)/);
    expect(asking).not.toContain('waiting for');
    screen.key('Enter');
    const done = await screen.waitFor('done (end_turn)');
    expect(done).toContain('The LED on pin 9 now fades.');
    // One line for the call, in its final state (plain output would show each state on a line of its own).
    const callLines = done.split('\n').filter((l) => /^[○◐●✗] edit /.test(l));
    expect(callLines).toHaveLength(1);
    expect(callLines[0]).toMatch(/^● edit .*Blink\.ino \[completed\]$/);
    expect(done).not.toMatch(/waiting for/);

    screen.type('ponder the universe');
    screen.key('Enter');
    const waiting = await screen.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [2-9]s · waiting for the model · Ctrl-C cancels/);
    expect(waiting.split('\n').filter((l) => l.includes('waiting for the model'))).toHaveLength(1);
    screen.key('C-c');
    const cancelled = await screen.waitFor(/^cancelled\s*$/m);
    expect(cancelled).not.toContain('waiting for the model');
    screen.type('/quit');
    screen.key('Enter');
    await screen.waitFor('[exit 0]');
  });

  it('lists and sets a boolean session option, and shows usage and cost after the turn (stand-in agent)', async () => {
    const { root, sketch } = tempSketch();
    const standin = `${quote(process.execPath)} ${quote(path.join(repoRoot, 'test', 'support', 'standin-agent.mjs'))}`;
    const screen = TmuxScreen.start([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', standin], {
      PATH: process.env.PATH ?? '',
      HOME: root,
      BOARDBRIDGE_STATE_DIR: path.join(root, 'state'),
      STANDIN_CONFIG: '1',
      ...terminal,
    });
    await screen.waitFor(/^›/m);
    screen.type('/config');
    screen.key('Enter');
    const listed = await screen.waitFor('speed = fast');
    expect(listed).toContain('verbose = off  (Verbose; on/off)');
    expect(listed).toContain('speed = fast  (Speed; fast | slow)');
    screen.type('/config verbose maybe');
    screen.key('Enter');
    await screen.waitFor('verbose is on or off');
    screen.type('/config verbose on');
    screen.key('Enter');
    screen.type('report-usage');
    screen.key('Enter');
    const after = await screen.waitFor('usage: 1,234 of 200,000 context tokens · 0.0123 USD so far');
    expect(after).toContain('verbose is true');
    screen.type('/quit');
    screen.key('Enter');
    await screen.waitFor('[exit 0]');
  });
});
