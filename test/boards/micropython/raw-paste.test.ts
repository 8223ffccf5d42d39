import { describe, expect, it } from 'vitest';
import type { ByteLink } from '../../../boards/micropython/link.js';
import { RawRepl } from '../../../boards/micropython/raw-repl.js';

// No MicroPython with a working raw-paste mode runs on this machine (the micro:bit firmware is
// 1.9.2, older than raw-paste; the WebAssembly port's reader ends the transfer at once), so this
// stand-in device speaks the raw-paste side of pyexec.c: "R\x01", a 16-bit window, one \x01 per
// window consumed, \x04 to acknowledge the end.
function standInDevice(window: number) {
  const listeners = new Set<(chunk: Uint8Array) => void>();
  const send = (bytes: Uint8Array | string) => setImmediate(() => listeners.forEach((l) => l(Buffer.from(bytes))));
  let mode: 'friendly' | 'raw' | 'paste' = 'friendly';
  let line: number[] = [];
  let received: number[] = [];
  let consumed = 0;
  const log = { maxOutstanding: 0, scripts: [] as string[] };
  const link: ByteLink = {
    path: '/dev/stand-in',
    async write(bytes) {
      for (const byte of bytes) {
        if (mode === 'paste') {
          if (byte === 0x04) {
            const script = Buffer.from(received).toString('utf8');
            log.scripts.push(script);
            mode = 'raw';
            send(Buffer.concat([Buffer.of(0x04), Buffer.from(`${script.length} bytes\r\n`), Buffer.of(0x04, 0x04), Buffer.from('>')]));
            continue;
          }
          received.push(byte);
          log.maxOutstanding = Math.max(log.maxOutstanding, received.length - consumed);
          // The device frees a window once it has compiled that much.
          if (received.length - consumed >= window) {
            consumed += window;
            send(Uint8Array.of(0x01));
          }
          continue;
        }
        if (byte === 0x01) {
          if (line.length === 2 && line[0] === 0x05 && line[1] === 0x41) {
            mode = 'paste';
            received = [];
            consumed = 0;
            const header = Buffer.from('R\x01\0\0', 'latin1');
            header.writeUInt16LE(window, 2);
            send(header);
          } else {
            mode = 'raw';
            send('raw REPL; CTRL-B to exit\r\n>');
          }
          line = [];
        } else if (byte !== 0x0d && byte !== 0x03) {
          line.push(byte);
        }
      }
    },
    onData(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClose: () => () => undefined,
    close: async () => undefined,
  };
  return { link, log };
}

describe('raw-paste mode (stand-in device)', () => {
  it('sends a script larger than the window without ever exceeding it (stand-in device)', async () => {
    const { link, log } = standInDevice(32);
    const repl = new RawRepl(link, { answerTimeoutMs: 1000 });
    await repl.enter();
    const script = Array.from({ length: 20 }, (_, i) => `print("line ${i}")`).join('\n') + '\n';
    const result = await repl.exec(script);
    repl.dispose();
    expect(result).toMatchObject({ rawPaste: true, stdout: `${script.length} bytes\r\n`, stderr: '' });
    expect(log.scripts).toEqual([script]);
    expect(log.maxOutstanding).toBeLessThanOrEqual(32);
  });
});
