// Intel HEX (the `.hex` an AVR build writes) into a flash image. Record types 00 (data),
// 01 (end), 02 (extended segment address) and 04 (extended linear address); 03/05 (start
// addresses) carry nothing flash needs.
import { readFileSync } from 'node:fs';

export class HexError extends Error {
  constructor(file: string, line: number, problem: string) {
    super(`${file}:${line}: ${problem}; rebuild the sketch (boardbridge compile) and try again`);
    this.name = 'HexError';
  }
}

/** Writes the file's data bytes into `flash`; returns the highest address written + 1. */
export function loadIntelHex(file: string, flash: Uint8Array): number {
  const lines = readFileSync(file, 'latin1').split(/\r?\n/);
  let base = 0;
  let end = 0;
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const lineNo = index + 1;
    if (!/^:([0-9A-Fa-f]{2})+$/.test(line)) throw new HexError(file, lineNo, 'not an Intel HEX record');
    const bytes = Buffer.from(line.slice(1), 'hex');
    const count = bytes[0];
    if (bytes.length !== count + 5) throw new HexError(file, lineNo, `record says ${count} data bytes but holds ${bytes.length - 5}`);
    const sum = bytes.reduce((total, byte) => (total + byte) & 0xff, 0);
    if (sum !== 0) throw new HexError(file, lineNo, 'checksum mismatch');
    const offset = (bytes[1] << 8) | bytes[2];
    const type = bytes[3];
    const data = bytes.subarray(4, 4 + count);
    if (type === 0x00) {
      const address = base + offset;
      if (address + count > flash.length) {
        throw new HexError(file, lineNo, `data at 0x${address.toString(16)} runs past the ${flash.length}-byte flash`);
      }
      flash.set(data, address);
      end = Math.max(end, address + count);
    } else if (type === 0x01) {
      break;
    } else if (type === 0x02) {
      base = ((data[0] << 8) | data[1]) << 4;
    } else if (type === 0x04) {
      base = ((data[0] << 8) | data[1]) << 16;
    }
  }
  return end;
}
