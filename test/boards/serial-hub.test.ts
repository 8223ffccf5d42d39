import { mkdtempSync, readdirSync, readlinkSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPort } from 'serialport';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../support/until.js';
import { BoundedRegex, RegexTooSlowError } from '../../boards/bounded-regex.js';
import { PortBusyError, PortDisconnectedError, PortOpenError, ExpectTimeoutError } from '../../boards/serial/errors.js';
import { SerialHub } from '../../boards/serial/hub.js';
import type { PortState } from '../../boards/serial/port-entry.js';
import type { PortLease } from '../../boards/serial/port-lease.js';
import { openBoardEnd, type BoardEnd } from '../rig/board-end.js';
import { ptyPair, stop, type PtyPair } from '../rig/pty-pair.js';

let pair: PtyPair;
let board: BoardEnd;
let hub: SerialHub;

beforeEach(async () => {
  pair = await ptyPair();
  board = await openBoardEnd(pair.board);
  hub = new SerialHub({ bufferBytes: 64 * 1024, reconnectIntervalMs: 50 });
});

afterEach(async () => {
  await hub.close();
  await board.close();
  await stop(pair.socat);
});

/** Polls until the lease reaches a state; a function, because in the test body TypeScript keeps `lease.state` narrowed across awaits. */
async function untilState(lease: PortLease, state: PortState): Promise<void> {
  while (lease.state !== state) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('serial hub on a socat pty pair', () => {
  it('passes every byte value through unchanged in both directions', async () => {
    const lease = await hub.open(pair.device, { baudRate: 115200 }, 'test');
    const reader = lease.reader();
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await board.write(all);
    const got: Buffer[] = [];
    while (Buffer.concat(got).length < 256) got.push((await reader.next()).data);
    expect(Buffer.concat(got)).toEqual(all);

    await lease.write(all);
    while (board.received().length < 256) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(board.received()).toEqual(all);
  });

  it('refuses a second owner with the name of the holder, but lets it read', async () => {
    const lease = await hub.open(pair.device, { baudRate: 9600 }, 'monitor in terminal 1');
    await expect(hub.open(pair.device, { baudRate: 9600 }, 'MCP serial_monitor')).rejects.toThrow(
      new PortBusyError(pair.device, 'monitor in terminal 1'),
    );
    await expect(hub.open(pair.device, {}, 'x')).rejects.toThrow(/busy, held by monitor in terminal 1/);
    const guest = hub.reader(pair.device);
    await board.write('shared\n');
    expect((await guest.expect(/shared/, { timeoutMs: 5000 })).match[0]).toBe('shared');
    expect(await hub.open(pair.device, {}, 'monitor in terminal 1')).toBeDefined();
    await lease.release();
  });

  it('gives each reader its own cursor, in line mode and raw mode', async () => {
    const lease = await hub.open(pair.device, { baudRate: 115200 }, 'test');
    const raw = lease.reader();
    const lined = lease.reader();
    await board.write('first li');
    await board.write('ne\r\nsecond line\n');
    const lines: string[] = [];
    const stopLines = new AbortController();
    for await (const line of lined.lines(stopLines.signal)) {
      lines.push(line.text);
      if (lines.length === 2) stopLines.abort();
    }
    expect(lines).toEqual(['first line', 'second line']);
    const match = await raw.expect(/second (\w+)/, { timeoutMs: 5000 });
    expect(match.match[1]).toBe('line');
  });

  it('ends an expect that sees no match with an error naming the pattern and the last output', async () => {
    const lease = await hub.open(pair.device, { baudRate: 115200 }, 'test');
    const reader = lease.reader();
    await board.write('booting...\n');
    const failure = await reader.expect(/READY/, { timeoutMs: 300 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExpectTimeoutError);
    expect((failure as Error).message).toMatch(/no match for \/READY\/ on .*ttyACM0 within 300 ms; last output: "booting/);
  });

  it("stops an agent's pattern that backtracks too long on the port's output, and the port reads on", async () => {
    const lease = await hub.open(pair.device, { baudRate: 115200 }, 'test');
    const reader = lease.reader('oldest');
    await board.write(`${'a'.repeat(40)}b\n`);
    const failure = await reader.expect(new BoundedRegex('^(a|a)*$', 'm', 300), { timeoutMs: 30_000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RegexTooSlowError);
    await board.write('READY\n');
    expect((await lease.reader('oldest').expect(new BoundedRegex('RE(AD)+Y'), { timeoutMs: 5000 })).match).toEqual(['READY', 'AD']);
  });

  it('keeps memory flat under a 10 MB flood and tells the slow reader how much it missed', async () => {
    const lease = await hub.open(pair.device, { baudRate: 115200 }, 'test');
    const slow = lease.reader();
    const fast = lease.reader();
    const total = 10 * 1024 * 1024;
    const before = process.memoryUsage().rss;
    let fastBytes = 0;
    let fastMissed = 0;
    const fastDone = (async () => {
      while (fastBytes + fastMissed < total) {
        const chunk = await fast.next();
        fastBytes += chunk.data.length;
        fastMissed += chunk.missed;
      }
    })();
    const block = Buffer.alloc(64 * 1024, 0x55);
    for (let sent = 0; sent < total; sent += block.length) await board.write(block);
    await fastDone;
    const grown = process.memoryUsage().rss - before;

    const late = slow.read();
    expect(late.missed).toBeGreaterThan(0);
    expect(late.missed + late.data.length).toBe(total);
    expect(late.data.length).toBe(64 * 1024);
    expect(fastBytes + fastMissed).toBe(total);
    expect(grown).toBeLessThan(40 * 1024 * 1024);
  });

  it('reports an unplug to a waiting reader and re-opens the port when it comes back', async () => {
    const lease = await hub.open(pair.device, { baudRate: 115200 }, 'test');
    const reader = lease.reader();
    const waiting = reader.next().catch((error: unknown) => error);
    await board.close();
    await pair.unplug();
    const failure = await waiting;
    expect(failure).toBeInstanceOf(PortDisconnectedError);
    expect((failure as Error).message).toMatch(/port .*ttyACM0 disconnected.*re-opens it when it comes back/);
    expect(lease.state).toBe('unplugged');

    await pair.replug();
    board = await openBoardEnd(pair.board);
    await untilState(lease, 'open');
    await board.write('back again\n');
    expect((await reader.expect(/back again/, { timeoutMs: 5000 })).match[0]).toBe('back again');
  });

  it('lets go of the port while paused, so another program can open it, and takes it back on resume', async () => {
    const lease = await hub.open(pair.device, { baudRate: 115200 }, 'monitor');
    const reader = lease.reader();
    await hub.pause(pair.device, 'upload');
    expect(lease.state).toBe('paused');
    expect(hub.pausedBy(pair.device)).toBe('upload');
    await expect(lease.write('x')).rejects.toThrow(/paused while an upload runs/);
    const other = new SerialPort({ path: pair.device, baudRate: 115200, autoOpen: false });
    await new Promise<void>((resolve, reject) => other.open((error) => (error ? reject(error) : resolve())));
    await new Promise<void>((resolve) => other.close(() => resolve()));

    await hub.resume(pair.device);
    expect(lease.state).toBe('open');
    await board.write('after resume\n');
    expect((await reader.expect(/after resume/, { timeoutMs: 5000 })).match[0]).toBe('after resume');
  });

  it('holds back a monitor opened during an upload until the last nested pause ends', async () => {
    await hub.pause(pair.device, 'upload');
    await hub.pause(pair.device, 'second upload');
    const lease = await hub.open(pair.device, { baudRate: 115200 }, 'late monitor');
    expect(lease.state).toBe('paused');
    await hub.resume(pair.device);
    expect(lease.state).toBe('paused');
    await hub.resume(pair.device);
    expect(lease.state).toBe('open');
    await board.write('now open\n');
    await lease.reader('oldest').expect(/now open/, { timeoutMs: 5000 });
  });

  it('says which port does not exist and what to try', async () => {
    await expect(hub.open(`${pair.device}-missing`, {}, 'test')).rejects.toThrow(PortOpenError);
    await expect(hub.open(`${pair.device}-missing`, {}, 'test')).rejects.toThrow(/no such port; check the cable/);
  });

  it('rejects impossible line settings before touching the port', async () => {
    await expect(hub.open(pair.device, { baudRate: -5 }, 'test')).rejects.toThrow(/baud rate must be a positive/);
    await expect(hub.open(pair.device, { dataBits: 9 as 8 }, 'test')).rejects.toThrow(/data bits must be 5, 6, 7 or 8/);
  });
});

describe('one device under several names', () => {
  it('treats a /dev/serial/by-id style link and the device it points to as one port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bb-by-id-'));
    const byId = join(dir, 'usb-Arduino__www.arduino.cc__0043_7563331323335171E0B1-if00');
    symlinkSync(pair.device, byId);
    const lease = await hub.open(byId, { baudRate: 9600 }, 'monitor in terminal 1');
    await expect(hub.open(pair.device, {}, 'MCP serial_monitor')).rejects.toThrow(`port ${pair.device} (the same device as ${byId}) busy, held by monitor in terminal 1`);
    expect(hub.holder(pair.device)).toBe('monitor in terminal 1');
    // An upload given the device name pauses the monitor opened through the link, and resumes it.
    const reader = hub.reader(pair.device);
    await hub.whilePaused(pair.device, 'upload', async () => {
      expect(hub.pausedBy(byId)).toBe('upload');
    });
    await board.write('back\n');
    expect((await reader.expect(/back/, { timeoutMs: 5000 })).match[0]).toBe('back');
    await lease.release();
    expect(hub.holder(pair.device)).toBeUndefined();
    // Released: the device is free under either name.
    await (await hub.open(pair.device, {}, 'MCP serial_monitor')).release();
  });
});

describe('a board that comes back under another tty', () => {
  it('is held under its new device name, and its old one is free', async () => {
    const lease = await hub.open(pair.device, { baudRate: 115200 }, 'monitor');
    const before = realpathSync(pair.device);
    await board.close();
    await pair.unplug();
    await untilState(lease, 'unplugged');
    // Another device takes the freed pty numbers, so the board re-enumerates under a new one.
    const squatter = await ptyPair();
    try {
      await pair.replug();
      board = await openBoardEnd(pair.board);
      const after = realpathSync(pair.device);
      expect(after).not.toBe(before);
      await untilState(lease, 'open');
      expect(hub.holder(after)).toBe('monitor');
      await expect(hub.open(after, {}, 'MCP serial_monitor')).rejects.toThrow(PortBusyError);
      // The old name now belongs to the other device, which anyone may open.
      expect(hub.holder(before)).toBeUndefined();
      await (await hub.open(squatter.device, {}, 'MCP serial_monitor')).release();
    } finally {
      await stop(squatter.socat);
    }
    await lease.release();
  });
});

describe('descriptors', () => {
  const openPts = () => readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith('/dev/pts/');
    } catch {
      return false;
    }
  }).length;

  it('leaves no descriptor of the port open after opens, pauses and releases', async () => {
    const before = openPts();
    for (let i = 0; i < 10; i++) {
      const lease = await hub.open(pair.device, { baudRate: 9600 }, 'monitor');
      const reader = lease.reader();
      await board.write(`round ${i}\n`);
      await reader.expect(new RegExp(`round ${i}`), { timeoutMs: 5000 });
      await hub.whilePaused(pair.device, 'upload', async () => undefined);
      await lease.release();
    }
    // Closing a tty stream finishes on the next turn of the event loop.
    await until('the pty to be closed', () => openPts() === before, { detail: () => `open ptys: ${openPts()}, before: ${before}` });
    expect(openPts()).toBe(before);
  });
});
