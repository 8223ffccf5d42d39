// session/close when a chat or a panel ends, to an agent that offers it: the stand-in
// offers it and never answers, so its marker file shows the request arrived (and was
// then abandoned with $/cancel_request, as a slow close is).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServe } from '../panel/serve-process.js';
import { chatWithStandin, endScreens } from './pty-screen.js';
import { repoRoot, tempSketch } from './run-cli.js';

afterEach(endScreens);

const ABANDONED = 'aborted: -32800 Request cancelled';

// The panel's page learns of the agent's session (an event, or the snapshot a late page gets).
function sessionStarted(port: number, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/${token}/socket`, { headers: { Origin: `http://127.0.0.1:${port}` } });
    socket.on('message', (data) => {
      const m = JSON.parse(data.toString()) as { type: string; event?: { type: string }; events?: { type: string }[] };
      if (m.event?.type !== 'session_started' && !m.events?.some((e) => e.type === 'session_started')) return;
      socket.close();
      resolve();
    });
    socket.once('error', reject);
  });
}

describe('session/close at the end (stand-in agent)', { timeout: 120_000 }, () => {
  it('is sent when the chat ends with /quit', async () => {
    const { screen, root } = chatWithStandin((dir) => ({ STANDIN_CLOSE_MARKER: path.join(dir, 'close-marker') }));
    await screen.waitFor('› ');
    screen.type('/quit\r');
    expect(await screen.exited()).toBe(0);
    expect(readFileSync(path.join(root, 'close-marker'), 'utf8')).toBe(ABANDONED);
  });

  it('is sent when boardbridge serve ends', async () => {
    const { root, sketch } = tempSketch();
    const marker = path.join(root, 'close-marker');
    const standin = `${process.execPath} ${path.join(repoRoot, 'test', 'support', 'standin-agent.mjs')}`;
    const served = await startServe([sketch, '--agent-command', standin], { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state'), STANDIN_CLOSE_MARKER: marker });
    await sessionStarted(served.port, served.token);
    await served.stop();
    expect(readFileSync(marker, 'utf8')).toBe(ABANDONED);
  });
});
