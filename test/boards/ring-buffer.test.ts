import { describe, expect, it } from 'vitest';
import { RingBuffer } from '../../boards/serial/ring-buffer.js';

describe('ring buffer', () => {
  it('returns bytes in order across the wrap-around', () => {
    const ring = new RingBuffer(8);
    ring.write(Buffer.from('abcdef'));
    expect(ring.read(0, 4)).toEqual({ data: Buffer.from('abcd'), missed: 0, next: 4 });
    ring.write(Buffer.from('ghij'));
    expect(ring.read(4)).toEqual({ data: Buffer.from('efghij'), missed: 0, next: 10 });
  });

  it('moves a cursor that fell behind to the oldest byte and counts what it skipped', () => {
    const ring = new RingBuffer(4);
    ring.write(Buffer.from('0123456789'));
    expect(ring.read(0)).toEqual({ data: Buffer.from('6789'), missed: 6, next: 10 });
    expect(ring.start).toBe(6);
    expect(ring.end).toBe(10);
  });

  it('refuses a capacity that is not a positive whole number', () => {
    expect(() => new RingBuffer(0)).toThrow(/positive integer/);
  });
});
