// The OpenMV 4.x debug protocol ("usbdbg") the IDE speaks: once the host sets the port to
// 12,000,000 (or 921,600) baud the camera reads 6-byte frames `struct.pack("<BBI", 0x30, cmd, len)`;
// commands with bit 7 set answer with `len` bytes (openmv/openmv v4.8.1 common/usbdbg.h, usbdbg.c).
import type { ByteLink } from './link.js';
import { LinkClosed, LinkReader, ReadTimeout } from './link-reader.js';

export const USBDBG_BAUD_FAST = 12_000_000;
export const USBDBG_BAUD_SLOW = 921_600;
const SYNC = 0x30;

export const UsbdbgCommand = {
  FW_VERSION: 0x80,
  FRAME_SIZE: 0x81,
  ARCH_STR: 0x83,
  SCRIPT_EXEC: 0x05,
  SCRIPT_STOP: 0x06,
  SCRIPT_RUNNING: 0x87,
  SYS_RESET: 0x0c,
  TX_BUF_LEN: 0x8e,
  TX_BUF: 0x8f,
  SENSOR_ID: 0x90,
  GET_STATE: 0x93,
} as const;

/** GET_STATE flags in the first little-endian word. */
export const UsbdbgFlag = { SCRIPT_RUNNING: 1 << 0, TEXTBUF_NOTEMPTY: 1 << 1, FRAMEBUF_LOCKED: 1 << 2 } as const;

// The IDE asks for 64 bytes of state less one, so no zero-length USB packet follows.
const STATE_BYTES = 64;
const ARCH_BYTES = 64;
const NO_SENSOR = 0xff;

/** The 6-byte frame that starts every command. */
export function usbdbgFrame(command: number, length: number): Uint8Array {
  const frame = Buffer.alloc(6);
  frame.writeUInt8(SYNC, 0);
  frame.writeUInt8(command, 1);
  frame.writeUInt32LE(length, 2);
  return frame;
}

export interface ArchInfo {
  /** `OMV_BOARD_ARCH`, e.g. `OMV4 H7 1024`. */
  arch: string;
  /** `OMV_BOARD_TYPE`, e.g. `H7`. */
  type?: string;
  uid?: string;
  raw: string;
}

export interface CameraState {
  scriptRunning: boolean;
  /** Text the script printed that the host has not read yet. */
  text: string;
  frame?: { width: number; height: number; size: number };
}

export class UsbdbgError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'UsbdbgError';
  }
}

export function parseArch(raw: Buffer): ArchInfo {
  const text = raw.toString('latin1').replace(/\0.*$/s, '');
  // "%s [%s:%08X%08X%08X]" (usbdbg.c, USBDBG_ARCH_STR)
  const match = /^(.*?) \[([^:\]]*):([0-9A-F]*)\]$/.exec(text);
  return match ? { arch: match[1], type: match[2], uid: match[3], raw: text } : { arch: text, raw: text };
}

export class UsbdbgClient {
  private readonly reader: LinkReader;
  private readonly timeoutMs: number;

  constructor(
    private readonly link: ByteLink,
    options: { timeoutMs?: number } = {},
  ) {
    this.reader = new LinkReader(link);
    this.timeoutMs = options.timeoutMs ?? 2000;
  }

  /** Switches the camera from its REPL to the debug protocol. */
  async connect(baudRate = USBDBG_BAUD_FAST): Promise<void> {
    if (!this.link.setBaudRate) throw new UsbdbgError(this.link.path, `${this.link.path} cannot change its baud rate, so the camera cannot be switched to usbdbg`);
    await this.link.setBaudRate(baudRate);
  }

  /** `major.minor.patch`. */
  async firmwareVersion(): Promise<string> {
    const reply = await this.request(UsbdbgCommand.FW_VERSION, 12, 'its firmware version');
    return [0, 4, 8].map((offset) => reply.readUInt32LE(offset)).join('.');
  }

  async archString(): Promise<ArchInfo> {
    return parseArch(await this.request(UsbdbgCommand.ARCH_STR, ARCH_BYTES, 'its arch string'));
  }

  /** The sensor's chip id, or undefined when the camera detected none (0xFF). */
  async sensorId(): Promise<number | undefined> {
    const id = (await this.request(UsbdbgCommand.SENSOR_ID, 4, 'its sensor id')).readUInt32LE(0);
    return id === NO_SENSOR ? undefined : id;
  }

  async scriptRunning(): Promise<boolean> {
    return (await this.request(UsbdbgCommand.SCRIPT_RUNNING, 4, 'whether a script runs')).readUInt32LE(0) !== 0;
  }

  async state(): Promise<CameraState> {
    const reply = await this.request(UsbdbgCommand.GET_STATE, STATE_BYTES, 'its state');
    const flags = reply.readUInt32LE(0);
    const state: CameraState = {
      scriptRunning: (flags & UsbdbgFlag.SCRIPT_RUNNING) !== 0,
      // Printed text follows a 16-byte header, NUL-terminated.
      text: (flags & UsbdbgFlag.TEXTBUF_NOTEMPTY) !== 0 ? reply.subarray(16).toString('utf8').replace(/\0.*$/s, '') : '',
    };
    if (flags & UsbdbgFlag.FRAMEBUF_LOCKED) {
      state.frame = { width: reply.readUInt32LE(4), height: reply.readUInt32LE(8), size: reply.readUInt32LE(12) };
    }
    return state;
  }

  /** Replaces what runs on the camera with `script`. */
  async execScript(script: string): Promise<void> {
    const bytes = Buffer.from(script, 'utf8');
    await this.link.write(usbdbgFrame(UsbdbgCommand.SCRIPT_EXEC, bytes.length));
    await this.link.write(bytes);
  }

  async stopScript(): Promise<void> {
    await this.link.write(usbdbgFrame(UsbdbgCommand.SCRIPT_STOP, 0));
  }

  dispose(): void {
    this.reader.dispose();
  }

  private async request(command: number, length: number, what: string): Promise<Buffer> {
    this.reader.takeAll();
    await this.link.write(usbdbgFrame(command, length));
    try {
      return await this.reader.take(length, { timeoutMs: this.timeoutMs });
    } catch (error) {
      if (error instanceof LinkClosed) throw new UsbdbgError(this.link.path, `lost the camera on ${this.link.path} while asking for ${what}: ${error.reason}`);
      if (!(error instanceof ReadTimeout)) throw error;
      throw new UsbdbgError(
        this.link.path,
        `the camera on ${this.link.path} did not send ${what} within ${this.timeoutMs / 1000} s (got ${error.received.length} of ${length} bytes) — ` +
          'is it an OpenMV camera with 4.x firmware? 5.x firmware speaks the OpenMV Protocol instead; close OpenMV IDE if it is connected',
      );
    }
  }
}
