// One transcript: the panel's conversation is the session's own SessionState, the one reduction
// of session/update that chat renders from too. A real BridgeSession with the stand-in agent
// replaying streams recorded from real agents (test/fixtures/recorded) — the stand-in only
// replays; every update in them was written by claude-code-acp or codex-acp.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { TextRenderer } from '../../bridge/cli/render-text.js';
import { PanelHub } from '../../bridge/panel/panel-hub.js';
import type { ServerMessage } from '../../bridge/panel/protocol.js';
import { ASK_EVERYTHING } from '../../bridge/services/permission/broker.js';
import { BridgeSession } from '../../bridge/session/bridge-session.js';
import type { BridgeEvent } from '../../bridge/session/events.js';
import { standinLaunch, tempSketch } from '../e2e/run-cli.js';

const recorded = (name: string) => path.join(import.meta.dirname, '..', 'fixtures', 'recorded', name);

let session: BridgeSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

function snapshotOf(hub: PanelHub): BridgeEvent[] {
  let events: BridgeEvent[] = [];
  const page = hub.connect({ send: (message: ServerMessage) => void (message.type === 'snapshot' && (events = message.events)) });
  page.leave();
  return events;
}

describe('the panel and chat show one transcript (stand-in agent replaying recorded real-agent streams)', () => {
  it("gives a late page exactly the session's SessionState, entry by entry, and chat printed the same messages", async () => {
    const { root, sketch } = tempSketch();
    // Two replies in a row that the agent marks as two messages (messageId): one entry each.
    const twoMessages = path.join(root, 'two-messages.jsonl');
    const chunk = (messageId: string, text: string) =>
      JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'x', update: { sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text } } } });
    writeFileSync(twoMessages, [chunk('m1', 'First '), chunk('m1', 'reply.'), chunk('m2', 'Second reply.')].join('\n') + '\n');

    const out = new PassThrough();
    let printed = '';
    out.setEncoding('utf8').on('data', (t: string) => (printed += t));
    const chat = new TextRenderer(out as unknown as NodeJS.WriteStream, sketch);
    const hub = new PanelHub({ workspace: sketch });
    session = await BridgeSession.start({
      launch: standinLaunch,
      env: { PATH: process.env.PATH ?? '', HOME: root, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
      workspace: sketch,
      policy: ASK_EVERYTHING,
      ask: hub.ask,
      onEvent: (event, state) => {
        hub.onEvent(event, state);
        chat.render(event);
      },
    });
    hub.attach(session);
    for (const file of [recorded('claude-code-acp-edit-session.jsonl'), recorded('codex-acp-edit-session.jsonl'), twoMessages]) {
      expect((await session.prompt(`replay ${file}`)).stopReason).toBe('end_turn');
    }

    const transcript = snapshotOf(hub).filter((e) => e.type === 'message_chunk' || e.type === 'tool_call');
    const entries = session.state.entries.toArray();
    expect(entries.filter((e) => e.type === 'tool_call').length).toBeGreaterThan(5);
    expect(transcript.length).toBe(entries.length);
    entries.forEach((entry, i) => {
      if (entry.type === 'tool_call') expect(transcript[i]).toEqual({ type: 'tool_call', created: true, toolCall: entry.toolCall });
      else expect(transcript[i]).toEqual({ type: 'message_chunk', role: entry.type === 'agent_message' ? 'agent' : entry.type === 'thought' ? 'thought' : 'user', text: entry.text });
    });
    const messages = transcript.flatMap((e) => (e.type === 'message_chunk' && e.role === 'agent' ? [e.text] : []));
    expect(messages.slice(-2)).toEqual(['First reply.', 'Second reply.']);
    // Chat printed every reply of that transcript, in the same order.
    let from = 0;
    for (const text of messages) {
      const at = printed.indexOf(text.trim(), from);
      expect(at, `chat did not print ${JSON.stringify(text)} after offset ${from}`).toBeGreaterThanOrEqual(0);
      from = at + text.trim().length;
    }
  }, 60_000);
});
