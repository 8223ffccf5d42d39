// The core-specific checks of issue 11's scope item 4, each on a sketch folder written to disk and
// loaded through the Arduino provider as `boardbridge context` loads it (the core-table tests call
// the checks with a hand-built view; this shows the same findings come through the whole path:
// the sketch's tokens, its loop ranges and macros, the board's pin map and the core's check).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createArduinoProvider } from '../../../context-providers/arduino/index.js';
import type { Finding } from '../../../context-providers/types.js';
import { DATA_DIR_32BIT, TMP } from './paths.js';

const SKETCHES = join(TMP, 'core-checks-sketches');

describe('core checks on real sketch files, through the provider', () => {
  const provider = createArduinoProvider({ dataDirs: [DATA_DIR_32BIT], sketchbookDirs: [], includeDebian: false, home: TMP });
  beforeAll(() => rmSync(SKETCHES, { recursive: true, force: true }));

  async function findings(name: string, fqbn: string, body: string): Promise<Finding[]> {
    const dir = join(SKETCHES, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.ino`), body);
    const project = await provider.detect(dir);
    const context = await provider.load(project!, { board: fqbn });
    return context.findings;
  }
  const brief = (list: Finding[]) => list.filter((finding) => finding.severity !== 'info').map((finding) => `${finding.line} ${finding.severity} ${finding.code}`);

  test('RP2040: analogRead on a non-ADC GPIO, also over a loop, is an ERROR; two frequencies on one PWM slice a WARNING', async () => {
    const pico = 'rp2040:rp2040:rpipico';
    const analog = await findings('pico_analog', pico, 'void setup() {}\nvoid loop() {\n  analogRead(0);\n  analogRead(A0);\n  for (int p = 26; p <= 29; p++) analogRead(p);\n  for (int p = 0; p < 3; p++) analogRead(p);\n}\n');
    expect(brief(analog)).toEqual(['3 error analog-pin', '6 error analog-pin']);
    const slice = await findings('pico_slice', pico, 'void setup() {\n  analogWriteFreq(1000);\n  analogWrite(2, 10);\n  analogWriteFreq(20000);\n  analogWrite(3, 20);\n  analogWrite(4, 30);\n}\nvoid loop() {}\n');
    expect(brief(slice)).toEqual(['5 warning rp2-pwm-slice-frequency']);
    expect(slice.find((finding) => finding.code === 'rp2-pwm-slice-frequency')!.message).toContain('GPIO2 and GPIO3 share PWM slice 1');
  });

  test('STM32: tone() on the timer of a PWM pin in use, and two analogWriteFrequency values on one timer, are WARNINGs', async () => {
    const tone = await findings('pill_tone', 'STMicroelectronics:stm32:GenF1:pnum=BLUEPILL_F103C8', 'void setup() {\n  analogWrite(26, 100);\n  tone(5, 440);\n}\nvoid loop() {}\n');
    expect(brief(tone)).toEqual(['2 warning stm32-timer-taken']);
    const frequency = await findings('nucleo_frequency', 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE', 'void setup() {\n  analogWriteFrequency(1000);\n  analogWrite(3, 1);\n  analogWriteFrequency(5000);\n  analogWrite(13, 1);\n  analogWrite(5, 1);\n}\nvoid loop() {}\n');
    expect(brief(frequency)).toEqual(['5 warning stm32-timer-frequency']);
    expect(frequency.find((finding) => finding.code === 'stm32-timer-frequency')!.message).toContain('D3 (PB3), D13 (PA5) share TIM2');
    // As sketches write it: digitalPinToInterrupt is the core's (pins_arduino.h), not the variant's.
    const exti = await findings('nucleo_exti', 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE', 'void a() {}\nvoid b() {}\nvoid setup() {\n  attachInterrupt(digitalPinToInterrupt(46), a, RISING);\n  attachInterrupt(digitalPinToInterrupt(49), b, RISING);\n  attachInterrupt(digitalPinToInterrupt(2), b, RISING);\n}\nvoid loop() {}\n');
    expect(brief(exti)).toEqual(['5 warning stm32-exti-shared']);
    expect(exti.find((finding) => finding.code === 'stm32-exti-shared')!.message).toContain('D46 (PA0) and D49 (PB0) share EXTI0');
  });

  test('SAMD: tone() on the TC5 of PWM pins in use is a WARNING; a literal loop over pins 2–13 is one ERROR naming the pins without PWM', async () => {
    const tone = await findings('iot_tone', 'arduino:samd:nano_33_iot', 'void setup() {\n  analogWrite(2, 10);\n  tone(8, 440);\n  analogWrite(9, 20);\n}\nvoid loop() {}\n');
    expect(brief(tone)).toContain('3 warning tone-timer-shared');
    // Zero pins 10 and 19 are both EXTINT2 in g_APinDescription; digitalPinToInterrupt is Arduino.h's ( P ).
    const shared = await findings('zero_extint', 'arduino:samd:arduino_zero_edbg', 'void a() {}\nvoid b() {}\nvoid setup() {\n  attachInterrupt(digitalPinToInterrupt(10), a, RISING);\n  attachInterrupt(digitalPinToInterrupt(19), b, FALLING);\n}\nvoid loop() {}\n');
    expect(brief(shared)).toEqual(['5 warning interrupt-shared-line']);
    const loop = await findings('mkr_loop', 'arduino:samd:mkrwifi1010', 'void setup() {\n  for (int p = 2; p <= 13; p++) analogWrite(p, 100);\n}\nvoid loop() {}\n');
    expect(brief(loop)).toEqual(['2 error pwm-pin']);
    // MKR WiFi 1010 PWM pins: 0-8, 10, 18, 19, 32 (g_APinDescription): of 2..13, 9, 11, 12 and 13 have none.
    expect(loop[0].message).toMatch(/^analogWrite\(D9\): pin 9 has no PWM .* \(pins 9, 11, 12, 13 of the loop's 12 values\)$/);
  });

  test('Renesas: a literal loop over the UNO R4 PWM pins is fine, one past the table an ERROR; two pins on one IRQ, and tone() before PWM on GPT0, WARNINGs', async () => {
    const minima = 'arduino:renesas_uno:minima';
    expect(brief(await findings('r4_loop', minima, 'void setup() {\n  for (int p = 2; p <= 13; p++) analogWrite(p, 100);\n}\nvoid loop() {}\n'))).toEqual([]);
    expect(brief(await findings('r4_range', minima, 'void setup() {\n  for (int p = 20; p <= 28; p++) pinMode(p, OUTPUT);\n}\nvoid loop() {}\n'))).toEqual(['2 error pin-range']);
    // D0 (P301) and A1 (P000) are both IRQ6 in pinmux.inc.
    const irq = await findings('r4_irq', minima, 'void a() {}\nvoid b() {}\nvoid setup() {\n  attachInterrupt(digitalPinToInterrupt(0), a, RISING);\n  attachInterrupt(digitalPinToInterrupt(A1), b, RISING);\n}\nvoid loop() {}\n');
    expect(brief(irq)).toEqual(['5 warning interrupt-shared-line']);
    // Tone.cpp's first tone() takes the lowest free GPT channel: GPT0 (D6, D7, D25, D26) unless PWM started there first.
    const tone = await findings('r4_tone', minima, 'void setup() {\n  tone(2, 440);\n  analogWrite(3, 10);\n  analogWrite(6, 100);\n}\nvoid loop() {}\n');
    expect(brief(tone)).toEqual(['4 warning tone-timer-shared']);
    expect(tone.find((finding) => finding.code === 'tone-timer-shared')!.message).toMatch(/^analogWrite\(6, …\) after tone\(\) \(line 2\): .*GPT channel \(FspTimer.h:\d+\), GPT0 unless an analogWrite on pins 6, 7, 25, 26 ran before it/);
    expect(brief(await findings('r4_tone_after', minima, 'void setup() {\n  analogWrite(6, 100);\n  tone(2, 440);\n}\nvoid loop() {}\n'))).toEqual([]);
  });

  test('mbed nRF52840: a fifth analogWrite pin at once, after a loop over four, is a WARNING', async () => {
    const five = await findings('ble_five', 'arduino:mbed:nano33ble', 'void setup() {\n  for (int p = 2; p <= 5; p++) analogWrite(p, 10);\n  analogWrite(6, 10);\n}\nvoid loop() {}\n');
    expect(brief(five)).toEqual(['3 warning pwm-peripherals-exhausted']);
  });

  test('mbed: a pin past the table does nothing (wiring_digital.cpp checks PINS_COUNT), so NOT_A_PIN is a WARNING; analogRead(n) names the missing A<n>', async () => {
    // Scheduler's MultipleBlinks on the Edge Control: `#define led3 NOT_A_PIN`, as it has no third LED.
    const edge = await findings('edge_not_a_pin', 'arduino:mbed:edge_control', '#define led3 NOT_A_PIN\nvoid setup() {\n  pinMode(led3, OUTPUT);\n  digitalWrite(led3, HIGH);\n}\nvoid loop() {}\n');
    expect(brief(edge)).toEqual(['3 warning pin-range', '4 warning pin-range']);
    expect(edge[0].message).toMatch(/^pinMode\(255, …\): Arduino Edge Control has pins 0 to 39; on this core .* return without doing anything .* \(pins_arduino.h:45\), so this call has no effect$/);
    const pico = await findings('mbed_pico_channels', 'arduino:mbed:pico', 'void setup() {\n  for (int c = 0; c < 6; c++) analogRead(c);\n}\nvoid loop() {}\n');
    expect(brief(pico)).toEqual(['2 error analog-pin']);
    expect(pico[0].message).toMatch(/^analogRead\(4\): Raspberry Pi Pico has no A4 \(analogRead\(n\) below A0 reads A<n> on this core; the board has 4 analog inputs, A0–A3\), and pin 4 is no analog input \(pins 4, 5 of the loop's 6 values\)$/);
    // A core without the bounds check keeps the ERROR: SAMD's digitalWrite indexes g_APinDescription[pin].
    expect(brief(await findings('mkr_past_table', 'arduino:samd:mkrwifi1010', 'void setup() {\n  digitalWrite(255, HIGH);\n}\nvoid loop() {}\n'))).toEqual(['2 error pin-range']);
  });
});
