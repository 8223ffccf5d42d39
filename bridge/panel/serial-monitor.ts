// The panel's serial monitor: one port held on the bridge's shared serial hub, so
// an upload by the agent pauses it (the hub closes the OS handle and re-opens it
// afterwards) instead of failing on a busy port. What arrives goes to every page;
// the last part is kept for pages that connect later.
import { StringDecoder } from 'node:string_decoder';
import type { SerialHub } from '../../boards/serial/hub.js';
import type { PortLease } from '../../boards/serial/port-lease.js';
import { errorMessage } from '../errors.js';
import type { SerialView } from './protocol.js';

const OWNER = 'the boardbridge panel (serial monitor)';
const KEEP_CHARS = 16 * 1024;
const STATE_POLL_MS = 250;

export class SerialMonitor {
  private lease?: PortLease;
  private stopReading?: AbortController;
  private statePoll?: NodeJS.Timeout;
  private recent = '';
  private view: SerialView = { state: 'closed' };

  constructor(
    private readonly hub: SerialHub,
    private readonly publish: (message: { type: 'serial'; text: string; missed: number } | { type: 'serial_state'; serial: SerialView }) => void,
  ) {}

  snapshot(): SerialView & { recent: string } {
    return { ...this.view, recent: this.recent };
  }

  async ports(): Promise<{ path: string; board?: string }[]> {
    const listing = await this.hub.listPorts();
    return listing.ports.map((p) => ({ path: p.path, board: p.boards?.[0]?.name }));
  }

  async open(path: string, baudRate: number): Promise<void> {
    await this.close();
    this.recent = '';
    try {
      this.lease = await this.hub.open(path, { baudRate }, OWNER);
    } catch (error) {
      this.setView({ state: 'closed', path, baudRate, problem: errorMessage(error) });
      return;
    }
    const lease = this.lease;
    const stop = new AbortController();
    this.stopReading = stop;
    this.setView({ state: lease.state, path, baudRate });
    this.statePoll = setInterval(() => {
      if (lease.state !== this.view.state) this.setView({ ...this.view, state: lease.state, pausedBy: this.hub.pausedBy(path) });
    }, STATE_POLL_MS);
    this.statePoll.unref();
    void this.read(lease, stop.signal);
  }

  async send(text: string): Promise<void> {
    if (!this.lease) throw new Error('no serial port is open in the panel; open one first');
    await this.lease.write(text);
  }

  async close(): Promise<void> {
    this.stopReading?.abort();
    clearInterval(this.statePoll);
    const lease = this.lease;
    this.lease = undefined;
    if (lease) {
      await lease.release();
      this.setView({ ...this.view, state: 'closed', pausedBy: undefined });
    }
  }

  private async read(lease: PortLease, signal: AbortSignal): Promise<void> {
    const decoder = new StringDecoder('utf8');
    try {
      for await (const chunk of lease.reader('now').chunks(signal)) {
        const text = decoder.write(chunk.data);
        this.recent = (this.recent + text).slice(-KEEP_CHARS);
        this.publish({ type: 'serial', text, missed: chunk.missed });
      }
    } catch (error) {
      // An unplug is reported once; the hub re-opens the port when it is back.
      if (!signal.aborted && lease.state !== 'released') {
        this.setView({ ...this.view, problem: errorMessage(error) });
        if (this.lease === lease) void this.read(lease, signal);
      }
    }
  }

  private setView(view: SerialView): void {
    this.view = view;
    this.publish({ type: 'serial_state', serial: view });
  }
}
