// A session over its life: modes exposed and switched on a real agent, and a fresh
// agent process after a crash, with the journal kept.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ASK_EVERYTHING } from '../../bridge/services/permission/broker.js';
import { BridgeSession } from '../../bridge/session/bridge-session.js';
import type { BridgeEvent } from '../../bridge/session/events.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { claudeSession, ofType, standinLaunch, tempSketch } from './run-cli.js';
import { until } from '../support/until.js';

let session: BridgeSession | undefined;

function transcriptHolds(dir: string, name: string, text: string): boolean {
  if (!existsSync(dir)) return false;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory() ? transcriptHolds(file, name, text) : entry.name === name && readFileSync(file, 'utf8').includes(text)) return true;
  }
  return false;
}
let server: ModelServer | undefined;
afterEach(async () => {
  await session?.close();
  await server?.close();
  session = undefined;
  server = undefined;
});

describe('a session over its life', () => {
  it("exposes the real agent's modes and switches them", async () => {
    const { root, sketch } = tempSketch();
    server = await startModelServer({ turns: [] });
    const events: BridgeEvent[] = [];
    session = await BridgeSession.start({
      ...claudeSession(server.url, root),
      workspace: sketch,
      policy: ASK_EVERYTHING,
      onEvent: (e) => events.push(e),
    });
    expect(session.state.modes.availableModes.map((m) => m.id)).toContain('plan');
    expect(session.state.modes.currentModeId).toBe('default');
    await session.setMode('plan');
    expect(session.state.modes.currentModeId).toBe('plan');
    expect(ofType(events, 'mode').at(-1)).toEqual({ type: 'mode', currentModeId: 'plan' });
  });

  it('restarts a real agent (claude-code-acp) into the same session with session/load, its history replayed', async () => {
    const { root, sketch } = tempSketch();
    server = await startModelServer({ turns: [{ replies: [{ say: 'Pin 13 is the LED.' }] }, { replies: [{ say: 'Still here.' }] }] });
    session = await BridgeSession.start({
      ...claudeSession(server.url, root),
      workspace: sketch,
      policy: ASK_EVERYTHING,
    });
    expect((await session.prompt('Where is the LED?')).stopReason).toBe('end_turn');
    const id = session.sessionId;
    // Claude Code writes its transcript after the turn: restart once the reply is on disk.
    await until("Claude Code's transcript to hold the reply", () => transcriptHolds(path.join(root, 'home', '.claude', 'projects'), `${id}.jsonl`, 'Pin 13 is the LED.'));
    await session.restart();
    expect(session.sessionId).toBe(id);
    const replayed = session.state.entries.toArray().filter((e) => e.type === 'agent_message').map((e) => (e.type === 'agent_message' ? e.text : ''));
    expect(replayed.join('')).toContain('Pin 13 is the LED.');
    expect((await session.prompt('Are you there?')).stopReason).toBe('end_turn');
  });

  it('starts a fresh agent after a crash, keeps the journal, and the next turn works (stand-in agent)', async () => {
    const { root, sketch } = tempSketch();
    const events: BridgeEvent[] = [];
    session = await BridgeSession.start({
      launch: standinLaunch,
      env: { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
      workspace: sketch,
      policy: ASK_EVERYTHING,
      onEvent: (e) => events.push(e),
    });
    const journal = session.journal.file;
    const crashed = await session.prompt(`crash after writing ${path.join(sketch, 'a.txt')}`);
    expect(crashed.error?.code).toBe('agent_exited');
    expect(session.alive).toBe(false);
    const refused = await session.prompt('hello');
    expect(refused.error?.message).toContain('is not running');
    await session.restart();
    expect(session.alive).toBe(true);
    expect((await session.prompt('hello again')).stopReason).toBe('end_turn');
    expect(session.journal.file).toBe(journal);
    expect(ofType(events, 'session_started')).toHaveLength(2);
  });
});
