// 2,000 `serial_ports` messages on the panel's socket (issue 21, finding 8): the bridge runs one
// port listing at a time and every request that comes meanwhile shares it, so the flood costs a
// few listings and a few replies, and the page keeps answering. The real panel server and
// socket, the real `SerialPort.list()`; udevadm is a stand-in (this machine has no udev) that
// records when two listings overlap.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SerialHub } from '../../boards/serial/hub.js';
import { PanelHub } from '../../bridge/panel/panel-hub.js';
import { startPanelServer, type PanelServer } from '../../bridge/panel/server.js';
import { until } from '../support/until.js';

/** A udevadm stand-in that lists one board and notes each run, and each run that began while another was still going. */
function countingUdevadm(dir: string): { runs: () => number; overlaps: () => number } {
  const log = join(dir, 'runs');
  const overlaps = join(dir, 'overlaps');
  const lock = join(dir, 'running');
  const script = join(dir, 'udevadm');
  writeFileSync(
    script,
    `#!/bin/sh\necho run >> ${log}\nif mkdir ${lock} 2>/dev/null; then :; else echo overlap >> ${overlaps}; fi\nsleep 0.05\nrmdir ${lock} 2>/dev/null\ncat <<'RECORDS'\nP: /devices/usb1/1-1/1-1:1.0/tty/ttyACM0\nN: ttyACM0\nE: DEVNAME=/dev/ttyACM0\nE: ID_VENDOR_ID=2341\nE: ID_MODEL_ID=0043\nE: ID_SERIAL_SHORT=1\n\nRECORDS\n`,
  );
  chmodSync(script, 0o755);
  const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);
  return { runs: () => lines(log), overlaps: () => lines(overlaps) };
}

let server: PanelServer | undefined;
let socket: WebSocket | undefined;
const path = process.env.PATH;
afterEach(async () => {
  socket?.close();
  await server?.close();
  process.env.PATH = path;
  server = socket = undefined;
});

describe('a flood of serial_ports requests on the panel socket', () => {
  it('runs one listing at a time, answers each page once per listing, and keeps answering', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bb-flood-'));
    const udevadm = countingUdevadm(dir);
    process.env.PATH = `${dir}:${path ?? ''}`;
    const hub = new PanelHub({ workspace: dir, serial: new SerialHub({ boards: [{ fqbn: 'arduino:avr:uno', name: 'Arduino Uno', vid: '2341', pid: '0043' }] }) });
    server = await startPanelServer({ hub });
    socket = new WebSocket(`ws://127.0.0.1:${server.port}/${server.token}/socket`, { headers: { Origin: `http://127.0.0.1:${server.port}` } });
    const received: Array<{ type: string; ports?: unknown }> = [];
    socket.on('message', (data) => received.push(JSON.parse(data.toString()) as { type: string }));
    await new Promise((resolve, reject) => socket!.once('open', resolve).once('error', reject));
    const ask = JSON.stringify({ type: 'serial_ports' });
    for (let i = 0; i < 2000; i++) socket.send(ask);
    // A message the panel answers at once: every request before it has been read by then.
    socket.send('not json');
    await until('the answer to the message that is not JSON', () => received.some((m) => m.type === 'problem'));
    // One more request: it shares the listing still under way, or starts a fresh one; either way its answer is the last.
    const problemAt = received.findIndex((m) => m.type === 'problem');
    socket.send(ask);
    await until('the answer to the request sent after it', () => received.slice(problemAt).some((m) => m.type === 'serial_ports'));
    const replies = received.filter((m) => m.type === 'serial_ports');
    expect(udevadm.overlaps()).toBe(0);
    expect(replies.length).toBeLessThanOrEqual(udevadm.runs());
    expect(udevadm.runs()).toBeLessThan(2000);
    expect(replies.at(-1)!.ports).toEqual([{ path: '/dev/ttyACM0', board: 'Arduino Uno' }]);
  });
});
