import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerialHub } from '../../boards/serial/hub.js';
import { touch1200, waitForUploadPort } from '../../boards/serial/upload-port.js';
import { openBoardEnd, type BoardEnd } from '../rig/board-end.js';
import { ptyPair, stop, type PtyPair } from '../rig/pty-pair.js';

let pair: PtyPair;
let board: BoardEnd;
let hub: SerialHub;

beforeEach(async () => {
  pair = await ptyPair();
  board = await openBoardEnd(pair.board);
  hub = new SerialHub({ boards: [] });
});

afterEach(async () => {
  await hub.close();
  await board.close();
  await stop(pair.socat);
});

describe('line settings and Arduino resets on a pty', () => {
  it('opens with 7 data bits, even parity and 2 stop bits, and changes baud rate while open', async () => {
    const lease = await hub.open(pair.device, { baudRate: 9600, dataBits: 7, parity: 'even', stopBits: 2 }, 'test');
    await lease.setBaudRate(57600);
    await board.write('7E2\n');
    expect((await lease.reader('oldest').expect(/7E2/, { timeoutMs: 5000 })).match[0]).toBe('7E2');
  });

  it('says which modem lines could not be set on a pty, and where', async () => {
    const lease = await hub.open(pair.device, { baudRate: 9600 }, 'test');
    await expect(lease.setSignals({ dtr: false, rts: true })).rejects.toThrow(
      `cannot set dtr/rts on ${pair.device}: Error: Inappropriate ioctl for device, cannot set`,
    );
  });

  it('survives a 1200-bps touch on a port without modem lines and keeps the port usable', async () => {
    await touch1200(pair.device);
    const lease = await hub.open(pair.device, { baudRate: 115200 }, 'test');
    await board.write('still here\n');
    await lease.reader('oldest').expect(/still here/, { timeoutMs: 5000 });
  });

  it('finds the bootloader port that appears under a new name after the touch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bb-reenum-'));
    const before = [pair.device];
    let bootloader: PtyPair | undefined;
    const list = async () => [...(bootloader ? [bootloader.device] : [])];
    setTimeout(() => void ptyPair(dir).then((p) => (bootloader = p)), 300);
    try {
      const port = await waitForUploadPort({ before, port: pair.device, list, timeoutMs: 10_000, pollMs: 50 });
      expect(port).toBe(join(dir, 'ttyACM0'));
    } finally {
      while (!bootloader) await new Promise((resolve) => setTimeout(resolve, 20));
      await stop(bootloader.socat);
    }
  });

  it('falls back to the touched port when no new one appears, and says so when that is gone too', async () => {
    expect(await waitForUploadPort({ before: [pair.device], port: pair.device, list: async () => [pair.device], timeoutMs: 200, pollMs: 50 })).toBe(pair.device);
    await expect(
      waitForUploadPort({ before: [pair.device], port: pair.device, list: async () => [], timeoutMs: 200, pollMs: 50 }),
    ).rejects.toThrow(/no upload port appeared within 200 ms after the 1200-bps reset of .*; press reset twice/);
  });
});
