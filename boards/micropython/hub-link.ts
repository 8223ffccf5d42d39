// A ByteLink on the bridge's serial hub: the runner owns the port for the length of a run (so a
// monitor elsewhere gets PortBusyError naming the holder, and readers can still watch), and gives
// it back when the run ends.
import type { SerialHub } from '../serial/hub.js';
import { PortClosedError, PortDisconnectedError } from '../serial/errors.js';
import type { ByteLink } from './link.js';

/** Opens `path` through `hub` as `owner` (e.g. `run-script`). */
export async function openHubLink(hub: SerialHub, path: string, owner: string, baudRate = 115_200): Promise<ByteLink> {
  const lease = await hub.open(path, { baudRate }, owner);
  hub.markRepl(path);
  const reader = lease.reader('now');
  const dataListeners = new Set<(chunk: Uint8Array) => void>();
  const closeListeners = new Set<(reason: string) => void>();
  const stop = new AbortController();
  const closedWith = (reason: string) => {
    for (const listener of closeListeners) listener(reason);
    closeListeners.clear();
  };
  void (async () => {
    try {
      for await (const chunk of reader.chunks(stop.signal)) {
        for (const listener of dataListeners) listener(chunk.data);
      }
    } catch (error) {
      if (error instanceof PortDisconnectedError) closedWith(`${path} was unplugged`);
      else if (error instanceof PortClosedError) closedWith(`${path} was closed`);
      else closedWith(`${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  })();
  let released = false;
  return {
    path,
    write: (bytes) => lease.write(bytes),
    onData(listener) {
      dataListeners.add(listener);
      return () => dataListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    setBaudRate: (rate) => lease.setBaudRate(rate),
    async close() {
      if (released) return;
      released = true;
      stop.abort();
      dataListeners.clear();
      closeListeners.clear();
      await lease.release();
    },
  };
}
