// The agent's stdout as messages: lines split anywhere, limits on size and depth, and
// what an over-limit message still tells (its id and method).
import { PassThrough } from 'node:stream';
import { client, methods, type AnyMessage } from '@agentclientprotocol/sdk';
import { describe, expect, it, vi } from 'vitest';
import { until } from '../support/until.js';
import { nestsDeeperThan, peekMessage } from '../../bridge/agents/json-peek.js';
import { LineReader, type LineEvent } from '../../bridge/agents/line-reader.js';
import { messageStream } from '../../bridge/agents/message-stream.js';
import { connectClient } from '../../bridge/session/agent-connection.js';
import { knownUpdateTags } from '../../bridge/session/sdk-validation.js';

function readAll(chunks: string[], max = 1024): LineEvent[] {
  const reader = new LineReader(max);
  const events: LineEvent[] = [];
  for (const chunk of chunks) reader.push(Buffer.from(chunk), 0, (e) => events.push(e), () => false);
  const last = reader.end();
  if (last) events.push(last);
  return events;
}

async function collect(stream: ReadableStream<AnyMessage>, count: number): Promise<AnyMessage[]> {
  const reader = stream.getReader();
  const got: AnyMessage[] = [];
  while (got.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    got.push(value);
  }
  reader.releaseLock();
  return got;
}

describe('LineReader', () => {
  it('joins lines split across chunks, also inside a multi-byte character', () => {
    const bytes = Buffer.from('{"a":"é€"}\n{"b":2}');
    const cut = [bytes.subarray(0, 7), bytes.subarray(7, 9), bytes.subarray(9)].map((b) => b.toString('latin1'));
    const reader = new LineReader(1024);
    const events: LineEvent[] = [];
    for (const part of cut) reader.push(Buffer.from(part, 'latin1'), 0, (e) => events.push(e), () => false);
    events.push(reader.end()!);
    expect(events.map((e) => (e.kind === 'line' ? e.bytes.toString('utf8') : e.kind))).toEqual(['{"a":"é€"}', '{"b":2}']);
  });

  it('keeps only the ends of a line over the limit, and reads on after it', () => {
    const long = `{"id":7,${'"x":1,'.repeat(100_000)}"y":2}`;
    const events = readAll([long.slice(0, 1000), long.slice(1000), '\n{"ok":true}\n'], 4096);
    expect(events[0]).toMatchObject({ kind: 'oversize', bytes: long.length });
    if (events[0].kind !== 'oversize') return;
    expect(events[0].head.toString().startsWith('{"id":7,')).toBe(true);
    expect(events[0].tail.toString().endsWith('"y":2}')).toBe(true);
    expect(events[1]).toMatchObject({ kind: 'line' });
  });

  it('copies a 32 MB line given in 64 KiB pieces once, not once per piece (reading it was quadratic: 32 MB took 5.8 s)', () => {
    const piece = Buffer.alloc(65_536, 0x78);
    const pieces = 512;
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      const reader = new LineReader(64 * 2 ** 20);
      const events: LineEvent[] = [];
      for (let i = 0; i < pieces; i++) reader.push(piece, 0, (e) => events.push(e), () => false);
      reader.push(Buffer.from('\n'), 0, (e) => events.push(e), () => false);
      expect(events).toHaveLength(1);
      expect(events[0].kind === 'line' && events[0].bytes.length).toBe(pieces * piece.length);
      const copied = concat.mock.results.reduce((n, r) => n + (r.value as Buffer).length, 0);
      expect(copied).toBe(pieces * piece.length);
    } finally {
      concat.mockRestore();
    }
  });

  it('stops between lines when asked, and says where', () => {
    const reader = new LineReader(1024);
    const seen: string[] = [];
    const chunk = Buffer.from('a\nb\nc\n');
    const at = reader.push(chunk, 0, (e) => e.kind === 'line' && seen.push(e.bytes.toString()), () => seen.length === 2);
    expect(seen).toEqual(['a', 'b']);
    expect(chunk.subarray(at).toString()).toBe('c\n');
  });
});

describe('json-peek', () => {
  it('measures nesting outside strings only', () => {
    expect(nestsDeeperThan('{"a":"{{{{{{{{{{"}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":[[[[1]]]]}', 3)).toBe(true);
    expect(nestsDeeperThan('[{}, {}, {}, {}, {}]', 3)).toBe(false);
  });

  it('reads the top-level id and method from a cut line, and the id from its end', () => {
    expect(peekMessage('{"jsonrpc":"2.0","id":12,"method":"fs/write_text_file","params":{"content":"xx')).toEqual({ id: 12, method: 'fs/write_text_file' });
    expect(peekMessage('{"params":{"id":1,"method":"no"},"method":"fs/read_text_file","id":"r-1"}')).toEqual({ id: 'r-1', method: 'fs/read_text_file' });
    expect(peekMessage('{"jsonrpc":"2.0","method":"fs/write_text_file","params":{"content":"xx', 'xxxx"},"id":9}')).toEqual({ id: 9, method: 'fs/write_text_file' });
    expect(peekMessage('{"jsonrpc":"2.0","params":{"content":"xx', 'xxxx"}}')).toEqual({});
  });

  it('takes an id or method that is not valid JSON as absent (found by the fuzz suite: a control character in a string)', () => {
    expect(peekMessage('{"id":"a\u0001b","method":"m\u0002"}', ',"id":"x\u0003"}')).toEqual({});
  });
});

describe('messageStream', () => {
  it('skips a bare object nested 10,000 deep with a logged reason and reads on', async () => {
    const stdout = new PassThrough();
    const skipped: string[] = [];
    const stream = messageStream(stdout, new PassThrough(), { onSkippedLine: (_, reason) => skipped.push(reason) });
    stdout.write('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000) + '\n{"jsonrpc":"2.0","method":"x"}\n');
    expect(await collect(stream.readable, 1)).toEqual([{ jsonrpc: '2.0', method: 'x' }]);
    expect(skipped).toEqual(['a message nested deeper than 256 levels']);
  });

  it('answers an over-limit request whose id ends the line', async () => {
    const stdout = new PassThrough();
    const stdin = new PassThrough();
    const answers: string[] = [];
    stdin.on('data', (d: Buffer) => answers.push(d.toString()));
    const stream = messageStream(stdout, stdin, { maxLineBytes: 1000 });
    stdout.write(`{"jsonrpc":"2.0","method":"fs/write_text_file","params":{"content":"${'x'.repeat(5000)}"},"id":3}\n{"jsonrpc":"2.0","method":"y"}\n`);
    await collect(stream.readable, 1);
    expect(JSON.parse(answers.join(''))).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringContaining('the file is too large to write in one request') } });
  });

  it('reads nothing more once the SDK closed the connection (no "Controller is already closed" crash)', async () => {
    const stdout = new PassThrough();
    const updates: unknown[] = [];
    const crashes: unknown[] = [];
    const crashed = (error: unknown) => void crashes.push(error);
    process.on('uncaughtException', crashed);
    process.on('unhandledRejection', crashed);
    try {
      const connection = client({ name: 't' }).onNotification(methods.client.session.update, (n) => void updates.push(n)).connect(messageStream(stdout, new PassThrough()));
      connection.close();
      await new Promise((resolve) => setTimeout(resolve, 10));
      stdout.write('{"jsonrpc":"2.0","method":"session/update","params":{}}\n');
      stdout.end('{"jsonrpc":"2.0","method":"x"}\n');
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('uncaughtException', crashed);
      process.off('unhandledRejection', crashed);
    }
    expect(crashes).toEqual([]);
    expect(updates).toEqual([]);
  });

  it('counts as open only requests the SDK answers under their own id, so malformed ones cannot stop the reading', async () => {
    const stdout = new PassThrough();
    const stdin = new PassThrough();
    stdin.resume();
    const seen: string[] = [];
    client({ name: 't' })
      .onNotification(methods.client.session.update, ({ params }) => void seen.push(params.sessionId))
      .connect(messageStream(stdout, stdin, { maxOpenRequests: 4 }));
    const malformed = ['{"jsonrpc":"2.0","id":{"x":1},"method":"fs/read_text_file","params":{}}', '{"jsonrpc":"1.0","id":1,"method":"fs/read_text_file","params":{}}'];
    for (let i = 0; i < 10; i++) stdout.write(`${malformed[i % 2]}\n`);
    stdout.write('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"still read","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}\n');
    await until('the well-formed message after the malformed ones', () => seen.length > 0, { stepMs: 10 });
    expect(seen).toEqual(['still read']);
  });

  it('keeps updates in order with the requests around them when the bridge checks updates itself', async () => {
    const stdout = new PassThrough();
    const stdin = new PassThrough();
    stdin.resume();
    const order: string[] = [];
    const refuse = (): never => {
      throw new Error('not in this test');
    };
    connectClient(
      messageStream(stdout, stdin),
      {
        fs: refuse,
        terminals: refuse,
        onElicitation: refuse,
        onElicitationComplete: () => undefined,
        onPermission: async (request) => {
          order.push(`permission ${request.toolCall.title}`);
          return { outcome: { outcome: 'cancelled' } };
        },
        onUpdate: (n) => void order.push(`update ${n.update.sessionUpdate === 'agent_message_chunk' && n.update.content.type === 'text' ? n.update.content.text : ''}`),
      },
      () => undefined,
    );
    const chunk = (text: string) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });
    const permission = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'session/request_permission', params: { sessionId: 's', toolCall: { toolCallId: 't', title: 'edit' }, options: [] } });
    stdout.write([chunk('before'), permission, chunk('after')].join('\n') + '\n');
    await until('the first three messages', () => order.length >= 3, { stepMs: 10, detail: () => order.join(', ') });
    stdout.write(chunk('later') + '\n');
    await until('the fourth message', () => order.length >= 4, { stepMs: 10, detail: () => order.join(', ') });
    expect(order).toEqual(['update before', 'permission edit', 'update after', 'update later']);
  });

  it('finds one tag for each session/update variant of the SDK', () => {
    expect(knownUpdateTags()).toEqual(expect.arrayContaining(['agent_message_chunk', 'tool_call', 'tool_call_update', 'plan', 'usage_update', 'session_info_update']));
    expect(knownUpdateTags().length).toBeGreaterThanOrEqual(12);
  });
});
