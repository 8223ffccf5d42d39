// Device facts from pack files: the real ATmega328P/ATmega2560 .atdf files
// (Rahix/avr-device, Apache-2.0) and small .atdf/.PIC files written for these tests.
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectGolden } from '../../support/golden.js';
import { createMplabxProvider, parseAtdf, parseEdc } from '../../../context-providers/mplabx/index.js';
import { atmegaPackRoot, goldenDir, ownFixtures, ownPacks, portable, sharedFixtures, removeTempDirs, tempDir } from './support.js';

afterAll(removeTempDirs);

const atmega328p = join(sharedFixtures, 'atdf', 'atmega328p.atdf');

describe('.atdf device files', () => {
  const { facts, warnings } = parseAtdf(readFileSync(atmega328p, 'utf8'), atmega328p);

  it('read the ATmega328P memories from its address spaces', () => {
    expect(warnings).toEqual([]);
    const size = (kind: string) => facts?.memories.find((m) => m.kind === kind)?.bytes;
    expect(size('flash')).toBe(32768);
    expect(size('ram')).toBe(2048);
    expect(size('eeprom')).toBe(1024);
  });

  it('map peripheral signals to pads and pads to TQFP32 pin numbers', () => {
    const pad = (name: string) => facts?.pads.find((p) => p.pad === name);
    expect(pad('PD1')).toMatchObject({ functions: expect.arrayContaining(['USART0.TXD', 'PCINT17']), positions: { TQFP32: 31, PDIP28: 3 } });
    expect(pad('PB5')?.functions).toContain('SPI.SCK');
    expect(pad('PC4')?.functions).toEqual(expect.arrayContaining(['TWI.SDA', 'ADC4']));
    expect(facts?.packages).toEqual(['TQFP32', 'QFN32', 'QFN28', 'PDIP28']);
    expect(facts?.pinNumbersKnown).toBe(true);
  });

  it('give the ATmega328P pins recorded in the golden file when its pack is installed', async () => {
    const provider = createMplabxProvider({ packRoots: [atmegaPackRoot()] });
    const detected = (await provider.detect(join(ownFixtures, 'avr-blink.X')))!;
    const context = await provider.load(detected, { configuration: 'default' });
    const pins = portable(context.pins, { [sharedFixtures]: '<shared-fixtures>/mplabx', [ownFixtures]: '<fixtures>/mplabx' }) as Array<{ source: { file: string } }>;
    // The pack is copied to a temporary folder; keep only the file name of its sources.
    for (const pin of pins) pin.source.file = pin.source.file.replace(/^.*\/atdf\//, '<pack>/atdf/');
    const file = join(goldenDir, 'atmega328p.pins.json');
    expectGolden(file, pins);
    expect(context.pins.find((p) => p.names.includes('LED'))).toMatchObject({ number: 17, names: ['PB5', 'LED'] });
    expect(context.pins.find((p) => p.names[0] === 'PD2')).toMatchObject({ interrupt: 0, capabilities: expect.arrayContaining(['interrupt']) });
    expect(context.buses).toContainEqual(expect.objectContaining({ kind: 'uart', name: 'USART0', pins: { TXD: 'PD1', RXD: 'PD0', XCK: 'PD4' } }));
    expect(context.board.flashBytes).toBe(32768);
    expect(context.readOnlyRoots[0]).toMatch(/ATmega_DFP\/3\.0\.158$/);
  });

  it('list PORTMUX alternatives: signals whose function is not "default"', () => {
    const file = join(ownFixtures, 'atdf', 'portmux-sample.atdf');
    const sample = parseAtdf(readFileSync(file, 'utf8'), file).facts;
    expect(sample?.alternates.map((a) => `${a.signal}→${a.pad} (${a.route})`)).toEqual(['USART0.TXD→PA1 (alternate)', 'USART0.RXD→PA2 (alternate)']);
    expect(sample?.pads.find((p) => p.pad === 'PA1')).toMatchObject({ functions: ['USART0.TXD (alternate)'], positions: { SOIC14: 12 } });
    expect(sample?.peripherals).toEqual([expect.objectContaining({ instance: 'USART0', signals: { TXD: 'PB2', RXD: 'PB3' } })]);
  });

  it('read the 100-pin ATmega2560 with both of its packages', () => {
    const file = join(sharedFixtures, 'atdf', 'atmega2560.atdf');
    const mega = parseAtdf(readFileSync(file, 'utf8'), file).facts;
    expect(mega?.device).toBe('ATmega2560');
    expect(mega?.memories.find((m) => m.kind === 'flash')?.bytes).toBe(262144);
    expect(mega?.packages).toEqual(['TQFP100', 'CBGA100']);
  });
});

describe('.PIC device files', () => {
  const file = join(ownPacks, 'Microchip', 'PIC18F-Q_DFP', '1.26.442', 'edc', 'PIC18F47Q10.PIC');
  const { facts } = parseEdc(readFileSync(file, 'utf8'), file);

  it('read program memory, EEPROM and RAM, leaving shadowed banks out', () => {
    expect(facts?.memories.map((m) => [m.kind, m.bytes])).toEqual([
      ['flash', 131072],
      ['eeprom', 1024],
      ['ram', 3615],
    ]);
  });

  it('read configuration words with their fields and settings', () => {
    expect(facts?.configWords[0]).toMatchObject({ name: 'CONFIG1L', address: '0x300000' });
    expect(facts?.configWords[0].fields[0]).toMatchObject({ name: 'FEXTOSC', settings: ['ECH (EC (external clock) above 8 MHz)', 'OFF (Oscillator not enabled)'] });
  });

  it('name pins by port with their functions and never claim package pin numbers', () => {
    expect(facts?.pads.find((p) => p.pad === 'RC6')).toMatchObject({ functions: ['ANC6', 'TX1', 'CK1', 'CCP1'], positions: {} });
    expect(facts?.pads.find((p) => p.pad === 'RE3')?.functions).toEqual(['MCLR', 'VPP']);
    expect(facts?.pinNumbersKnown).toBe(false);
  });

  it('give the PIC18 project its pins, memory sizes and MCC names when the pack is installed', async () => {
    const provider = createMplabxProvider({ packRoots: [ownPacks] });
    const detected = (await provider.detect(join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X')))!;
    const context = await provider.load(detected, {});
    expect(context.pins.find((p) => p.names[0] === 'RC6')).toMatchObject({ number: 'RC6', functions: ['ANC6', 'TX1', 'CK1', 'CCP1'], assigned: ['TX1'] });
    expect(context.pins.find((p) => p.names[0] === 'RA4')).toMatchObject({ names: ['RA4', 'LED_D2'], assigned: ['GPIO output'] });
    expect(context.board).toMatchObject({ flashBytes: 131072, ramBytes: 3615 });
    expect(context.warnings.map((w) => w.code)).not.toContain('mplabx-pack-missing');
    const text = provider.render(context);
    expect(text).toContain('- RC6: set as TX1; ANC6, TX1, CK1, CCP1 (');
    expect(text).toContain('PIC18F47Q10.PIC:42)');
    expect(text).toContain('order is not the package pin order');
  });

  it('fall back to another installed version of the pack, saying which', async () => {
    const root = tempDir('mplabx-older-pack-');
    const older = join(root, 'Microchip', 'PIC18F-Q_DFP', '1.20.100', 'edc');
    mkdirSync(older, { recursive: true });
    cpSync(file, join(older, 'PIC18F47Q10.PIC'));
    const provider = createMplabxProvider({ packRoots: [root] });
    const detected = (await provider.detect(join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X')))!;
    const context = await provider.load(detected, {});
    expect(context.board.ramBytes).toBe(3615);
    expect(context.libraries[0].path).toBe(join(root, 'Microchip', 'PIC18F-Q_DFP', '1.20.100'));
    expect(context.warnings).toContainEqual(
      expect.objectContaining({ code: 'mplabx-pack-version', line: 183, message: expect.stringContaining('wants PIC18F-Q_DFP 1.26.442, found only 1.20.100; using 1.20.100') }),
    );
  });
});
