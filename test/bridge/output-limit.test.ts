import { describe, expect, it } from 'vitest';
import { OutputBuffer } from '../../bridge/services/terminal/output-limit.js';

describe('terminal output under a byte limit', () => {
  it('keeps everything while under the limit', () => {
    const out = new OutputBuffer(100);
    out.append(Buffer.from('hello '));
    out.append(Buffer.from('world'));
    expect(out.text(true)).toBe('hello world');
    expect(out.truncated).toBe(false);
  });

  it('drops from the beginning when over the limit and says so', () => {
    const out = new OutputBuffer(5);
    out.append(Buffer.from('0123456789'));
    expect(out.text(true)).toBe('56789');
    expect(out.truncated).toBe(true);
  });

  it('never cuts a multi-byte character at the start', () => {
    const out = new OutputBuffer(4);
    out.append(Buffer.from('aaé°C')); // é and ° are two bytes each: 7 bytes; byte 4 from the end is inside é
    const kept = out.text(true);
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(4);
    expect(kept).toBe('°C');
    expect(kept).not.toContain('\uFFFD');
  });

  it('holds back a character split across two chunks until it completes', () => {
    const out = new OutputBuffer(100);
    const bytes = Buffer.from('µs');
    out.append(bytes.subarray(0, 1));
    expect(out.text(false)).toBe('');
    out.append(bytes.subarray(1));
    expect(out.text(false)).toBe('µs');
  });

  it('stays within the limit under a flood of small chunks', () => {
    const out = new OutputBuffer(1000);
    for (let i = 0; i < 10_000; i++) out.append(Buffer.from(`line ${i} ✓\n`));
    const text = out.text(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
    expect(text.endsWith('line 9999 ✓\n')).toBe(true);
  });
});
