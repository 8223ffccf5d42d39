// A stand-in for an OpenMV camera with 4.x firmware in debug mode (no camera firmware can run
// here): it reads usbdbg frames `0x30, cmd, u32 length` on a pty and answers with the bytes the
// firmware's usbdbg.c would send.
import { SerialPort } from 'serialport';

export interface StandInCamera {
  /** Every frame received, as [command, length]. */
  frames: Array<[number, number]>;
  /** Script bytes received with SCRIPT_EXEC. */
  scripts: string[];
  close(): Promise<void>;
}

export interface CameraReplies {
  version: [number, number, number];
  arch: string;
  sensorId: number;
  scriptRunning: boolean;
  printed: string;
}

function u32(...values: number[]): Buffer {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((value, i) => buffer.writeUInt32LE(value, i * 4));
  return buffer;
}

function padded(text: string, size: number): Buffer {
  const buffer = Buffer.alloc(size);
  buffer.write(text, 'latin1');
  return buffer;
}

export async function startStandInCamera(path: string, replies: CameraReplies): Promise<StandInCamera> {
  const port = new SerialPort({ path, baudRate: 12_000_000, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  const camera: StandInCamera = { frames: [], scripts: [], close: () => new Promise((resolve) => port.close(() => resolve())) };
  let buffer = Buffer.alloc(0);
  let scriptBytes = 0;
  port.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (scriptBytes > 0) {
        if (buffer.length < scriptBytes) return;
        camera.scripts.push(buffer.subarray(0, scriptBytes).toString('utf8'));
        buffer = buffer.subarray(scriptBytes);
        scriptBytes = 0;
      }
      if (buffer.length < 6) return;
      if (buffer[0] !== 0x30) {
        buffer = buffer.subarray(1);
        continue;
      }
      const command = buffer[1];
      const length = buffer.readUInt32LE(2);
      buffer = buffer.subarray(6);
      camera.frames.push([command, length]);
      const reply = answer(command, length, replies);
      if (reply) port.write(reply);
      if (command === 0x05) scriptBytes = length;
    }
  });
  return camera;
}

function answer(command: number, length: number, replies: CameraReplies): Buffer | undefined {
  switch (command) {
    case 0x80: // FW_VERSION: three u32
      return u32(...replies.version);
    case 0x83: // ARCH_STR: "%s [%s:%08X%08X%08X]" in 64 bytes
      return padded(replies.arch, 64);
    case 0x90: // SENSOR_ID
      return u32(replies.sensorId);
    case 0x87: // SCRIPT_RUNNING
      return u32(replies.scriptRunning ? 1 : 0);
    case 0x93: {
      // GET_STATE: flags, then printed text from byte 16
      const state = Buffer.alloc(length);
      const flags = (replies.scriptRunning ? 1 : 0) | (replies.printed ? 2 : 0);
      state.writeUInt32LE(flags, 0);
      state.write(replies.printed, 16, 'utf8');
      return state;
    }
    default:
      return undefined;
  }
}
