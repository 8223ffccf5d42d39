import { describe, expect, it } from 'vitest';
import { BoardSelection } from '../../bridge/session/board-selection.js';

describe('the one board selection of a workspace', () => {
  it('takes the fields a change gives, keeps the others, and says whether the board, port or IDE choice changed', () => {
    const selection = new BoardSelection({ board: 'arduino:avr:uno', port: '/dev/ttyACM0' });
    expect(selection.update({ port: undefined, files: ['/w/Blink/Blink.ino'] })).toBe(false);
    expect(selection.current).toEqual({ board: 'arduino:avr:uno', port: '/dev/ttyACM0', files: ['/w/Blink/Blink.ino'] });
    expect(selection.update({ board: 'arduino:avr:mega' })).toBe(true);
    expect(selection.board).toBe('arduino:avr:mega');
  });
});
