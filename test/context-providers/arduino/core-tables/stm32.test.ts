// stm32duino's pin facts read from the real 3.0.0-dev platform in the fixtures (five variant
// folders installed, 288 missing): each PWM, analog and interrupt fact is checked against the
// PeripheralPins.c / pins_arduino.h line it cites.
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CoreFacts } from '../../../../context-providers/arduino/core-tables/index.js';
import { readStm32Tables } from '../../../../context-providers/arduino/core-tables/stm32.js';
import { buildPinMap } from '../../../../context-providers/arduino/pin-map.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../../platform/arduino/platforms.js';
import { resolveFqbn, type ResolvedBoard } from '../../../../platform/arduino/resolve.js';
import { checkSketch } from '../../../../context-providers/arduino/sketch-check.js';
import { readVariantHeader } from '../../../../context-providers/arduino/variant-header.js';
import type { SourceRef } from '../../../../context-providers/types.js';
import { FIXTURES, TMP } from '../paths.js';
import { sketchView } from './stm32-rp2040-sketch-view.js';

const DATA_DIR_32 = join(FIXTURES, 'data_dir_32bit');
const NUCLEO_F401RE = 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE';
const BLUEPILL = 'STMicroelectronics:stm32:GenF1:pnum=BLUEPILL_F103C8';

function lineAt(source: SourceRef | undefined): string {
  expect(source?.line).toBeGreaterThan(0);
  return readFileSync(source!.file, 'utf8').split('\n')[source!.line! - 1];
}

/** `PA3` → `PA_3`, as PeripheralPins.c spells the PinName. */
const pinName = (label: string): string => label.replace(/^P([A-Z])(\d+)$/, 'P$1_$2');

describe('stm32duino core tables', () => {
  let installed: InstalledPlatforms;
  const resolve = (fqbn: string): ResolvedBoard => resolveFqbn(fqbn, installed);
  const facts = (fqbn: string): CoreFacts => {
    const board = resolve(fqbn);
    const result = readStm32Tables(board, readVariantHeader(board));
    expect(result).toBeDefined();
    return result!;
  };

  beforeAll(async () => {
    installed = await discoverPlatforms({ dataDirs: [DATA_DIR_32], sketchbookDirs: [], includeDebian: false, home: TMP });
  });

  test('the Nucleo F401RE maps digitalPin[] to port pins, and each PWM fact is its PinMap_TIM row', () => {
    const nucleo = facts(NUCLEO_F401RE);
    expect(nucleo.pins).toHaveLength(52);
    expect(nucleo.pins.slice(0, 4).map((pin) => pin.names?.[0])).toEqual(['PA3', 'PA2', 'PA10', 'PB3']);
    const pwm = nucleo.pins.filter((pin) => pin.pwm);
    expect(pwm.length).toBeGreaterThan(20);
    for (const pin of pwm) {
      const channel = /^CH(\d)(N?)$/.exec(pin.pwm!.channel!)!;
      expect(lineAt(pin.pwm!.source)).toMatch(new RegExp(`\\{${pinName(pin.names![0])},\\s*${pin.pwm!.timer},.*, ${channel[1]}, ${channel[2] ? 1 : 0}\\)\\}`));
    }
    expect(nucleo.pins[13].pwm).toMatchObject({ timer: 'TIM2', channel: 'CH1' });
    expect(nucleo.pins[11].pwm).toMatchObject({ timer: 'TIM1', channel: 'CH1N' });
    expect(nucleo.sharedTimers?.find((group) => group.timer === 'TIM2')?.pins).toEqual([0, 1, 3, 6, 13, 21, 46, 47]);
  });

  test('the Nucleo F401RE analog inputs are analogInputPin[] pins with a PinMap_ADC row, cited at that row', () => {
    const nucleo = facts(NUCLEO_F401RE);
    const analog = nucleo.pins.filter((pin) => pin.analog).sort((a, b) => a.analog!.input! - b.analog!.input!);
    expect(analog.map((pin) => pin.number)).toEqual([46, 47, 48, 49, 50, 51, 11, 12, 28, 29, 35, 41, 45, 0, 1, 13]);
    for (const pin of analog) {
      const channel = /^ADC1 IN(\d+)$/.exec(pin.analog!.channel)![1];
      expect(lineAt(pin.analog!.source)).toMatch(new RegExp(`\\{${pinName(pin.names![0])},\\s*ADC1,.*, ${channel}, 0\\)\\}`));
    }
    expect(nucleo.pins.some((pin) => pin.dac)).toBe(false);
    expect(nucleo.analogReadAcceptsChannelNumbers).toBe(true);
  });

  test('every Nucleo F401RE pin but NC is its own interrupt on EXTI<bit>, from pins_arduino.h', () => {
    const nucleo = facts(NUCLEO_F401RE);
    for (const pin of nucleo.pins) {
      if (pin.names?.length === 0) {
        expect(pin.interrupt).toBeUndefined();
        expect(lineAt(pin.traps![0].source)).toMatch(/^\s*NC,/);
        continue;
      }
      expect(pin.interrupt).toMatchObject({ number: pin.number, line: `EXTI${/\d+$/.exec(pin.names![0])![0]}` });
      expect(lineAt(pin.interrupt!.source)).toContain('#define digitalPinToInterrupt(p)');
    }
  });

  test('the Nucleo F401RE Serial is Serial2 (SERIAL_UART_INSTANCE 2) on D1/D0, from WSerial.h and the CMSIS header', () => {
    const nucleo = facts(NUCLEO_F401RE);
    expect(nucleo.serialPorts?.map((port) => [port.name, port.kind, port.pins])).toEqual([
      ['Serial', 'uart', { TX: 1, RX: 0 }], ['Serial2', 'uart', { TX: 1, RX: 0 }],
    ]);
    expect(lineAt(nucleo.serialPorts![0].source)).toContain('#define Serial Serial2');
    expect(lineAt(nucleo.serialPorts![1].source)).toContain('#define HAVE_HWSERIAL2');
    expect(nucleo.files.some((file) => file.endsWith('stm32f401xe.h'))).toBe(true);
    expect(nucleo.buses?.map((bus) => [bus.name, bus.pins])).toEqual([
      ['Wire', { SDA: 14, SCL: 15 }], ['SPI', { MOSI: 11, MISO: 12, SCK: 13, SS: 10 }],
    ]);
    expect(nucleo.pins[1].functions?.map((entry) => entry.fn)).toEqual(expect.arrayContaining(['USART2 TX', 'Serial TX']));
  });

  test('the USB and serial menus change the ports: CDC makes Serial the USB one, HWSERIAL_NONE leaves no Serial', () => {
    const ports = (options: string): Array<[string, string]> => facts(`${NUCLEO_F401RE},${options}`).serialPorts!.map((port) => [port.name, port.kind]);
    expect(ports('usb=CDCgen')).toEqual([['Serial', 'usb'], ['Serial2', 'uart'], ['SerialUSB', 'usb']]);
    expect(ports('usb=CDC')).toEqual([['Serial', 'uart'], ['Serial2', 'uart'], ['SerialUSB', 'usb']]);
    expect(ports('xserial=none')).toEqual([]);
    const cdc = facts(`${NUCLEO_F401RE},usb=CDCgen`);
    expect(cdc.serialPorts![1].pins).toEqual({ TX: 1, RX: 0 });
    expect(lineAt(cdc.serialPorts![0].source)).toContain('#define Serial SerialUSB');
    // SerialUSB is cited at WSerial.h's active #include of USBSerial.h.
    expect(lineAt(cdc.serialPorts!.find((port) => port.name === 'SerialUSB')!.source)).toMatch(/^\s*#\s*include\s+"USBSerial\.h"/);
  });

  test('SerialUSB is cited at the #include the preprocessor reads, not at a commented-out copy of that line', async () => {
    // A copy of the platform whose WSerial.h starts with a comment holding the same text.
    const dataDir = join(TMP, 'stm32-commented-include');
    const platform = join(dataDir, 'packages/STMicroelectronics/hardware/stm32/3.0.0-dev');
    rmSync(dataDir, { recursive: true, force: true });
    cpSync(join(DATA_DIR_32, 'packages/STMicroelectronics'), join(dataDir, 'packages/STMicroelectronics'), { recursive: true });
    const wserial = join(platform, 'cores/arduino/WSerial.h');
    chmodSync(wserial, 0o644);
    writeFileSync(wserial, `// An older core had: #include "USBSerial.h"\n${readFileSync(wserial, 'utf8')}`);
    const copy = await discoverPlatforms({ dataDirs: [dataDir], sketchbookDirs: [], includeDebian: false, home: TMP });
    const board = resolveFqbn(`${NUCLEO_F401RE},usb=CDCgen`, copy);
    const serialUsb = readStm32Tables(board, readVariantHeader(board))!.serialPorts!.find((port) => port.name === 'SerialUSB')!;
    expect(serialUsb.source?.file).toBe(wserial);
    expect(lineAt(serialUsb.source)).toMatch(/^\s*#\s*include\s+"USBSerial\.h"/);
  });

  test('the Blue Pill Serial is Serial1 on PA9/PA10; without its CMSIS header USART1 is known from PinMap_UART', () => {
    const pill = facts(BLUEPILL);
    const serial = pill.serialPorts?.find((port) => port.name === 'Serial');
    expect(pill.serialPorts?.map((port) => port.name)).toEqual(['Serial', 'Serial1']);
    expect(pill.pins[serial!.pins!.TX!].names).toEqual(['PA9']);
    expect(pill.pins[serial!.pins!.RX!].names).toEqual(['PA10']);
    expect(pill.notes.find((note) => note.topic === 'PWM timers')?.text).toContain('tone() uses TIM3');
  });

  test('the BlackPill F411CE reads PeripheralPins_BLACKPILL_F411CE.c: -DCUSTOM_PERIPHERAL_PINS is in the C recipe only', () => {
    const blackpill = facts('STMicroelectronics:stm32:GenF4:pnum=BLACKPILL_F411CE');
    expect(blackpill.known.pwm.known && blackpill.known.pwm.source?.file).toMatch(/PeripheralPins_BLACKPILL_F411CE\.c$/);
    expect(blackpill.warnings.filter((warning) => warning.code === 'stm32-pinmap-twice')).toEqual([]);
    expect(blackpill.pins.filter((pin) => pin.pwm).length).toBeGreaterThan(15);
  });

  test('the Nucleo L476RG has DAC1 on PA4/PA5, and says analogWrite there drives the DAC', () => {
    const nucleo = facts('STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_L476RG');
    const dac = nucleo.pins.filter((pin) => pin.dac).map((pin) => [pin.names![0], pin.dac!.channel]);
    expect(dac).toEqual(expect.arrayContaining([['PA5', 'DAC1 OUT2'], ['PA4', 'DAC1 OUT1']]));
    for (const pin of nucleo.pins.filter((entry) => entry.dac)) expect(lineAt(pin.dac!.source)).toMatch(new RegExp(`\\{${pinName(pin.names![0])},\\s*DAC1,`));
    expect(nucleo.notes.find((note) => note.topic === 'DAC')?.text).toContain('D13 (PA5)');
    expect(nucleo.notes.length).toBeLessThanOrEqual(5);
  });

  test('the Nucleo G474RE Serial is SerialLP1 (LPUART1)', () => {
    const nucleo = facts('STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_G474RE');
    expect(nucleo.serialPorts?.map((port) => port.name)).toEqual(['Serial', 'SerialLP1']);
    expect(nucleo.pins.filter((pin) => pin.pwm).length).toBeGreaterThan(20);
  });

  test('analogRead with the digital number of an analog pin is an error true for this core; A<n>, 0-15 and non-analog pins are not its', () => {
    const nucleo = facts(NUCLEO_F401RE);
    const board = resolve(NUCLEO_F401RE);
    const findings = nucleo.check!(sketchView('void loop() {\n analogRead(46);\n analogRead(A0);\n analogRead(3);\n analogRead(20);\n}', board, new Map([['A0', 0xc0]])));
    expect(findings.map((finding) => [finding.code, finding.severity, finding.line])).toEqual([['stm32-analog-read-digital-number', 'error', 2]]);
    expect(findings[0].message).toContain('reads 0: D46 is A0');
    expect(findings[0].suggestion).toBe('Use analogRead(A0).');
  });

  test('through the sketch check, analogRead(46) and analogRead(20) are one error each and PA0/A0 none', () => {
    const board = resolve(NUCLEO_F401RE);
    const dir = join(TMP, 'stm32-analog');
    mkdirSync(dir, { recursive: true });
    const sketch = join(dir, 'stm32-analog.ino');
    writeFileSync(sketch, 'void setup() {}\nvoid loop() {\n  analogRead(46);\n  analogRead(20);\n  analogRead(A0);\n  analogRead(PA0);\n  analogRead(5);\n}\n');
    const findings = checkSketch([sketch], dir, board, buildPinMap(board), []).filter((finding) => finding.severity === 'error');
    expect(findings.map((finding) => [finding.code, finding.line])).toEqual([['stm32-analog-read-digital-number', 3], ['analog-pin', 4]]);
  });

  test('tone() with a PWM pin on TIMER_TONE, two frequencies on one timer, and two pins on one EXTI line warn', () => {
    const pill = facts(BLUEPILL);
    const pillBoard = resolve(BLUEPILL);
    const tone = pill.check!(sketchView('void setup() { analogWrite(26, 100); tone(5, 440); }', pillBoard));
    expect(tone.map((finding) => finding.code)).toEqual(['stm32-timer-taken']);
    expect(tone[0].message).toContain('TIM3');
    const nucleo = facts(NUCLEO_F401RE);
    const board = resolve(NUCLEO_F401RE);
    const frequency = nucleo.check!(sketchView('void setup() { analogWriteFrequency(1000); analogWrite(3, 1); analogWriteFrequency(5000); analogWrite(13, 1); analogWrite(5, 1); }', board));
    expect(frequency.map((finding) => finding.code)).toEqual(['stm32-timer-frequency']);
    expect(frequency[0].message).toContain('D3 (PB3), D13 (PA5) share TIM2');
    const exti = nucleo.check!(sketchView('void setup() { attachInterrupt(46, a, RISING); attachInterrupt(49, b, RISING); attachInterrupt(2, c, RISING); }', board));
    expect(exti.map((finding) => finding.code)).toEqual(['stm32-exti-shared']);
    expect(exti[0].message).toContain('D46 (PA0) and D49 (PB0) share EXTI0');
  });

  test('a variant folder that cannot be listed leaves the facts unknown with the reason instead of throwing', () => {
    const board = resolve(NUCLEO_F401RE);
    const notAFolder = join(TMP, 'stm32-variant-is-a-file');
    mkdirSync(TMP, { recursive: true });
    writeFileSync(notAFolder, '');
    const result = readStm32Tables({ ...board, variantPath: notAFolder }, readVariantHeader(board))!;
    expect(result.pins).toEqual([]);
    expect(result.known.pwm).toEqual({ known: false, reason: expect.stringContaining('cannot be listed (ENOTDIR)') });
  });

  test('every pnum of every STM32 board resolves; boards without their variant folder are unknown, never an error', () => {
    const platform = installed.platforms.get('STMicroelectronics:stm32')!;
    let withPins = 0;
    let missing = 0;
    let total = 0;
    for (const definition of platform.load().boards.values()) {
      const options = [...(definition.menus.get('pnum')?.keys() ?? [])];
      for (const option of options.length > 0 ? options : [undefined]) {
        const board = resolve(`STMicroelectronics:stm32:${definition.id}${option ? `:pnum=${option}` : ''}`);
        const result = readStm32Tables(board, readVariantHeader(board))!;
        total++;
        expect(result.warnings.filter((warning) => warning.severity === 'error')).toEqual([]);
        if (result.pins.length > 0) withPins++;
        else {
          expect(result.known.pwm.known).toBe(false);
          if (!result.known.pwm.known && result.known.pwm.reason.startsWith('unknown: variant folder not installed')) missing++;
        }
      }
    }
    console.log(`stm32duino: ${total} board part numbers, ${withPins} with a pin table, ${missing} unknown (variant folder not installed), ${total - withPins - missing} unknown for another reason`);
    expect(withPins + missing).toBe(total);
    expect(withPins).toBeGreaterThanOrEqual(5);
  }, 300_000);
});
