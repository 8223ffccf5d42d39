// OpenMV cameras by USB identity, for the serial hub's port list (boards/serial/port-list.ts), so a
// connected camera shows up as a board. 5.x cameras enumerate with a PID per board; every
// OpenMV-made camera on 4.x firmware shares 1209:ABD1, so only camera-info can tell which it is.
import { knownBoards } from '../../context-providers/openmv/board-facts.js';
import type { BoardIdentification } from '../serial/port-list.js';

export function openmvUsbBoards(): BoardIdentification[] {
  const boards: BoardIdentification[] = [];
  const seen = new Set<string>();
  for (const board of knownBoards()) {
    for (const generation of ['4', '5'] as const) {
      const usb = board.firmware[generation].usb;
      if (!usb) continue;
      const key = `${usb.vid}:${usb.pid}`.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const shared = generation === '4' && usb.vid === '1209';
      boards.push({
        fqbn: shared ? 'openmv' : board.id,
        name: shared ? 'OpenMV Cam, firmware 4.x (camera-info --usbdbg names the model)' : `${board.name}, firmware ${generation}.x`,
        vid: usb.vid.toLowerCase(),
        pid: usb.pid.toLowerCase(),
      });
    }
  }
  return boards;
}
