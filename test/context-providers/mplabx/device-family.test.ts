// The family table (boards/data/microchip-families.json) over real device names
// of every current Microchip line, and the installed device file's core winning
// over the table. The PIC10/12/16 core rows are checked against gputils (Debian), which
// knows for each part whether it has the 12-bit baseline or the 14-bit mid-range core.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { deviceFamily, describeFamily, FAMILY_TABLE } from '../../../context-providers/mplabx/device-family.js';
import { programMemory } from '../../../context-providers/mplabx/edc.js';
import { removeTempDirs, tempDir } from './support.js';

afterAll(removeTempDirs);

const expected: Array<[string[], string]> = [
  [['PIC10F200', 'PIC10F222'], 'PIC10 (8-bit, PIC baseline core)'],
  [['PIC10F322', 'PIC10LF320'], 'PIC10 (8-bit, PIC mid-range core)'],
  [['PIC12F508', 'PIC12F529T39A'], 'PIC12 (8-bit, PIC baseline core)'],
  [['PIC12F675', 'PIC12F1840'], 'PIC12 (8-bit, PIC mid-range core)'],
  [['PIC16F54', 'PIC16F505', 'PIC16F570', 'PIC16HV540'], 'PIC16 (8-bit, PIC baseline core)'],
  [['PIC16F877A', 'PIC16F18446', 'PIC16LF1559', 'PIC16F1503', 'PIC16F610'], 'PIC16 (8-bit, PIC mid-range core)'],
  [['PIC18F47Q10', 'PIC18F45K22', 'PIC18F57Q43'], 'PIC18 (8-bit, PIC18 core)'],
  [['ATtiny85', 'ATtiny1616', 'ATtiny3227'], 'tinyAVR (8-bit, AVR core)'],
  [['ATmega328P', 'ATmega4809', 'ATmega2560'], 'megaAVR (8-bit, AVR core)'],
  [['ATxmega128A1U'], 'AVR XMEGA (8-bit, AVR core)'],
  [['AVR128DA48', 'AVR128DB48', 'AVR64DD32', 'AVR64DU32'], 'AVR Dx (8-bit, AVR core)'],
  [['AVR64EA48', 'AVR16EB32'], 'AVR Ex (8-bit, AVR core)'],
  [['AVR32SD32'], 'AVR Sx (8-bit, AVR core)'],
  [['PIC24FJ128GA010', 'PIC24EP256MC206', 'PIC24FJ1024GB610'], 'PIC24 (16-bit, PIC24 core)'],
  [['dsPIC33CK256MP508', 'dsPIC33EP128MC502', 'dsPIC33FJ128GP802', 'dsPIC33CH512MP508'], 'dsPIC33 (16-bit, dsPIC DSC core)'],
  [['dsPIC30F4011'], 'dsPIC30 (16-bit, dsPIC DSC core)'],
  [['dsPIC33AK128MC106', 'dsPIC33AK512MPS512'], 'dsPIC33A (32-bit, dsPIC33A DSC core)'],
  [['PIC32MX795F512L', 'PIC32MX270F256D'], 'PIC32MX (32-bit, MIPS32 M4K)'],
  [['PIC32MZ2048EFH144', 'PIC32MZ2048ECH144'], 'PIC32MZ (32-bit, MIPS32 microAptiv or M-Class M5150)'],
  [['PIC32MK1024GPE100'], 'PIC32MK (32-bit, MIPS32)'],
  [['PIC32MM0256GPM064'], 'PIC32MM (32-bit, MIPS32 microAptiv UC)'],
  [['PIC32CM1216MC00032', 'PIC32CM5164JH01100', 'PIC32CM6408PL10048'], 'PIC32CM (32-bit, Arm Cortex-M0+)'],
  [['PIC32CM5112GC00100', 'PIC32CM5112SG00048'], 'PIC32CM GC/SG (32-bit, Arm Cortex-M23)'],
  [['PIC32CM5164LS00100', 'PIC32CM5164LE00100'], 'PIC32CM LE/LS (32-bit, Arm Cortex-M23)'],
  [['PIC32CX1025SG41128', 'PIC32CX1012BZ25048'], 'PIC32CX (32-bit, Arm Cortex-M4F)'],
  [['PIC32CZ8110CA90208'], 'PIC32CZ (32-bit, Arm Cortex-M7)'],
  [['PIC32CK2051SG01144'], 'PIC32CK (32-bit, Arm Cortex-M33)'],
  [['ATSAMD21G18A', 'ATSAMD10D14AM', 'ATSAMC21J18A', 'ATSAML21J18B', 'ATSAMR21G18A', 'ATSAMDA1J16B'], 'SAM D/C/L/R (32-bit, Arm Cortex-M0+)'],
  [['ATSAML11E16A', 'ATSAML10E16A'], 'SAM L10/L11 (32-bit, Arm Cortex-M23)'],
  [['ATSAMD51J19A', 'ATSAME54P20A', 'ATSAME51J20A'], 'SAM D5x/E5x (32-bit, Arm Cortex-M4F)'],
  [['ATSAMG55J19', 'ATSAM4S16C', 'ATSAM4E16E'], 'SAM G/SAM4 (32-bit, Arm Cortex-M4)'],
  [['ATSAM3X8E'], 'SAM3 (32-bit, Arm Cortex-M3)'],
  [['ATSAME70Q21B', 'ATSAMV71Q21B', 'ATSAMS70J21B'], 'SAM E70/S70/V70/V71 (32-bit, Arm Cortex-M7)'],
  [['ATSAMA5D27'], 'SAMA5 (32-bit, Arm Cortex-A5)'],
];

describe('Microchip device families from the cited family table', () => {
  for (const [devices, family] of expected) {
    it(`${devices.join(', ')} → ${family}`, () => {
      for (const device of devices) {
        const found = deviceFamily(device);
        expect(found && describeFamily(found), device).toBe(family);
        expect(found?.source.file).toBe(FAMILY_TABLE);
      }
    });
  }

  it('only PIC32MX/MZ/MK/MM are MIPS; every PIC32C and SAM part is Arm', () => {
    for (const [devices, family] of expected) {
      for (const device of devices) {
        const core = deviceFamily(device)?.core ?? '';
        if (/^PIC32M/i.test(device)) expect(core, device).toMatch(/^MIPS32/);
        if (/^(PIC32C|ATSAM)/i.test(device)) expect(core, `${device} ${family}`).toMatch(/^Arm Cortex-/);
      }
    }
  });

  it('PIC10/12/16: the table calls a part mid-range exactly when gputils assembles the 14-bit ADDLW for it (every part gpasm lists)', async () => {
    const run = promisify(execFile);
    const listed = await run('gpasm', ['-l']).catch((error: Error) => {
      throw new Error(`gpasm (Debian gputils) is needed for this test: ${error.message}. Install it with test/setup/debian-packages.sh`);
    });
    const parts = listed.stdout
      .split(/\s+/)
      // gpasm's generic names (p16c5x, p16cxx) are no devices.
      .filter((name) => /^p1[026][a-z]*\d/i.test(name) && !/x$/i.test(name))
      .map((name) => name.slice(1).toUpperCase());
    expect(parts.length).toBeGreaterThan(300);
    const dir = tempDir('gpasm-');
    const source = join(dir, 'addlw.asm');
    writeFileSync(source, '  addlw 1\n  end\n');
    const wrong: string[] = [];
    for (const part of parts) {
      const midRange = await run('gpasm', ['-p', part, '-o', join(dir, 'out.hex'), source]).then(
        () => true,
        () => false,
      );
      const core = deviceFamily(`PIC${part}`)?.core;
      const expected = midRange ? 'PIC mid-range core' : 'PIC baseline core';
      if (core !== expected) wrong.push(`PIC${part}: table ${core}, gputils ${expected}`);
    }
    expect(wrong).toEqual([]);
  }, 180_000);

  it('program memory counts 12-bit words on baseline and 14-bit words on mid-range parts, as the table names their core', () => {
    // Program memory sizes from the data sheets: PIC12F675 1024 words, PIC16F54 512, PIC10F322 512, PIC10F200 256.
    expect(programMemory('PIC12F675', 0x400)).toEqual({ bytes: 1792, words: 1024, wordBits: 14 });
    expect(programMemory('PIC12F508', 0x200)).toEqual({ bytes: 768, words: 512, wordBits: 12 });
    expect(programMemory('PIC16F54', 0x200)).toEqual({ bytes: 768, words: 512, wordBits: 12 });
    expect(programMemory('PIC10F322', 0x200)).toEqual({ bytes: 896, words: 512, wordBits: 14 });
    expect(programMemory('PIC10F200', 0x100)).toEqual({ bytes: 384, words: 256, wordBits: 12 });
    expect(programMemory('PIC16F18446', 0x4000)).toEqual({ bytes: 28672, words: 16384, wordBits: 14 });
    expect(programMemory('PIC18F47Q10', 0x20000)).toEqual({ bytes: 0x20000 });
    expect(programMemory('PIC24EP256MC206', 0x2ac00)).toEqual({ bytes: 262656, words: 87552, wordBits: 24 });
    // A PIC10 the table cannot place as baseline or mid-range: its size in bytes is not made up.
    expect(programMemory('PIC10X999', 0x100)).toBeUndefined();
  });

  it('a name the table does not cover is unknown, not guessed', () => {
    expect(deviceFamily('MCP2221A')).toBeUndefined();
    expect(deviceFamily('PIC17C44')).toBeUndefined();
  });

  it("an installed .atdf's architecture gives the core, cited to that file", () => {
    expect(deviceFamily('ATSAMD21G18A', { architecture: 'CORTEX-M0PLUS', file: '/packs/SAMD21_DFP/atdf/ATSAMD21G18A.atdf' })).toEqual({
      family: 'SAM D/C/L/R',
      bits: 32,
      core: 'Arm Cortex-M0+',
      source: { file: '/packs/SAMD21_DFP/atdf/ATSAMD21G18A.atdf' },
    });
    expect(deviceFamily('ATmega4809', { architecture: 'AVR8X', file: '/p/ATmega4809.atdf' })).toMatchObject({ family: 'megaAVR', core: 'AVR core', bits: 8 });
  });

  it('every row of the table has a pattern that compiles, a family, a core and a source', () => {
    const table = JSON.parse(readFileSync(FAMILY_TABLE, 'utf8')) as { families: Array<Record<string, unknown>> };
    for (const row of table.families) {
      expect(() => new RegExp(String(row.pattern))).not.toThrow();
      expect(row).toEqual(expect.objectContaining({ family: expect.any(String), core: expect.any(String), bits: expect.any(Number), source: expect.stringMatching(/Microchip .*data sheet|manual/) }));
    }
  });
});
