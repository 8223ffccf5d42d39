// The far end of a pty pair, opened with serialport directly (not the hub): it plays the board.
import { SerialPort } from 'serialport';

export interface BoardEnd {
  write(data: string | Buffer): Promise<void>;
  /** Everything received so far. */
  received(): Buffer;
  close(): Promise<void>;
}

export async function openBoardEnd(path: string): Promise<BoardEnd> {
  const port = new SerialPort({ path, baudRate: 115200, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
  const chunks: Buffer[] = [];
  port.on('data', (chunk: Buffer) => chunks.push(chunk));
  port.on('error', () => undefined);
  return {
    write: (data) =>
      new Promise<void>((resolve, reject) =>
        port.write(data, (error) => (error ? reject(error) : port.drain(() => resolve()))),
      ),
    received: () => Buffer.concat(chunks),
    close: () => new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve())),
  };
}
