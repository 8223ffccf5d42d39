// An agent that gives up on its own request ($/cancel_request) takes the question
// away from the person: the stand-in asks a permission and withdraws it.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endScreens, startInPty } from './pty-screen.js';
import { cliMain, repoRoot, tempSketch } from './run-cli.js';

afterEach(endScreens);

describe('a request the agent withdraws (stand-in agent)', { timeout: 120_000 }, () => {
  it('withdraws the permission question in chat and answers the agent cancelled', async () => {
    const { root, sketch } = tempSketch();
    const standin = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')}`;
    const screen = startInPty([process.execPath, cliMain, 'chat', '--workspace', sketch, '--agent-command', standin], {
      PATH: process.env.PATH ?? '',
      HOME: root,
      BOARDBRIDGE_STATE_DIR: path.join(root, 'state'),
      TERM: 'dumb',
      NO_COLOR: '1',
    });
    await screen.waitFor('› ');
    screen.type('withdraw-permission\r');
    const asked = await screen.waitFor(/Permission needed.*: Erase the board/);
    const withdrawn = await screen.waitFor('(permission request withdrawn)', asked);
    await screen.waitFor('permission answer: {"outcome":{"outcome":"cancelled"}}', withdrawn);
    screen.type('/quit\r');
    expect(await screen.exited()).toBe(0);
  });
});
