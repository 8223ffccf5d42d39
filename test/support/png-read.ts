// A PNG reader for the tests (W3C PNG §5, §9, §11.2.2), kept apart from the encoder it checks:
// the signature, every chunk's CRC (node:zlib's crc32), IHDR, the inflated image data and the
// five scanline filters undone, giving 8-bit RGBA pixels.
import { crc32, inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  chunks: string[];
  pixel(x: number, y: number): [number, number, number, number];
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function readPng(png: Buffer): DecodedPng {
  if (!SIGNATURE.every((b, i) => png[i] === b)) throw new Error('not a PNG: the signature differs');
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let header: Buffer | undefined;
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    const crc = png.readUInt32BE(at + 8 + length);
    if (crc32(png.subarray(at + 4, at + 8 + length)) !== crc) throw new Error(`chunk ${type} at byte ${at}: CRC mismatch`);
    chunks.push(type);
    if (type === 'IHDR') header = Buffer.from(data);
    if (type === 'IDAT') idat.push(Buffer.from(data));
    at += 12 + length;
  }
  if (!header || chunks[0] !== 'IHDR' || chunks.at(-1) !== 'IEND') throw new Error(`chunks out of order: ${chunks.join(' ')}`);
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [depth, colourType, compression, filterMethod, interlace] = header.subarray(8, 13);
  if (depth !== 8 || colourType !== 6 || compression !== 0 || filterMethod !== 0 || interlace !== 0) throw new Error(`IHDR is not 8-bit RGBA without interlace: ${[...header.subarray(8)].join(',')}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  if (raw.length !== (stride + 1) * height) throw new Error(`image data is ${raw.length} bytes, not ${(stride + 1) * height}`);
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= 4 ? out[y * stride + x - 4]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const c = x >= 4 && y > 0 ? out[(y - 1) * stride + x - 4]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter];
      if (predicted === undefined) throw new Error(`row ${y}: unknown filter type ${filter}`);
      out[y * stride + x] = (value + predicted) & 0xff;
    }
  }
  return {
    width,
    height,
    chunks,
    pixel: (x, y) => {
      const i = (Math.floor(y) * width + Math.floor(x)) * 4;
      return [out[i]!, out[i + 1]!, out[i + 2]!, out[i + 3]!];
    },
  };
}
