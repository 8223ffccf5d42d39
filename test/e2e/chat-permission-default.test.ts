// The default answer (Enter) to a permission in chat never grants forever: allow once
// where offered, else a rejection, and no default at all when the agent offers only
// "always allow". The stand-in agent offers the option kinds a test names.
import { afterEach, describe, expect, it } from 'vitest';
import { chatWithStandin, endScreens } from './pty-screen.js';

afterEach(endScreens);

describe('the default answer to a permission in chat (stand-in agent)', { timeout: 120_000 }, () => {
  it('is allow once, else a rejection, and none when only "always allow" is offered', async () => {
    const { screen } = chatWithStandin();
    let at = await screen.waitFor('› ');
    screen.type('permission-kinds allow_always,allow_once,reject_once\r');
    at = await screen.waitFor('[2. allow once]: ', at);
    expect(screen.text.slice(0, at)).toMatch(/2\. allow once\s+\[allow_once\]  \(Enter\)/);
    screen.type('\r');
    at = await screen.waitFor('permission answer: {"outcome":{"outcome":"selected","optionId":"allow_once"}}', at);

    screen.type('permission-kinds allow_always,reject_always\r');
    const asked = await screen.waitFor(/Permission needed · edit · the request says:\r?\n  │ Edit Blink\.ino/, at);
    at = await screen.waitFor('[2. reject always]: ', asked);
    expect(screen.text.slice(asked, at)).toMatch(/1\. allow always\s+\[allow_always\]\r?\n/);
    expect(screen.text.slice(asked, at)).toMatch(/2\. reject always\s+\[reject_always\]  \(Enter\)/);
    screen.type('\r');
    at = await screen.waitFor('permission answer: {"outcome":{"outcome":"selected","optionId":"reject_always"}}', at);

    screen.type('permission-kinds allow_always\r');
    const only = await screen.waitFor(/Permission needed · edit · the request says:\r?\n  │ Edit Blink\.ino/, at);
    at = await screen.waitFor('Choose 1-1 (or ↑/↓ and Enter): ', only);
    expect(screen.text.slice(only, at)).not.toContain('(Enter)');
    screen.type('\r');
    at = await screen.waitFor('Please type a number from 1 to 1.', at);
    expect(screen.text.slice(only)).not.toContain('permission answer');
    screen.type('1\r');
    await screen.waitFor('permission answer: {"outcome":{"outcome":"selected","optionId":"allow_always"}}', at);
    screen.type('/quit\r');
    expect(await screen.exited()).toBe(0);
  });
});
