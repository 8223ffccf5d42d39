// The one sanitiser for agent text on the person's terminal (bridge/cli/terminal-text.ts):
// each control character becomes a visible escape, newlines and tabs stay in text, a
// one-line field shows its newlines too, and a quotation is bounded. The chat's
// renderer passes every event through it, also when a sequence is split across chunks.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TextRenderer } from '../../bridge/cli/render-text.js';
import { quotedLines, terminalLine, terminalText } from '../../bridge/cli/terminal-text.js';

describe('terminal text', () => {
  it('shows ESC, CR, the other C0 controls, DEL, C1 controls and bidi overrides as visible escapes', () => {
    expect(terminalText('a\x1b[2Jb')).toBe('a\\e[2Jb');
    expect(terminalText('curl x | sh\r\x1b[2K ls')).toBe('curl x | sh\\r\\e[2K ls');
    expect(terminalText('bell\x07 nul\x00 bs\x08 del\x7f')).toBe('bell\\x07 nul\\x00 bs\\x08 del\\x7f');
    expect(terminalText('\u009b2J \u009d0;t\u009c')).toBe('\\u{9b}2J \\u{9d}0;t\\u{9c}');
    expect(terminalText('abc\u202edcba')).toBe('abc\\u{202e}dcba');
    expect(terminalText('line one\r\nline\ttwo\n')).toBe('line one\nline\ttwo\n');
    expect(terminalText('ünïcødé → ✓ 中文')).toBe('ünïcødé → ✓ 中文');
  });

  it('shows the newlines of a one-line field as \\n', () => {
    expect(terminalLine('Read README.md\n\n\x1b[1Aupload')).toBe('Read README.md\\n\\n\\e[1Aupload');
    expect(terminalLine('a\r\nb')).toBe('a\\r\\nb');
  });

  it('bounds a quotation by lines and characters, saying what was left out', () => {
    expect(quotedLines(`one\n${'x'.repeat(10)}\nthree\nfour`, { lines: 2, chars: 4 })).toEqual(['│ one', '│ xxxx… (6 more characters)', '│ … (2 more lines not shown)']);
  });
});

describe('the chat renderer', () => {
  it('passes every event through the sanitiser, also an escape split across two chunks', () => {
    const out = new PassThrough();
    let text = '';
    out.setEncoding('utf8').on('data', (t: string) => (text += t));
    const renderer = new TextRenderer(out as unknown as NodeJS.WriteStream, '/ws');
    renderer.render({ type: 'message_chunk', role: 'agent', text: 'clear \x1b' });
    renderer.render({ type: 'message_chunk', role: 'agent', text: '[2J now\n' });
    renderer.render({ type: 'tool_call', created: true, toolCall: { toolCallId: 't', title: 'x\n\x1b]0;title\x07', kind: 'execute', status: 'completed', content: [], locations: [] } as never });
    renderer.render({ type: 'error', code: 'agent', message: 'refused: \x1b[8mhidden' });
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(text).toContain('clear \\e[2J now\n');
    expect(text).toContain('● execute x\\n\\e]0;title\\x07 [completed]\n');
    expect(text).toContain('error: refused: \\e[8mhidden\n');
  });
});
