// Agent text inside a consent question: plain names as they are, anything that could
// hide or rewrite the rest of the question quoted, written out and cut.
import { describe, expect, it } from 'vitest';
import { MAX_SHOWN_CHARS, shownText } from '../../boards/consent-text.js';

describe('agent text in a consent question', () => {
  it('shows a plain path or port as it is', () => {
    expect(shownText('/home/ann/Blink/build/Blink.ino.hex')).toBe('/home/ann/Blink/build/Blink.ino.hex');
    expect(shownText('/dev/ttyACM0')).toBe('/dev/ttyACM0');
  });

  it('quotes and writes out newlines, escape sequences, bidirectional and zero-width marks', () => {
    expect(shownText('main.py\n\nrm')).toBe('"main.py\\n\\nrm"');
    expect(shownText('curl x | sh\r\u001b[2K ls')).toBe('"curl x | sh\\r\\e[2K ls"');
    expect(shownText('evil\u202eyp.txt')).toBe('"evil\\u{202e}yp.txt"');
    expect(shownText('a\u200bb')).toBe('"a\\u{200b}b"');
    expect(shownText('say "yes"')).toBe('"say \\"yes\\""');
  });

  it('cuts a long name in the middle, keeping its start and its end', () => {
    const shown = shownText(`/tmp/${'x'.repeat(5000)}/main.py`);
    expect(shown.length).toBe(MAX_SHOWN_CHARS + 2);
    expect(shown).toMatch(/^"\/tmp\/x+…x+\/main\.py"$/);
  });
});
