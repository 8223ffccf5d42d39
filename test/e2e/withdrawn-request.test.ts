// An agent that gives up on its own request ($/cancel_request) takes the question
// away from the person: the stand-in asks a permission and withdraws it.
import { afterEach, describe, expect, it } from 'vitest';
import { chatWithStandin, endScreens } from './pty-screen.js';

afterEach(endScreens);

describe('a request the agent withdraws (stand-in agent)', { timeout: 120_000 }, () => {
  it('withdraws the permission question in chat and answers the agent cancelled', async () => {
    const { screen } = chatWithStandin();
    await screen.waitFor('› ');
    screen.type('withdraw-permission\r');
    const asked = await screen.waitFor(/Permission needed .*the request says:\r?\n  │ Erase the board/);
    const withdrawn = await screen.waitFor('(permission request withdrawn)', asked);
    await screen.waitFor('permission answer: {"outcome":{"outcome":"cancelled"}}', withdrawn);
    screen.type('/quit\r');
    expect(await screen.exited()).toBe(0);
  });
});
