import { describe, expect, it } from 'vitest';
import {
  boardsByArch,
  boardsByUsb,
  frameBufferBudget,
  knownBoards,
  lookupBoard,
} from '../../../context-providers/openmv/board-facts.js';

describe('OpenMV board facts', () => {
  it('hold every board of the firmware repository with figures for both generations and their sources', () => {
    const ids = knownBoards().map((b) => b.id);
    expect(ids).toEqual([
      'OPENMV2', 'OPENMV3', 'OPENMV4', 'OPENMV4P', 'OPENMVPT', 'OPENMV_RT1060', 'OPENMV_N6', 'OPENMV_AE3',
      'ARDUINO_NICLA_VISION', 'ARDUINO_PORTENTA_H7', 'ARDUINO_GIGA', 'ARDUINO_NANO_RP2040_CONNECT',
      'ARDUINO_NANO_33_BLE_SENSE', 'RPI_PICO',
    ]);
    for (const board of knownBoards()) {
      expect(board.firmware['4'].sources.fbBytes).toMatch(/^openmv\/openmv v4\.8\.1 boards\/\w+\/omv_boardconfig\.h:\d+$/);
      expect(board.firmware['5'].sources.umaBlock0Bytes).toMatch(/^openmv\/openmv v5\.0\.0 boards\/\w+\/board_config\.h:\d+$/);
    }
  });

  it('give the frame buffer sizes the firmware defines (OPENMV4 400K, OPENMV4P 16M, OPENMV2 151K in 4.x)', () => {
    const fb = (id: string) => knownBoards().find((b) => b.id === id)!.firmware['4'].fbBytes;
    expect(fb('OPENMV4')).toBe(400 * 1024);
    expect(fb('OPENMV4P')).toBe(16 * 1024 * 1024);
    expect(fb('OPENMV2')).toBe(151 * 1024);
    expect(fb('ARDUINO_PORTENTA_H7')).toBe(3 * 1024 * 1024);
  });

  it('take the 5.x budget from OMV_UMA_BLOCK0_SIZE (480K on the OpenMV Cam H7)', () => {
    const h7 = knownBoards().find((b) => b.id === 'OPENMV4')!;
    expect(frameBufferBudget(h7, '5')).toMatchObject({ bytes: 480 * 1024, define: 'OMV_UMA_BLOCK0_SIZE' });
    expect(frameBufferBudget(h7, '4')).toMatchObject({ bytes: 400 * 1024, define: 'OMV_FB_SIZE' });
  });

  it('find a board by id in any case, by product name and by the arch string a camera reports', () => {
    expect(lookupBoard('openmv4')).toMatchObject({ ok: true, board: { id: 'OPENMV4', name: 'OpenMV Cam H7', mcu: 'STM32H743' } });
    expect(lookupBoard('OpenMV Cam H7 Plus')).toMatchObject({ ok: true, board: { id: 'OPENMV4P' } });
    expect(lookupBoard('OMV4 H7 1024')).toMatchObject({ ok: true, board: { id: 'OPENMV4' } });
    expect(lookupBoard('OMV4 H7 1024 [H7:0123456789ABCDEF01234567]')).toMatchObject({ ok: true, board: { id: 'OPENMV4' } });
  });

  it('find a 5.x camera by USB VID:PID and tell its generation', () => {
    expect(lookupBoard('37C5:1204')).toMatchObject({ ok: true, board: { id: 'OPENMV4' }, generation: '5' });
    expect(boardsByUsb(0x2341, 0x045f).map((m) => m.board.id)).toEqual(['ARDUINO_NICLA_VISION']);
  });

  it('report the 4.x OpenMV USB identity as shared by every OpenMV-made camera', () => {
    const matches = boardsByUsb('0x1209', '0xabd1');
    expect(matches.length).toBeGreaterThan(5);
    expect(matches.every((m) => m.generation === '4')).toBe(true);
  });

  it('list both boards that report the same arch string "PICO M0"', () => {
    expect(boardsByArch('PICO M0').map((m) => m.board.id).sort()).toEqual(['ARDUINO_NANO_RP2040_CONNECT', 'RPI_PICO']);
  });

  it('answer an unknown board with the known ones and the nearest match', () => {
    const result = lookupBoard('OPENMV4PP');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.nearest).toBe('OPENMV4P');
    expect(result.known).toContain('ARDUINO_GIGA');
    expect(result.message).toContain('Did you mean OPENMV4P?');
    expect(result.message).toContain('Known boards: OPENMV2, OPENMV3');
  });

  it('offer no nearest match for a name unlike any board', () => {
    const result = lookupBoard('teensy');
    expect(result).toMatchObject({ ok: false, nearest: undefined });
  });
});
