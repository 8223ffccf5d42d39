// Unsaved editor contents reach the running turn: an IDE's page sends new buffers while
// the agent works, and the agent's next read already sees them. A real BridgeSession with
// the stand-in agent (which reads a file, waits for a marker file, and reads it again).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PanelHub } from '../../bridge/panel/panel-hub.js';
import type { ServerMessage } from '../../bridge/panel/protocol.js';
import { ASK_EVERYTHING } from '../../bridge/services/permission/broker.js';
import { BridgeSession } from '../../bridge/session/bridge-session.js';
import { standinLaunch, tempSketch } from '../e2e/run-cli.js';

let session: BridgeSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('unsaved buffers from an IDE page', () => {
  it('reach a turn that is already running (stand-in agent)', async () => {
    const { root, sketch, ino } = tempSketch();
    const marker = path.join(root, 'buffers-sent');
    const hub = new PanelHub({ workspace: sketch });
    session = await BridgeSession.start({
      launch: standinLaunch,
      env: { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
      workspace: sketch,
      policy: ASK_EVERYTHING,
      ask: hub.ask,
      onEvent: hub.onEvent,
    });
    hub.attach(session);
    const said: string[] = [];
    const page = hub.connect({
      send: (message: ServerMessage) => {
        if (message.type === 'event' && message.event.type === 'message_chunk') said.push(message.event.text);
      },
    });
    const turn = page.receive(JSON.stringify({ type: 'prompt', text: `read-twice ${ino} ${marker}` }));
    while (!said.join('').includes('first:')) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(said.join('')).toContain('first: // Blink');
    await page.receive(JSON.stringify({ type: 'buffers', buffers: { [ino]: 'typed, not saved\n' } }));
    writeFileSync(marker, '');
    await turn;
    expect(said.join('')).toContain('then: typed, not saved');
    page.leave();
  });
});
