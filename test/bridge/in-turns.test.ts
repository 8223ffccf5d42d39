// inTurns (bridge/session/in-turns.ts), which the board server's preload runs its parts with: a
// message that arrived while a part ran is handled before the next part begins. The message is
// real I/O, a Unix socket's data, written by the part itself so that it is there, ready to be
// read, when the part ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inTurns } from '../../bridge/session/in-turns.js';

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
});

/** A connected pair of Unix sockets: `writer` writes, `reader`'s data events are the handled messages. */
async function socketPair(): Promise<{ writer: Socket; reader: Socket }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bb-in-turns-'));
  const server: Server = createServer();
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => server.close());
  const file = path.join(dir, 'pair.sock');
  await new Promise<void>((resolve) => server.listen(file, resolve));
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const writer = createConnection(file);
  await new Promise<void>((resolve) => writer.once('connect', () => resolve()));
  const reader = await accepted;
  cleanup.push(() => writer.destroy(), () => reader.destroy());
  return { writer, reader };
}

describe('inTurns', () => {
  it('handles the data that arrived during a part before it begins the next part', async () => {
    const { writer, reader } = await socketPair();
    const order: string[] = [];
    reader.on('data', (data: Buffer) => order.push(`message ${data.toString()}`));
    const part = (name: string, message?: string) => async () => {
      order.push(`part ${name}`);
      if (message) writer.write(message);
    };
    await inTurns([part('one', 'a'), part('two', 'b'), part('three')]);
    expect(order).toEqual(['part one', 'message a', 'part two', 'message b', 'part three']);
  });

  it('handles the data that was waiting when it was called before its first part', async () => {
    const { writer, reader } = await socketPair();
    const order: string[] = [];
    reader.on('data', (data: Buffer) => order.push(`message ${data.toString()}`));
    writer.write('a');
    await inTurns([async () => void order.push('part one')]);
    expect(order).toEqual(['message a', 'part one']);
  });

  it('stops at the first part that fails, with its error', async () => {
    const ran: string[] = [];
    await expect(
      inTurns([
        async () => void ran.push('one'),
        async () => {
          throw new Error('module not found: two');
        },
        async () => void ran.push('three'),
      ]),
    ).rejects.toThrow('module not found: two');
    expect(ran).toEqual(['one']);
  });
});
