// Elicitation (elicitation/create, form and URL) against the stand-in agent: no agent
// here asks for a form offline. run declines by policy; chat asks the person.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endScreens, startInPty, type Screen } from './pty-screen.js';
import { cliMain, ofType, repoRoot, runCli, tempSketch } from './run-cli.js';

const standin = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')}`;

afterEach(endScreens);

function setUp() {
  const { root, sketch } = tempSketch();
  return { sketch, root, env: { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), TERM: 'dumb', NO_COLOR: '1' } };
}

function chat(sketch: string, env: Record<string, string>): Screen {
  return startInPty([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', standin], env);
}

describe('elicitation (stand-in agent)', { timeout: 120_000 }, () => {
  it('run --json shows the form and declines it by policy: nobody is there to answer', async () => {
    const { sketch, env } = setUp();
    const r = await runCli(['run', 'elicit-form', '--json', '--workspace', sketch, '--agent-command', standin], { env });
    expect(r.code, r.stderr).toBe(0);
    const [request] = ofType(r.events, 'elicitation_request');
    expect(request).toMatchObject({ mode: 'form', message: 'Which board is connected?' });
    expect(request.fields?.map((f) => [f.name, f.type, f.required, f.default])).toEqual([
      ['port', 'string', false, '/dev/ttyACM0'],
      ['baud', 'integer', true, undefined],
      ['board', 'choice', true, undefined],
      ['verbose', 'boolean', false, false],
      ['note', 'string', false, undefined],
    ]);
    expect(ofType(r.events, 'elicitation_decision')).toEqual([{ type: 'elicitation_decision', id: request.id, action: 'decline', by: 'policy' }]);
    expect(ofType(r.events, 'message_chunk').map((e) => e.text).join('')).toContain('elicitation answer: {"action":"decline"}');
  });

  it('chat asks each field with its type, choices and default, re-asks a bad answer, and sends the form', async () => {
    const { sketch, env } = setUp();
    const s = chat(sketch, env);
    await s.waitFor('› ');
    s.type('elicit-form\r');
    const asked = await s.waitFor('The agent asks: Which board is connected?');
    await s.waitFor('Serial port (string) [/dev/ttyACM0]: ', asked);
    s.type('\r');
    let at = await s.waitFor('Baud rate * (integer): ', asked);
    s.type('fast\r');
    at = await s.waitFor('type a whole number', at);
    s.type('115200\r');
    at = await s.waitFor('Board * (1-2): ', at);
    expect(s.text.slice(asked, at)).toMatch(/1\. Arduino Uno \(uno\)\s+2\. Arduino Mega \(mega\)/);
    s.type('2\r');
    at = await s.waitFor('Verbose upload (y/n) [false]: ', at);
    s.type('\r');
    at = await s.waitFor('Note (string): ', at);
    s.type('\r');
    await s.waitFor('elicitation answer: {"action":"accept","content":{"port":"/dev/ttyACM0","baud":115200,"board":"mega","verbose":false}}', at);
    s.type('/quit\r');
    expect(await s.exited()).toBe(0);
  });

  it('chat opens a URL elicitation in the browser ($BROWSER) once the person says yes, and accepts when the person is done', async () => {
    const { sketch, root, env } = setUp();
    const seen = path.join(root, 'opened.txt');
    const browser = path.join(root, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\necho "$1" > ${seen}\n`);
    chmodSync(browser, 0o755);
    const s = chat(sketch, { ...env, BROWSER: browser });
    await s.waitFor('› ');
    s.type('elicit-url\r');
    const asked = await s.waitFor('The page: https://example.invalid/authorize?code=1');
    await s.waitFor('Open it in your browser? [y/N] ', asked);
    expect(existsSync(seen)).toBe(false);
    s.type('y\r');
    await s.waitFor('Press Enter when you are done there', asked);
    expect(readFileSync(seen, 'utf8').trim()).toBe('https://example.invalid/authorize?code=1');
    s.type('\r');
    await s.waitFor('the agent says the page it opened is done (el-1)', asked);
    await s.waitFor('elicitation answer: {"action":"accept"}', asked);
    s.type('/quit\r');
    expect(await s.exited()).toBe(0);
  });

  it('Ctrl-C while a form is asked cancels the turn and answers the form with cancel', async () => {
    const { sketch, env } = setUp();
    const s = chat(sketch, env);
    await s.waitFor('› ');
    s.type('elicit-wait\r');
    const asked = await s.waitFor('Serial port (string)');
    s.type('\x03');
    await s.waitFor('elicitation answer: {"action":"cancel"}', asked);
    await s.waitFor(/^cancelled\r?$/m, asked);
    s.type('/quit\r');
    expect(await s.exited()).toBe(0);
  });
});
