// The hub's record of one port: its ring buffer, its owner, the OS handle when open, and the
// state readers need to tell a quiet port from an unplugged, paused or released one.
import type { PortConnection } from './connection.js';
import type { PortSettings } from './port-settings.js';
import type { ReaderSource } from './reader.js';
import { RingBuffer } from './ring-buffer.js';

export type PortState = 'opening' | 'open' | 'paused' | 'unplugged' | 'released';

export class PortEntry implements ReaderSource {
  readonly ring: RingBuffer;
  state: PortState = 'opening';
  device: PortConnection | undefined;
  disconnects = 0;
  lastDisconnect: string | undefined;
  reconnectTimer: NodeJS.Timeout | undefined;
  private waiters = new Set<() => void>();

  constructor(
    readonly path: string,
    public settings: PortSettings,
    readonly owner: string,
    bufferBytes: number,
  ) {
    this.ring = new RingBuffer(bufferBytes);
  }

  get released(): boolean {
    return this.state === 'released';
  }

  received(chunk: Buffer): void {
    this.ring.write(chunk);
    this.notify();
  }

  notify(): void {
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const wake of waiting) wake();
  }

  changed(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.waiters.delete(wake);
        reject(signal?.reason);
      };
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.waiters.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
