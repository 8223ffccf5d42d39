// Arduino's bootloader entry for native-USB boards (Leonardo, Micro, MKR): open the port at
// 1200 bps and drop DTR, then find the port the bootloader enumerates as, often under a new name.
import { loadSerialPort } from '../packages.js';
import { bindingPath } from './port-name.js';
import { SerialPortError } from './errors.js';

/** The "1200-bps touch". A pty or a board that ignores it is not an error: it simply stays. */
export async function touch1200(path: string): Promise<void> {
  let port;
  try {
    port = await (await loadSerialPort()).binding.open({ path: bindingPath(path), baudRate: 1200, lock: false });
  } catch (error) {
    throw new SerialPortError(path, `1200-bps reset of ${path} failed: ${(error as Error).message}; press the board's reset button twice and retry`);
  }
  await port.set({ dtr: false, rts: true }).catch(() => undefined);
  await port.close().catch(() => undefined);
}

export interface WaitForUploadPortOptions {
  /** Port paths before the touch. */
  before: string[];
  /** The port that was touched. */
  port: string;
  /** Current port paths. */
  list: () => Promise<string[]>;
  timeoutMs?: number;
  pollMs?: number;
  signal?: AbortSignal;
}

/**
 * Like arduino-cli: a port that appears after the touch is the bootloader's; if none appears,
 * the touched port is used when it is (still or again) there; otherwise the board is lost.
 */
export async function waitForUploadPort(options: WaitForUploadPortOptions): Promise<string> {
  const { before, port, list, timeoutMs = 10_000, pollMs = 250 } = options;
  const known = new Set(before);
  const deadline = Date.now() + timeoutMs;
  let current: string[] = before;
  while (Date.now() < deadline) {
    options.signal?.throwIfAborted();
    current = await list();
    const fresh = current.find((path) => !known.has(path));
    if (fresh) return fresh;
    // A port that went away may come back under its old name: count it as new next time.
    for (const path of known) if (!current.includes(path)) known.delete(path);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  if (current.includes(port)) return port;
  throw new SerialPortError(
    port,
    `no upload port appeared within ${timeoutMs} ms after the 1200-bps reset of ${port}; press reset twice quickly and upload again`,
  );
}
