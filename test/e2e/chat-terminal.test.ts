// `boardbridge chat` in a real pseudo-terminal (util-linux `script`), driven as a
// person would type, against the real claude-code-acp agent offline.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentLaunch } from '../support/agents.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { quote, startInPty, type Screen } from './pty-screen.js';
import { cliMain, tempSketch } from './run-cli.js';

let server: ModelServer | undefined;
let screen: Screen | undefined;
afterEach(async () => {
  screen?.proc.kill('SIGKILL');
  await server?.close();
});

function startChat(sketch: string, env: Record<string, string>, agentCommand: string): Screen {
  screen = startInPty([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', agentCommand], { ...env, TERM: 'dumb', NO_COLOR: '1' });
  return screen;
}

describe('boardbridge chat in a terminal', () => {
  it('streams the reply, offers the agent\'s own permission options by number and by arrow keys, writes the files, and cancels with Ctrl-C', async () => {
    const { root, sketch } = tempSketch();
    const target = path.join(sketch, 'Blink.ino');
    server = await startModelServer({
      turns: [
        { whenUserSays: 'fade', replies: [{ tool: { claude: { name: 'Write', input: { file_path: target, content: 'void setup() {}\nvoid loop() { analogWrite(9, 128); }\n' } } } }, { say: 'The LED on pin 9 now fades.' }] },
        { whenUserSays: 'notes', replies: [{ tool: { claude: { name: 'Write', input: { file_path: path.join(sketch, 'notes.txt'), content: 'pin 9 has PWM\n' } } } }, { say: 'Noted.' }] },
        { whenUserSays: 'ponder', replies: [{ hang: true }] },
      ],
    });
    const launch = agentLaunch('claude-code-acp', server.url, root);
    const screen = startChat(sketch, { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') }, [launch.command, ...launch.args].map(quote).join(' '));
    await screen.waitFor('› ');
    screen.type('make the LED fade\r');
    const asked = await screen.waitFor('Permission needed');
    const options = await screen.waitFor(/Choose 1-3/, asked);
    const menu = screen.text.slice(asked, options);
    expect(menu).toMatch(/1\. Always Allow\s+\[allow_always\]/);
    expect(menu).toMatch(/2\. Allow\s+\[allow_once\]  \(Enter\)/);
    expect(menu).toMatch(/3\. Reject\s+\[reject_once\]/);
    screen.type('2\r');
    const reply = await screen.waitFor('The LED on pin 9 now fades.', options);
    const done = await screen.waitFor('done (end_turn)', reply);
    expect(screen.text.slice(0, asked)).toContain('+ void loop() { analogWrite(9, 128); }');
    expect(screen.text.slice(options, done)).toMatch(/● edit Write .*Blink\.ino \[completed\]/);
    expect(readFileSync(target, 'utf8')).toContain('analogWrite(9, 128)');

    await screen.waitFor('› ', done);
    screen.type('write some notes\r');
    const second = await screen.waitFor(/Choose 1-3/, done);
    // The default is "Allow" (allow once), never "Always Allow"; ↑ and ↓ move between them.
    expect(screen.text.slice(second)).toContain('[2. Allow]');
    screen.type('\x1b[A');
    const up = await screen.waitFor('[1. Always Allow]', second);
    screen.type('\x1b[B');
    await screen.waitFor('[2. Allow]', up);
    screen.type('\r');
    const noted = await screen.waitFor('Noted.', second);
    expect(readFileSync(path.join(sketch, 'notes.txt'), 'utf8')).toBe('pin 9 has PWM\n');

    await screen.waitFor('› ', noted);
    screen.type('ponder the universe\r');
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (server!.requests.some((r) => r.handledAs === 'script' && JSON.stringify(r.conversation?.userPrompts ?? []).includes('ponder'))) {
          clearInterval(poll);
          resolve();
        }
      }, 25);
    });
    screen.type('\x03');
    await screen.waitFor(/^cancelled\r?$/m, noted);
    screen.type('/quit\r');
    await screen.exited();
  });
});
