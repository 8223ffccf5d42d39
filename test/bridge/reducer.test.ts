import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { reducePermissionToolCall, reduceTurnStart, reduceUpdate } from '../../bridge/session/reducer.js';
import { allToolCalls, getToolCall, initialState, type SessionState } from '../../bridge/session/state.js';

function run(updates: SessionUpdate[], start: SessionState = initialState('s1')): SessionState {
  return updates.reduce((state, update) => reduceUpdate(state, update).state, start);
}

const text = (t: string) => ({ type: 'text' as const, text: t });

describe('the session reducer', () => {
  it('joins agent message chunks into one message until something else happens', () => {
    const state = run([
      { sessionUpdate: 'agent_message_chunk', content: text('Hel') },
      { sessionUpdate: 'agent_message_chunk', content: text('lo') },
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read' },
      { sessionUpdate: 'agent_message_chunk', content: text('Done') },
    ]);
    expect(state.entries.toArray().map((e) => e.type)).toEqual(['agent_message', 'tool_call', 'agent_message']);
    expect(state.entries.get(0)).toMatchObject({ text: 'Hello' });
    expect(state.entries.get(2)).toMatchObject({ text: 'Done' });
  });

  it('never runs a reply on into the next turn, even without messageIds', () => {
    const first = run([{ sessionUpdate: 'agent_message_chunk', content: text('Pin 13.') }]);
    const state = run([{ sessionUpdate: 'agent_message_chunk', content: text('Here is the plan.') }], reduceTurnStart(first));
    expect(state.entries.toArray().map((e) => (e.type === 'tool_call' ? e.type : e.text))).toEqual(['Pin 13.', 'Here is the plan.']);
  });

  it('starts a new message when the messageId changes', () => {
    const state = run([
      { sessionUpdate: 'agent_message_chunk', content: text('a'), messageId: 'm1' },
      { sessionUpdate: 'agent_message_chunk', content: text('b'), messageId: 'm2' },
    ]);
    expect(state.entries.length).toBe(2);
  });

  it('keeps empty text chunks harmless', () => {
    const state = run([
      { sessionUpdate: 'agent_message_chunk', content: text('') },
      { sessionUpdate: 'agent_message_chunk', content: text('x') },
    ]);
    expect(state.entries.length).toBe(1);
    expect(state.entries.get(0)).toMatchObject({ text: 'x' });
  });

  it('upserts a tool call sent twice with one id instead of duplicating it', () => {
    const state = run([
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Write', kind: 'edit', status: 'pending' },
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Write Blink.ino', kind: 'edit', status: 'pending' },
    ]);
    expect(state.entries.toArray().filter((e) => e.type === 'tool_call')).toHaveLength(1);
    expect(getToolCall(state, 't1')?.title).toBe('Write Blink.ino');
  });

  it('creates a tool call from an update for a call it has not seen', () => {
    const { state, changes } = reduceUpdate(initialState('s'), { sessionUpdate: 'tool_call_update', toolCallId: 'late', status: 'in_progress' });
    expect(getToolCall(state, 'late')).toMatchObject({ status: 'in_progress', firstSeenIn: 'tool_call_update' });
    expect(changes[0]).toMatchObject({ type: 'tool_call', created: true });
  });

  it('merges only the fields an update carries', () => {
    const state = run([
      { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Edit', kind: 'edit', status: 'pending', locations: [{ path: '/w/a.ino' }], rawInput: { a: 1 } },
      { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' },
    ]);
    expect(getToolCall(state, 't')).toMatchObject({ title: 'Edit', kind: 'edit', status: 'completed', locations: [{ path: '/w/a.ino' }], rawInput: { a: 1 } });
  });

  it('takes a tool call first seen inside a permission request, then updates it', () => {
    let state = reducePermissionToolCall(initialState('s'), { toolCallId: 'g1', title: 'WriteFile', kind: 'edit' }).state;
    state = run([{ sessionUpdate: 'tool_call_update', toolCallId: 'g1', status: 'completed' }], state);
    expect(getToolCall(state, 'g1')).toMatchObject({ title: 'WriteFile', status: 'completed', firstSeenIn: 'permission_request' });
    expect(state.entries.toArray().map((e) => e.type)).toEqual(['tool_call']);
  });

  it('tracks plan, mode, config options, commands, usage and title', () => {
    const state = run([
      { sessionUpdate: 'plan', entries: [{ content: 'wire the LED', priority: 'high', status: 'pending' }] },
      { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
      { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'init', description: 'x' }] },
      { sessionUpdate: 'usage_update', used: 10, size: 100 },
      { sessionUpdate: 'session_info_update', title: 'Blink' },
    ]);
    expect(state.plan[0].content).toBe('wire the LED');
    expect(state.modes.currentModeId).toBe('plan');
    expect(state.availableCommands[0].name).toBe('init');
    expect(state.usage).toMatchObject({ used: 10, size: 100 });
    expect(state.title).toBe('Blink');
  });

  it('counts updates of kinds it does not know instead of failing', () => {
    const { state } = reduceUpdate(initialState('s'), { sessionUpdate: 'from_the_future' } as unknown as SessionUpdate);
    expect(state.unknownUpdates).toBe(1);
  });

  it('never mutates the state it was given', () => {
    const before = run([{ sessionUpdate: 'tool_call', toolCallId: 't', title: 'a' }]);
    const snapshot = JSON.stringify(before);
    reduceUpdate(before, { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'failed' });
    reduceUpdate(before, { sessionUpdate: 'agent_message_chunk', content: text('x') });
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  const recorded = path.join(__dirname, '..', 'fixtures', 'recorded');
  const streams = existsSync(recorded) ? readdirSync(recorded).filter((f) => f.endsWith('.jsonl')) : [];
  it.runIf(streams.length > 0)('reduces every update stream recorded from real agents into consistent tool calls', () => {
    for (const file of streams) {
      const lines = readFileSync(path.join(recorded, file), 'utf8').split('\n').filter(Boolean);
      let state = initialState('recorded');
      const seenIds = new Set<string>();
      for (const line of lines) {
        const message = JSON.parse(line) as { method?: string; params?: { update?: SessionUpdate; toolCall?: { toolCallId: string } } };
        if (message.method === 'session/update' && message.params?.update) {
          const update = message.params.update;
          if ('toolCallId' in update) seenIds.add(update.toolCallId);
          state = reduceUpdate(state, update).state;
        }
      }
      expect(allToolCalls(state).map((t) => t.toolCallId).sort(), file).toEqual([...seenIds].sort());
      const toolEntries = state.entries.toArray().filter((e) => e.type === 'tool_call');
      expect(toolEntries.length, file).toBe(seenIds.size);
    }
  });
});

describe('the entry list', () => {
  it('keeps every version intact while updating and appending across pages', async () => {
    const { EntryList } = await import('../../bridge/session/entry-list.js');
    let list = EntryList.empty<number>();
    const versions = [];
    for (let i = 0; i < 300; i++) {
      list = list.push(i);
      versions.push(list);
    }
    const changed = list.set(150, -1);
    expect(changed.get(150)).toBe(-1);
    expect(list.get(150)).toBe(150);
    expect(versions[10].length).toBe(11);
    expect(versions[10].toArray()).toEqual([...Array(11).keys()]);
    expect([...changed].length).toBe(300);
    expect(() => list.set(400, 0)).toThrow(RangeError);
  });
});

describe('two histories branched from one state', () => {
  it('each keeps its own tool calls', () => {
    const base = run([{ sessionUpdate: 'tool_call', toolCallId: 'shared', title: 'Read' }]);
    const left = run([{ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'left' }], base);
    const right = run([
      { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'right' },
      { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'right a' },
    ], base);
    expect(getToolCall(left, 'a')?.title).toBe('left');
    expect(getToolCall(right, 'a')?.title).toBe('right a');
    expect(getToolCall(left, 'b')).toBeUndefined();
    expect(getToolCall(base, 'a')).toBeUndefined();
  });

  it('keeps every chunk of a 100,000-chunk message as a block, and earlier states as they were', () => {
    let state = initialState('long');
    let early: SessionState | undefined;
    for (let i = 0; i < 100_000; i++) {
      state = reduceUpdate(state, { sessionUpdate: 'agent_message_chunk', content: text(`${i % 10}`) }).state;
      if (i === 9) early = state;
    }
    const message = state.entries.get(0);
    expect(state.entries.length).toBe(1);
    expect(message?.type === 'agent_message' && message.blocks.length).toBe(100_000);
    expect(message?.type === 'agent_message' && message.text.length).toBe(100_000);
    const first = early?.entries.get(0);
    expect(first?.type === 'agent_message' && [first.text, first.blocks.length]).toEqual(['0123456789', 10]);
  });
});
