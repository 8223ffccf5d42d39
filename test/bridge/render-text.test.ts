// The terminal chat's rendering of terminal events: a failed command's last lines
// (a compile error with its file:line) are printed; a command that worked stays one line;
// in live mode the status line names what the turn waits for.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TextRenderer } from '../../bridge/cli/render-text.js';

function rendered(events: Parameters<TextRenderer['render']>[0][], options: { live?: boolean } = {}): string {
  const out = new PassThrough();
  let text = '';
  out.setEncoding('utf8').on('data', (t: string) => (text += t));
  const renderer = new TextRenderer(out as unknown as NodeJS.WriteStream, '/ws', options);
  for (const event of events) renderer.render(event);
  return text;
}

const started = (terminalId: string, command: string) => ({ type: 'terminal_started' as const, terminalId, command, inProcess: true });
const output = (terminalId: string, text: string) => ({ type: 'terminal_output' as const, terminalId, text });
const exited = (terminalId: string, command: string, exitCode: number) => ({ type: 'terminal_exited' as const, terminalId, command, exitCode, signal: null });

describe('terminal output in the chat', () => {
  it('shows the last 20 lines of a command, split across chunks, with how many came before', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const text = rendered([
      started('t1', 'boardbridge compile'),
      output('t1', lines.slice(0, 10).join('\n') + '\nBlink.ino:6:3: err'),
      output('t1', 'or: x was not declared\n' + lines.slice(10).join('\n') + '\n'),
      exited('t1', 'boardbridge compile', 1),
    ]);
    expect(text).toContain('$ boardbridge compile   (run by boardbridge)');
    expect(text).toContain('  exit 1');
    expect(text).toContain('  │ line 20');
    expect(text).toContain('  │ line 2\n');
    expect(text).not.toContain('line 1\n');
    expect(text).toContain('  │ … 1 line before\n');
    expect(text).toContain('  │ Blink.ino:6:3: error: x was not declared\n');
    expect(text.trimEnd().split('\n').filter((l) => l.startsWith('  │ ') && !l.includes('before'))).toHaveLength(20);
    expect(text.indexOf('  │ line 20')).toBeLessThan(text.indexOf('  exit 1'));
  });

  it('shows the output of a command that worked too, and keeps terminals apart', () => {
    const text = rendered([
      started('a', 'boardbridge ports'),
      started('b', 'make'),
      output('a', '/dev/ttyACM0 Arduino Uno\n'),
      output('b', 'main.c:3:1: error: expected ;\n'),
      exited('a', 'boardbridge ports', 0),
      exited('b', 'make', 2),
    ]);
    expect(text).toContain('  │ /dev/ttyACM0 Arduino Uno\n  exit 0');
    expect(text).toContain('  │ main.c:3:1: error: expected ;\n  exit 2');
    expect(text).not.toContain('before');
  });
});

const call = (status: 'pending' | 'in_progress' | 'completed') => ({
  type: 'tool_call' as const,
  created: status === 'pending',
  toolCall: { toolCallId: 'c1', title: 'Read Blink.ino', kind: 'read' as const, status, content: [], locations: [], firstSeenIn: 'tool_call' as const },
});

describe('the live status line', () => {
  // The screen itself is read in a real terminal by test/e2e/chat-live.test.ts; here, what the lines say.
  it('names the running tool it waits for, then the model once the tool is done', () => {
    const text = rendered([{ type: 'prompt_sent', text: 'read it' }, call('pending'), call('in_progress'), call('completed'), { type: 'message_chunk', role: 'agent', text: 'Read.\n' }, { type: 'stop', stopReason: 'end_turn' }], { live: true });
    expect(text).toContain('◐ read Read Blink.ino\n');
    expect(text).toMatch(/\d+s · waiting for a tool: Read Blink\.ino · Ctrl-C cancels/);
    expect(text).toContain('● read Read Blink.ino [completed]\n');
    expect(text.slice(text.indexOf('[completed]'))).toMatch(/\d+s · waiting for the model · Ctrl-C cancels/);
  });
});
