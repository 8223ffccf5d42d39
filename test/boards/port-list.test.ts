import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SerialHub } from '../../boards/serial/hub.js';
import { installedBoardIdentifications } from '../../boards/serial/installed-boards.js';
import { boardIdentifications, listPorts } from '../../boards/serial/port-list.js';
import { standInUdevadm } from '../rig/stand-in-udevadm.js';

const DEBIAN_AVR_BOARDS = '/usr/share/arduino/hardware/arduino/avr/boards.txt';
const savedPath = process.env.PATH;

afterEach(() => {
  process.env.PATH = savedPath;
});

function debianAvrBoards() {
  const entries = readFileSync(DEBIAN_AVR_BOARDS, 'utf8')
    .split('\n')
    .filter((line) => line.includes('=') && !line.startsWith('#'))
    .map((line): [string, string] => [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1).trim()]);
  return boardIdentifications(entries, 'arduino:avr');
}

describe('port list', () => {
  it('reads VID/PID pairs from the installed boards.txt', () => {
    const boards = debianAvrBoards();
    expect(boards).toContainEqual({ fqbn: 'arduino:avr:uno', name: 'Arduino UNO', vid: '2341', pid: '0043' });
    expect(boards).toContainEqual({ fqbn: 'arduino:avr:uno', name: 'Arduino UNO', vid: '2a03', pid: '0043' });
    expect(boards.some((board) => board.fqbn === 'arduino:avr:mega')).toBe(true);
  });

  it('matches a port that a stand-in udevadm reports as 2341:0043 to the Arduino Uno', async () => {
    process.env.PATH = `${standInUdevadm([
      { path: '/dev/ttyACM0', vid: '2341', pid: '0043', serial: '75830333238351806212', vendor: 'Arduino (www.arduino.cc)' },
      { path: '/dev/ttyUSB0', vid: '1a86', pid: '7523', serial: '0001', vendor: 'QinHeng Electronics' },
    ])}:${savedPath}`;
    const listing = await listPorts(debianAvrBoards());
    expect(listing.note).toBeUndefined();
    const uno = listing.ports.find((port) => port.path === '/dev/ttyACM0');
    expect(uno).toMatchObject({ vendorId: '2341', productId: '0043', serialNumber: '75830333238351806212' });
    expect(uno?.manufacturer).toBe('Arduino (www.arduino.cc)');
    expect(uno?.boards).toEqual([{ fqbn: 'arduino:avr:uno', name: 'Arduino UNO' }]);
    expect(listing.ports.find((port) => port.path === '/dev/ttyUSB0')?.boards).toEqual([]);
  });

  it('falls back to /dev with a note naming udev when udevadm is missing, instead of crashing', async () => {
    process.env.PATH = '/nonexistent';
    const listing = await listPorts(debianAvrBoards());
    expect(listing.note).toMatch(/udevadm is not installed.*install udev/);
    expect(Array.isArray(listing.ports)).toBe(true);
  });

  it('reads the board table from the installed platforms when the hub is given none', async () => {
    const boards = await installedBoardIdentifications({ dataDirs: [], sketchbookDirs: [] });
    expect(boards).toContainEqual({ fqbn: 'arduino:avr:uno', name: 'Arduino UNO', vid: '2341', pid: '0043' });
    process.env.PATH = `${standInUdevadm([
      { path: '/dev/ttyACM0', vid: '2341', pid: '0043', serial: 'A', vendor: 'Arduino' },
    ])}:${savedPath}`;
    const listing = await new SerialHub().listPorts();
    expect(listing.ports[0].boards).toContainEqual({ fqbn: 'arduino:avr:uno', name: 'Arduino UNO' });
  });
});
