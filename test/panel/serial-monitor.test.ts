// The panel's serial monitor on the real serial hub and a socat pty pair.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerialHub } from '../../boards/serial/hub.js';
import { SerialMonitor } from '../../bridge/panel/serial-monitor.js';
import type { SerialView } from '../../bridge/panel/protocol.js';
import { openBoardEnd, type BoardEnd } from '../rig/board-end.js';
import { ptyPair, stop, type PtyPair } from '../rig/pty-pair.js';
import { until as untilDone } from '../support/until.js';

let pair: PtyPair;
let board: BoardEnd;
let hub: SerialHub;
let monitor: SerialMonitor;
let states: SerialView[];
let text: string;

beforeEach(async () => {
  pair = await ptyPair();
  board = await openBoardEnd(pair.board);
  hub = new SerialHub({ bufferBytes: 64 * 1024, reconnectIntervalMs: 50 });
  states = [];
  text = '';
  monitor = new SerialMonitor(hub, (m) => (m.type === 'serial' ? (text += m.text) : states.push(m.serial)));
});

afterEach(async () => {
  await monitor.close();
  await hub.close();
  await board.close();
  await stop(pair.socat);
});

const until = (what: string, check: () => boolean) => untilDone(what, check, { detail: () => `states: ${JSON.stringify(states)}` });

describe('the panel serial monitor', () => {
  it('shows "paused" with the upload that holds the port, and reads on after it', async () => {
    await monitor.open(pair.device, 115200);
    await board.write('before\n');
    await until('the first line', () => text.includes('before\n'));
    await hub.pause(pair.device, 'upload to Arduino Uno');
    await until('the paused state', () => states.some((s) => s.state === 'paused'));
    expect(states.find((s) => s.state === 'paused')).toMatchObject({ path: pair.device, pausedBy: 'upload to Arduino Uno' });
    await hub.resume(pair.device);
    await until('the port open again', () => states[states.length - 1].state === 'open');
    await board.write('after\n');
    await until('the line after the upload', () => text.includes('after\n'));
    expect(monitor.snapshot().recent).toBe('before\nafter\n');
  });

  it('leaves the port to other holders: a second owner is refused while the monitor has it, and welcome after close', async () => {
    await monitor.open(pair.device, 9600);
    await expect(hub.open(pair.device, { baudRate: 9600 }, 'a terminal monitor')).rejects.toThrow(/boardbridge panel/);
    await monitor.close();
    const lease = await hub.open(pair.device, { baudRate: 9600 }, 'a terminal monitor');
    await lease.release();
    expect(states[states.length - 1].state).toBe('closed');
  });

  it('reports a port that cannot be opened as a problem, not a crash', async () => {
    await monitor.open('/dev/does-not-exist', 9600);
    expect(states[states.length - 1]).toMatchObject({ state: 'closed', path: '/dev/does-not-exist', problem: expect.stringContaining('/dev/does-not-exist') });
  });
});
