// Whether bytes written to a serial port can run as code there: the rule that makes a serial
// write a device change (boards/operations.ts, serial_write). A MicroPython REPL runs what it is
// sent: the control bytes switch it into raw or paste mode and execute (^A raw REPL, ^B friendly
// REPL, ^C interrupt, ^D execute / soft reset, ^E paste mode), and a port known to answer with a
// REPL runs plain lines too.
import type { SerialHub } from '../serial/hub.js';
import { matchBoards } from '../serial/port-list.js';
import { openmvUsbBoards } from './usb-boards.js';

const REPL_CONTROL = /[\x01-\x05]/;

/** Why `data` written to `port` can run code on the board, or undefined when it cannot. */
export async function replRunsWrite(hub: SerialHub, port: string, data: string): Promise<string | undefined> {
  if (REPL_CONTROL.test(data)) return 'REPL control bytes (Ctrl-A to Ctrl-E) make a MicroPython board run what follows';
  if (hub.knownRepl(port)) return `${port} has a MicroPython REPL (a MicroPython tool talked to it), which runs each line it is sent`;
  const listing = await hub.listPorts();
  const entry = listing.ports.find((p) => p.path === port);
  const camera = entry ? matchBoards(entry.vendorId, entry.productId, openmvUsbBoards())[0] : undefined;
  if (camera) return `${port} is ${camera.name} by its USB id, whose REPL runs each line it is sent`;
  return undefined;
}
