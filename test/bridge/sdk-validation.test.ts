// parseSessionNotification checks each session/update as the SDK's own schema does; a plain text
// chunk is checked by hand. Both must accept, refuse and return exactly what the SDK's schema does.
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSessionNotification } from '../../bridge/session/sdk-validation.js';

const entry = createRequire(import.meta.url).resolve('@agentclientprotocol/sdk');
const { zSessionNotification } = (await import(pathToFileURL(path.join(path.dirname(entry), '..', 'schema', 'zod.gen.js')).href)) as {
  zSessionNotification: { safeParse(v: unknown): { success: boolean; data?: unknown } };
};

const recorded = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', 'recorded');
const recordedUpdates = readdirSync(recorded)
  .filter((f) => f.endsWith('.jsonl'))
  .flatMap((f) => readFileSync(path.join(recorded, f), 'utf8').split('\n'))
  .filter((line) => line.includes('"session/update"'))
  .map((line) => (JSON.parse(line) as { params: unknown }).params);

const chunk = (update: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ sessionId: 's', update, ...extra });
const cases: unknown[] = [
  chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }),
  chunk({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: '' } }),
  chunk({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'x' } }),
  chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi', annotations: { priority: 1 } } }),
  chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' }, messageId: 'm1' }),
  chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }, { _meta: { a: 1 } }),
  chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 5 } }),
  chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', text: 'hi' } }),
  chunk({ sessionUpdate: 'agent_message_chunk', content: null }),
  chunk({ sessionUpdate: 'agent_message_chunk' }),
  chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi', toString: 'x' } }),
  { sessionId: 5, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } },
  { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } },
  null,
  'text',
  ...recordedUpdates,
];

describe('session/update checking', () => {
  it('accepts, refuses and returns what the SDK schema does, for hand-checked chunks and everything else', () => {
    expect(recordedUpdates.length).toBeGreaterThan(50);
    for (const params of cases) {
      const sdk = zSessionNotification.safeParse(params);
      let ours: { success: boolean; data?: unknown };
      try {
        ours = { success: true, data: parseSessionNotification(params) };
      } catch {
        ours = { success: false };
      }
      expect(ours.success, JSON.stringify(params)).toBe(sdk.success);
      if (sdk.success) expect(ours.data, JSON.stringify(params)).toEqual(sdk.data);
    }
  });
});
