import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeScript } from '../../../context-providers/openmv/analyze-script.js';
import { lookupBoard, type OpenMvBoard } from '../../../context-providers/openmv/board-facts.js';

const fixtures = fileURLToPath(new URL('../../fixtures/openmv/', import.meta.url));

function board(id: string): OpenMvBoard {
  const found = lookupBoard(id);
  if (!found.ok) throw new Error(found.message);
  return found.board;
}

function analyze(script: string, boardId: string, options: { firmware?: string; sensor?: string } = {}) {
  const text = readFileSync(`${fixtures}scripts/${script}`, 'utf8');
  return analyzeScript(text, { board: board(boardId), file: script, ...options });
}

// Golden findings: test/fixtures/openmv/golden/<script>.<board>[.<firmware|sensor>].json
const cases: Array<{ script: string; board: string; firmware?: string; sensor?: string; says: string }> = [
  { script: 'vga_rgb565_h7.py', board: 'OPENMV4', says: 'VGA RGB565 overflows the Cam H7 frame buffer and GRAYSCALE or QVGA are offered' },
  { script: 'vga_rgb565_h7.py', board: 'OPENMV4P', says: 'the same script fits the H7 Plus SDRAM frame buffer' },
  { script: 'qvga_grayscale_ok.py', board: 'OPENMV2', says: 'HQVGA grayscale face detection fits the Cam M4' },
  { script: 'qvga_grayscale_ok.py', board: 'RPI_PICO', says: "the Pico's OV7670 lacks contrast and gain ceiling controls" },
  { script: 'csi_v5_triple_buffer.py', board: 'OPENMV4', firmware: '5.0.0', says: 'a windowed triple buffer fits the 5.x budget' },
  { script: 'csi_v5_triple_buffer.py', board: 'OPENMV4', firmware: '4.6.20', says: 'csi.CSI() is missing from 4.6 firmware and three buffers overflow 400 KB' },
  { script: 'csi_v5_triple_buffer.py', board: 'OPENMV2', firmware: '5.0.0', says: 'three QVGA RGB565 buffers overflow the Cam M4' },
  { script: 'mixed_generations.py', board: 'OPENMV4', firmware: '5.0.0', says: 'mixed APIs, 4.x names on a CSI object, a dropped constant and JPEG on an OV7725 are reported' },
  { script: 'broken_syntax.py', board: 'OPENMV4', says: 'an unclosed parenthesis is reported on the line that opened it' },
  { script: 'nicla_jpeg.py', board: 'ARDUINO_NICLA_VISION', says: 'JPEG from the GC2145 and a window outside UXGA are reported' },
  { script: 'windowed_constants.py', board: 'OPENMV2', says: 'constants, tuple unpacking and a function body resolve to a window that fits two buffers' },
  { script: 'portenta_himax.py', board: 'ARDUINO_PORTENTA_H7', firmware: '5.0.0', says: 'the Himax sensors lack white balance and a window larger than QVGA is reported' },
  { script: 'global_shutter_sxga.py', board: 'OPENMV4', sensor: 'MT9V0XX', says: 'SXGA exceeds the MT9V034 and lens correction is missing from its driver' },
];

describe('OpenMV script analysis (golden findings)', () => {
  for (const c of cases) {
    const variant = c.firmware ?? c.sensor;
    it(`${c.script} on ${c.board}${variant ? ` (${variant})` : ''}: ${c.says}`, async () => {
      const analysis = analyze(c.script, c.board, { firmware: c.firmware, sensor: c.sensor });
      const golden = `${fixtures}golden/${c.script}.${c.board}${variant ? `.${variant}` : ''}.json`;
      await expect(JSON.stringify({ api: analysis.api, generation: analysis.generation, findings: analysis.findings }, null, 2) + '\n').toMatchFileSnapshot(golden);
    });
  }
});

describe('OpenMV script analysis', () => {
  it('states the issue example: line 12, VGA RGB565 614,400 bytes, about 400 KB, GRAYSCALE (307,200 bytes) or QVGA', () => {
    const [finding] = analyze('vga_rgb565_h7.py', 'OPENMV4').findings;
    expect(finding).toMatchObject({ code: 'framebuffer', severity: 'error', line: 12 });
    expect(`line ${finding.line}: ${finding.message} — ${finding.suggestion}`).toBe(
      'line 12: VGA RGB565 needs 614,400 bytes; the OpenMV Cam H7 frame buffer holds about 400 KB — use GRAYSCALE (307,200 bytes) or QVGA',
    );
  });

  it('tells which API a script is written for', () => {
    expect(analyze('vga_rgb565_h7.py', 'OPENMV4').api).toBe('sensor');
    expect(analyze('csi_v5_triple_buffer.py', 'OPENMV4').api).toBe('csi');
    expect(analyze('mixed_generations.py', 'OPENMV4').api).toBe('mixed');
  });

  it('sizes the frame a window leaves, through constants and tuple unpacking', () => {
    const analysis = analyze('windowed_constants.py', 'OPENMV2');
    expect(analysis.frames).toEqual([
      expect.objectContaining({ width: 320, height: 240, format: 'GRAYSCALE', buffers: 2, bytes: 153_600, fits: true }),
    ]);
  });

  it('budgets a csi script against the 5.x memory block when the firmware is not known', () => {
    const analysis = analyze('csi_v5_triple_buffer.py', 'OPENMV4');
    expect(analysis.generation).toBe('5');
    expect(analysis.budget).toMatchObject({ define: 'OMV_UMA_BLOCK0_SIZE', bytes: 491_520 });
  });

  it('takes the frame buffer of firmware before 4.7 from the v4.6 board files', () => {
    const old = analyze('qvga_grayscale_ok.py', 'OPENMV2', { firmware: '4.6.20' });
    expect(old.budget).toMatchObject({ bytes: 150 * 1024, source: 'openmv/openmv v4.6.20 src/omv/boards/OPENMV2/omv_boardconfig.h:87' });
    expect(analyze('qvga_grayscale_ok.py', 'OPENMV2', { firmware: '4.8.1' }).budget.bytes).toBe(151 * 1024);
  });

  it('still analyses what it can read from a script that does not parse', () => {
    const analysis = analyzeScript('import sensor\nsensor.set_pixformat(sensor.RGB565)\nsensor.set_framesize(sensor.VGA)\nx = = 1\n', {
      board: board('OPENMV4'),
    });
    expect(analysis.findings.map((f) => [f.code, f.line])).toEqual([
      ['framebuffer', 3],
      ['syntax-error', 4],
    ]);
  });

  it('accepts empty and binary-looking input without throwing', () => {
    expect(analyzeScript('', { board: board('OPENMV4') }).findings).toEqual([]);
    expect(() => analyzeScript('\u0000\u0001\uFFFF(((', { board: board('OPENMV4') })).not.toThrow();
  });
});
