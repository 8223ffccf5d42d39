// Serial ports on this machine, with the boards their USB VID/PID identify (from the installed
// boards.txt `vid.N`/`pid.N` and `upload_port.N.vid/pid` keys).
import { readdirSync, realpathSync } from 'node:fs';
import { join } from '../../platform/path-join.js';
import type { SerialPort } from 'serialport';
import { loadSerialPort } from '../packages.js';

/** One board a VID/PID pair identifies, as boards.txt declares it. */
export interface BoardIdentification {
  fqbn: string;
  name: string;
  /** Lower-case hex without `0x`, e.g. `2341`. */
  vid: string;
  pid: string;
}

export interface SerialPortInfo {
  path: string;
  vendorId?: string;
  productId?: string;
  serialNumber?: string;
  manufacturer?: string;
  /** Boards whose boards.txt declares this VID/PID; several when a clone shares an id. */
  boards: Array<{ fqbn: string; name: string }>;
}

export interface PortListing {
  ports: SerialPortInfo[];
  /** Set when the list is incomplete, saying why and what to install. */
  note?: string;
}

type RawPort = Awaited<ReturnType<typeof SerialPort.list>>[number];

/** Normalises `0x2341`, `2341`, `0X2341` to `2341`. */
export function normaliseUsbId(id: string): string {
  return id.trim().toLowerCase().replace(/^0x/, '').padStart(4, '0');
}

/**
 * Board identifications from one platform's boards.txt entries (`uno.vid.0=0x2341`,
 * `uno.upload_port.0.pid=0x0043`, `uno.name=Arduino Uno`); `platformId` is `vendor:arch`.
 */
export function boardIdentifications(
  entries: Iterable<[string, string]>,
  platformId: string,
): BoardIdentification[] {
  const names = new Map<string, string>();
  const ids = new Map<string, { vid?: string; pid?: string }>();
  for (const [key, value] of entries) {
    const name = /^([A-Za-z0-9_-]+)\.name$/.exec(key);
    if (name) names.set(name[1], value);
    const id = /^([A-Za-z0-9_-]+)\.(?:upload_port\.(\d+)\.(vid|pid)|(vid|pid)\.(\d+))$/.exec(key);
    if (!id) continue;
    const slot = `${id[1]}|${id[2] !== undefined ? `upload_port.${id[2]}` : `legacy.${id[5]}`}`;
    const field = (id[3] ?? id[4]) as 'vid' | 'pid';
    const pair = ids.get(slot) ?? {};
    pair[field] = normaliseUsbId(value);
    ids.set(slot, pair);
  }
  const result: BoardIdentification[] = [];
  for (const [slot, pair] of ids) {
    const board = slot.split('|')[0];
    if (!pair.vid || !pair.pid) continue;
    const entry = { fqbn: `${platformId}:${board}`, name: names.get(board) ?? board, vid: pair.vid, pid: pair.pid };
    if (!result.some((r) => r.fqbn === entry.fqbn && r.vid === entry.vid && r.pid === entry.pid)) result.push(entry);
  }
  return result;
}

export function matchBoards(
  vendorId: string | undefined,
  productId: string | undefined,
  boards: BoardIdentification[],
): SerialPortInfo['boards'] {
  if (!vendorId || !productId) return [];
  const vid = normaliseUsbId(vendorId);
  const pid = normaliseUsbId(productId);
  const matches = boards.filter((board) => board.vid === vid && board.pid === pid);
  return [...new Map(matches.map((b) => [b.fqbn, { fqbn: b.fqbn, name: b.name }])).values()];
}

/**
 * Lists ports with `serialport`. On Linux that runs `udevadm`; where it is missing the list
 * falls back to the device folders (without USB ids) and says so in `note`, never throwing.
 */
export async function listPorts(boards: BoardIdentification[]): Promise<PortListing> {
  let raw: RawPort[];
  try {
    raw = await (await loadSerialPort()).list();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'udevadm is not installed, so USB vendor and product ids are unknown (install udev for them)'
        : `the system port list failed (${(error as Error).message})`;
    return { ports: devicePorts(), note: `${why}; ports were found in /dev instead` };
  }
  return {
    ports: raw.map((port) => ({
      path: port.path,
      vendorId: port.vendorId,
      productId: port.productId,
      serialNumber: port.serialNumber,
      manufacturer: port.manufacturer,
      boards: matchBoards(port.vendorId, port.productId, boards),
    })),
  };
}

const DEVICE_NAME = /^tty(ACM|USB|AMA)\d+$/;

/** USB serial devices from /dev (ttyACM*, ttyUSB*); /dev/serial/by-id names them when udev ran. */
function devicePorts(): SerialPortInfo[] {
  const paths = new Set<string>();
  for (const name of safeReaddir('/dev')) {
    if (DEVICE_NAME.test(name)) paths.add(join('/dev', name));
  }
  for (const name of safeReaddir('/dev/serial/by-id')) {
    try {
      paths.add(realpathSync(join('/dev/serial/by-id', name)));
    } catch {
      // A dangling link: the device just went away.
    }
  }
  return [...paths].sort().map((path) => ({ path, boards: [] }));
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
