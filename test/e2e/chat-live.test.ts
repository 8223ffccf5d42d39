// `boardbridge chat` on a real terminal (tmux, whose screen is read back as a person
// sees it): running tool calls are one line rewritten in place, a status line shows the
// elapsed time and what the turn waits for (also when the model cannot be reached), the
// permission default is "allow once", --plain keeps a line per change, boolean session
// options in /config, usage and cost after a turn.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentLaunch, type AgentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { endTmuxScreens, quote, TmuxScreen } from './pty-screen.js';
import { cliMain, ofType, repoRoot, runCli, tempSketch } from './run-cli.js';

let server: ModelServer | undefined;
afterEach(async () => {
  endTmuxScreens();
  await server?.close();
  server = undefined;
});

const terminal = { TERM: 'xterm-256color', NO_COLOR: '1', LANG: 'C.UTF-8' };

function startChat(sketch: string, launch: AgentLaunch, stateDir: string, flags: string[] = []): TmuxScreen {
  const agentCommand = [launch.command, ...launch.args].map(quote).join(' ');
  return TmuxScreen.start([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', agentCommand, ...flags], { ...launch.env, ...terminal, BOARDBRIDGE_STATE_DIR: stateDir });
}

// claude-code-acp writes the sketch with its Write tool (a permission first), then replies.
const fadeTurn = (target: string) => ({
  whenUserSays: 'fade',
  replies: [{ tool: { claude: { name: 'Write', input: { file_path: target, content: 'void setup() {}\nvoid loop() { analogWrite(9, 128); }\n' } } } }, { say: 'The LED on pin 9 now fades.' }],
});

function startStandin(sketch: string, root: string, env: Record<string, string>, flags: string[] = []): TmuxScreen {
  const standin = `${quote(process.execPath)} ${quote(path.join(repoRoot, 'test', 'support', 'standin-agent.mjs'))}`;
  return TmuxScreen.start([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', standin, ...flags], {
    PATH: process.env.PATH ?? '',
    HOME: root,
    BOARDBRIDGE_STATE_DIR: path.join(root, 'state'),
    ...env,
    ...terminal,
  });
}

async function cancelAndQuit(screen: TmuxScreen): Promise<void> {
  screen.key('C-c');
  const cancelled = await screen.waitFor(/^cancelled\s*$/m);
  expect(cancelled).not.toContain('waiting for the model');
  screen.type('/quit');
  screen.key('Enter');
  await screen.waitFor('[exit 0]');
}

describe('boardbridge chat on a live terminal', { timeout: 180_000 }, () => {
  it('rewrites a tool call in place, defaults to allow once, and shows what a silent turn waits for', async () => {
    const { root, sketch } = tempSketch();
    const target = path.join(sketch, 'Blink.ino');
    server = await startModelServer({
      turns: [
        fadeTurn(target),
        { whenUserSays: 'ponder', replies: [{ hang: true }] },
      ],
    });
    const screen = startChat(sketch, agentLaunch('claude-code-acp', server.url, root), path.join(root, 'state'));
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
    await cancelAndQuit(screen);
  });

  it('keeps counting what it waits for while the model cannot be reached at all, and Ctrl-C cancels', async () => {
    const { root, sketch } = tempSketch();
    // Port 9 (discard) has no listener here: every request the agent makes is refused.
    const launch = agentLaunch('claude-code-acp', 'http://127.0.0.1:9', root);
    const screen = startChat(sketch, launch, path.join(root, 'state'));
    await screen.waitFor(/^›/m);
    screen.type('hello there');
    screen.key('Enter');
    await screen.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [1-9]s · waiting for the model · Ctrl-C cancels/);
    const later = await screen.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [5-9]s · waiting for the model · Ctrl-C cancels/);
    expect(later.split('\n').filter((l) => l.includes('waiting for the model'))).toHaveLength(1);
    await cancelAndQuit(screen);
  });

  it('shows a running terminal command as one line, rewritten when it completes, with the status naming the terminal', async () => {
    const { root, sketch } = tempSketch();
    const command = 'sleep 6 && echo slept-well';
    server = await startModelServer({
      turns: [{ whenUserSays: 'nap', replies: [{ tool: { claude: { name: 'Bash', input: { command, description: 'Take a nap', timeout: 60_000 } } } }, { say: 'Rested.' }] }],
    });
    const screen = startChat(sketch, agentLaunch('claude-code-acp', server.url, root), path.join(root, 'state'));
    await screen.waitFor(/^›/m);
    screen.type('take a nap');
    screen.key('Enter');
    await screen.waitFor(/Choose 1-\d .*\[\d\. Allow\]:/);
    screen.key('Enter');
    const running = await screen.waitFor(`waiting for a terminal: ${command}`);
    const runningLines = running.split('\n').filter((l) => /^[○◐●✗] execute /.test(l));
    expect(runningLines).toHaveLength(1);
    expect(runningLines[0]).toMatch(/^[○◐] execute /);
    expect(runningLines[0]).not.toContain('[');
    const done = await screen.waitFor('done (end_turn)');
    const doneLines = done.split('\n').filter((l) => /^[○◐●✗] execute /.test(l));
    expect(doneLines).toHaveLength(1);
    expect(doneLines[0]).toMatch(/^● execute .*\[completed\]$/);
    expect(done).toContain('Rested.');
    expect(done).not.toContain('waiting for');
    screen.type('/quit');
    screen.key('Enter');
    await screen.waitFor('[exit 0]');
  });

  it('shows a terminal command the person refused as refused, not failed, from the answer the bridge recorded', async () => {
    const { root, sketch } = tempSketch();
    const command = 'echo never-ran';
    server = await startModelServer({
      turns: [{ whenUserSays: 'greet', replies: [{ tool: { claude: { name: 'Bash', input: { command, description: 'Say hello', timeout: 60_000 } } } }, { say: 'Not run, then.' }] }],
    });
    const screen = startChat(sketch, agentLaunch('claude-code-acp', server.url, root), path.join(root, 'state'));
    await screen.waitFor(/^›/m);
    screen.type('greet the world');
    screen.key('Enter');
    const asking = await screen.waitFor(/Choose 1-(\d) .*\[\d\. Allow\]:/);
    const reject = asking.split('\n').find((l) => /^\s*\d\. .*\[reject_once\]/.test(l));
    expect(reject).toBeDefined();
    screen.type(reject!.trim().split('.')[0]!);
    screen.key('Enter');
    const done = await screen.waitFor('done (end_turn)');
    const callLines = done.split('\n').filter((l) => /^[○◐●✗] execute /.test(l));
    expect(callLines).toHaveLength(1);
    expect(callLines[0]).toMatch(/^✗ execute .*\[refused\]$/);
    expect(done).not.toContain('[failed]');
    expect(done).not.toMatch(/^\s*│ never-ran/m);
    screen.type('/quit');
    screen.key('Enter');
    await screen.waitFor('[exit 0]');
  });

  it('names the earlier sessions it offers to resume by the agent and the first prompt', async () => {
    const { root, sketch, ino } = tempSketch();
    server = await startModelServer({ turns: [fadeTurn(ino)] });
    const launch = agentLaunch('claude-code-acp', server.url, root);
    const stateDir = path.join(root, 'state');
    const agentCommand = [launch.command, ...launch.args].map(quote).join(' ');
    const first = await runCli(['run', 'make the LED fade', '--json', '--workspace', sketch, '--agent-command', agentCommand, '--allow', 'edits'], { env: { ...launch.env, BOARDBRIDGE_STATE_DIR: stateDir } });
    expect(first.code, first.stderr).toBe(0);
    const [started] = ofType(first.events, 'session_started');
    const screen = startChat(sketch, launch, stateDir, ['--resume']);
    const listed = await screen.waitFor(/Resume which \(1-\d+, n for a new session\) \[1\]:/);
    const line = listed.split('\n').find((l) => l.includes(started.sessionId));
    expect(line, listed).toMatch(/^\s+1\. \d{4}-\d\d-\d\d \d\d:\d\d  Claude[^—]* — make the LED fade  [\w-]+$/);
    screen.type('n');
    screen.key('Enter');
    await screen.waitFor(/^›/m);
    screen.type('/quit');
    screen.key('Enter');
    await screen.waitFor('[exit 0]');
  });

  it('with --plain on the same terminal, prints each state of a tool call as a line of its own and no status line', async () => {
    const { root, sketch } = tempSketch();
    const target = path.join(sketch, 'Blink.ino');
    server = await startModelServer({
      turns: [fadeTurn(target)],
    });
    const screen = startChat(sketch, agentLaunch('claude-code-acp', server.url, root), path.join(root, 'state'), ['--plain']);
    await screen.waitFor(/^›/m);
    screen.type('make the LED fade');
    screen.key('Enter');
    await screen.waitFor(/Choose 1-3 .*\[2\. Allow\]:/);
    screen.key('Enter');
    const done = await screen.waitFor('done (end_turn)');
    const callLines = done.split('\n').filter((l) => /^[○◐●✗] edit /.test(l));
    expect(callLines.length).toBeGreaterThan(1);
    expect(callLines[0]).toMatch(/^○ edit .*\[pending\]$/);
    expect(callLines.at(-1)).toMatch(/^● edit .*Blink\.ino \[completed\]$/);
    expect(done).not.toContain('waiting for');
    screen.type('/quit');
    screen.key('Enter');
    await screen.waitFor('[exit 0]');
  });

  it('shows "starting…" with the seconds while a slow agent starts, and sends what was typed meanwhile once ready (stand-in agent)', async () => {
    const { root, sketch } = tempSketch();
    const screen = startStandin(sketch, root, { STANDIN_SLOW_START: '4000' });
    await screen.waitFor(/^starting the agent… [1-9]s ›/m);
    screen.type('stop:max_tokens');
    screen.key('Enter');
    // The agent's text comes before the turn's stop reason: wait for the last of the two.
    const done = await screen.waitFor('stopped: the agent ran out of output tokens');
    expect(done).toContain('stopping with max_tokens');
    expect(done).toMatch(/^starting the agent… \d+s › stop:max_tokens$/m);
    screen.type('/quit');
    screen.key('Enter');
    await screen.waitFor('[exit 0]');
  });

  it("shows a terminal command's output when it exits, the last 20 lines of a long one (stand-in agent)", async () => {
    const { root, sketch } = tempSketch();
    const screen = startStandin(sketch, root, {}, ['--allow', 'all']);
    await screen.waitFor(/^›/m);
    screen.type('run-terminal echo hi');
    screen.key('Enter');
    const short = await screen.waitFor('terminal ended with 0');
    expect(short).toMatch(/^\$ sh -c echo hi\n  │ hi\n  exit 0$/m);
    screen.type('run-terminal seq 1 30 && echo hi-again');
    screen.key('Enter');
    const long = await screen.waitFor(/terminal ended with 0[\s\S]*terminal ended with 0/);
    const rows = long.split('\n');
    const at = rows.findIndex((r) => r.startsWith('$ sh -c seq 1 30'));
    expect(rows.slice(at + 1, at + 23)).toEqual(['  │ … 11 lines before', ...Array.from({ length: 19 }, (_, i) => `  │ ${i + 12}`), '  │ hi-again', '  exit 0']);
    screen.type('/quit');
    screen.key('Enter');
    await screen.waitFor('[exit 0]');
  });

  it('shows a terminal command the bridge refused as refused, with the reason, not as an error (stand-in agent)', async () => {
    const { root, sketch } = tempSketch();
    const screen = startStandin(sketch, root, {});
    await screen.waitFor(/^›/m);
    screen.type('run-terminal echo never');
    screen.key('Enter');
    const done = await screen.waitFor('terminal error');
    expect(done).toMatch(/^⊘ refused the agent's terminal command sh -c echo never: \S/m);
    expect(done).not.toContain('error: refused');
    expect(done).not.toContain('  │ never');
    screen.type('/quit');
    screen.key('Enter');
    await screen.waitFor('[exit 0]');
  });

  it('answers /board and /context itself, as acp does, and the next prompt carries the board chosen (stand-in agent)', async () => {
    const { root, sketch } = tempSketch();
    const screen = startStandin(sketch, root, {});
    await screen.waitFor(/^›/m);
    screen.type('/context');
    screen.key('Enter');
    // The answer is one write of several KB, which reaches the screen in pieces: wait for the heading it shows after its first line.
    expect(await screen.waitFor(/with your next prompt the agent is told[\s\S]*# Arduino board: Arduino UNO/)).toMatch(/# Arduino board: Arduino UNO/);
    screen.type('/board arduino:avr:mega');
    screen.key('Enter');
    expect(await screen.waitFor(/Board set to .*\(arduino:avr:mega\); the agent is told with your next prompt\./)).not.toContain('"type":"text","text":"/board');
    screen.type('echo-blocks');
    screen.key('Enter');
    // The agent got the Mega's context with the prompt, and never the commands.
    const told = await screen.waitFor(/"text":"echo-blocks"/);
    // (The line wraps at the screen's width.)
    const echoed = told.replace(/\n/g, '');
    expect(echoed).toMatch(/"type":"resource"[^\]]*atmega2560[^\]]*"text":"echo-blocks"/);
    expect(echoed).not.toMatch(/"text":"\/(board|context)/);
    screen.type('/context');
    screen.key('Enter');
    expect(await screen.waitFor(/The agent was told this hardware context[\s\S]*# Arduino board: Arduino Mega/)).toMatch(/The agent was told this hardware context[\s\S]*# Arduino board: Arduino Mega/);
    screen.type('/quit');
    screen.key('Enter');
    await screen.waitFor('[exit 0]');
  });

  it('echoes the permission option the person chose (stand-in agent)', async () => {
    const { root, sketch } = tempSketch();
    const screen = startStandin(sketch, root, {});
    await screen.waitFor(/^›/m);
    screen.type('permission-kinds reject_once,allow_once');
    screen.key('Enter');
    await screen.waitFor(/Choose 1-2 .*\[2\. allow once\]:/);
    screen.type('1');
    screen.key('Enter');
    const done = await screen.waitFor('permission answer:');
    expect(done).toMatch(/\[2\. allow once\]: 1\n→ reject once$/m);
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
