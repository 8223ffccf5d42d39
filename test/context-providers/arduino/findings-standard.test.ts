// One standard for every finding (issue 22): an ERROR from what the board's files establish, a
// WARNING only for a real risk on that board, and the reader's own doubts as INFO in the JSON.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { renderArduinoContext } from '../../../context-providers/arduino/render.js';
import { DATA_DIR_32BIT } from './paths.js';
import { findings, shown, sketch, sketchContext } from './sketch-findings.js';

const ESP32 = 'cm:esp32:ringo';

describe('pin names come from the variant', () => {
  // The Ringo's pins_arduino.h (variant d32) has A0, A3–A7, A10–A19: A1 and A2 do not compile there.
  test('A1 that the ESP32 variant does not define is an ERROR at its line; A0 and A3 are fine', async () => {
    const text = 'void setup() {\n  Serial.begin(115200);\n  Serial.println(analogRead(A0));\n  Serial.println(analogRead(A1));\n  Serial.println(analogRead(A3));\n}\nvoid loop() {\n  analogRead(A1);\n}\n';
    const found = await findings('UndefinedA1', ESP32, sketch('UndefinedA1', text));
    expect(shown(found)).toEqual(['4 error pin-name-undefined']);
    expect(found[0].message).toContain('defines A0, A3, A4, A5, A6, A7, A10');
  });

  test("on the Uno A8 is no pin name (pins_arduino.h has A0–A7); on the Mega it is; a sketch's own A8 is its own", async () => {
    const text = 'void setup() {\n  analogRead(A8);\n}\nvoid loop() {}\n';
    expect(shown(await findings('UnoA8', 'arduino:avr:uno', sketch('UnoA8', text)))).toEqual(['2 error pin-name-undefined']);
    expect(shown(await findings('MegaA8', 'arduino:avr:mega', sketch('MegaA8', text)))).toEqual([]);
    expect(shown(await findings('OwnA8', 'arduino:avr:uno', sketch('OwnA8', `const int A8 = A0;\n${text}`)))).toEqual([]);
  });

  // GPIO5 is a strapping pin of the ESP32; on the Ringo it is LED_BUILTIN, wired by the board.
  test("LED_BUILTIN on GPIO5 is the board's own LED: no strapping-pin WARNING; GPIO0 still has one", async () => {
    const text = 'void setup() {\n  pinMode(LED_BUILTIN, OUTPUT);\n  pinMode(0, OUTPUT);\n}\nvoid loop() {}\n';
    expect(shown(await findings('BoardLed', ESP32, sketch('BoardLed', text)))).toEqual(['3 warning esp32-strapping-pin']);
  });
});

// Every board of the CircuitMess 1.0.x-based platform (boards.txt), with the A<n> names its own
// variant folder defines (read from the installed pins_arduino.h and the headers beside it).
const CM = join(DATA_DIR_32BIT, 'packages/cm/hardware/esp32/1.7.5');
const CM_BOARDS = readFileSync(join(CM, 'boards.txt'), 'utf8').split('\n').flatMap((line) => {
  const match = /^(\w+)\.build\.variant=(\S+)$/.exec(line);
  if (!match) return [];
  const folder = join(CM, 'variants', match[2]);
  const names = readdirSync(folder).flatMap((file) => [...readFileSync(join(folder, file), 'utf8').matchAll(/\bconst\s+uint8_t\s+(A\d+)\s*=/g)].map((found) => found[1]));
  return [{ board: `cm:esp32:${match[1]}`, a1: names.includes('A1'), a2: names.includes('A2') }];
});

describe('the misses of issue 22 on every ESP32 1.0.x board', () => {
  test('the platform has its 13 boards', () => expect(CM_BOARDS.length).toBe(13));

  test.each(CM_BOARDS)('$board: analogWrite, tone and noTone are ERRORs; A1/A2 are ERRORs where its variant lacks them', async ({ board, a1, a2 }) => {
    const text = 'void setup() {\n  analogWrite(4, 10);\n  tone(4, 440);\n  noTone(4);\n  Serial.println(analogRead(A1));\n  Serial.println(analogRead(A2));\n}\nvoid loop() {}\n';
    const found = shown(await findings(`Misses_${board.split(':')[2]}`, board, sketch(`Misses_${board.split(':')[2]}`, text)));
    expect(found.filter((line) => !line.includes('pin-name-undefined'))).toEqual(['2 error esp32-missing-api', '3 error esp32-missing-api', '4 error esp32-missing-api']);
    expect(found.filter((line) => line.includes('pin-name-undefined'))).toEqual([...(a1 ? [] : ['5 error pin-name-undefined']), ...(a2 ? [] : ['6 error pin-name-undefined'])]);
  });
});

describe('the ESP32 1.0.x core lacks analogWrite, tone and noTone', () => {
  test('with an installed library that declares none of them, each call is an ERROR, not a WARNING', async () => {
    const text = '#include <Servo.h>\nServo servo;\nvoid setup() {\n  analogWrite(4, 10);\n  tone(4, 440);\n  noTone(4);\n}\nvoid loop() {}\n';
    const found = await findings('MissingWithLibrary', ESP32, sketch('MissingWithLibrary', text));
    expect(shown(found).filter((line) => line.includes('esp32-missing-api'))).toEqual(['4 error esp32-missing-api', '5 error esp32-missing-api', '6 error esp32-missing-api']);
  });
});

describe('false WARNINGs of the corpus, fixed at their cause', () => {
  // The UNO R4's variant names pin 10 CS (PIN_SPI_CS), not SS: a chip select the sketch drives is SPI's use, not a conflict.
  test("driving the R4's CS pin 10 as chip select is no bus conflict; driving its SCK 13 is", async () => {
    const text = '#include <SPI.h>\nconst int cs = 10;\nvoid setup() {\n  SPI.begin();\n  pinMode(cs, OUTPUT);\n  digitalWrite(cs, LOW);\n  digitalWrite(13, LOW);\n}\nvoid loop() {}\n';
    expect(shown(await findings('R4ChipSelect', 'arduino:renesas_uno:minima', sketch('R4ChipSelect', text)))).toEqual(['7 warning bus-pin-conflict']);
  });

  // mbed's NICLA variant names its I2C pins as PinNames (PIN_WIRE_SDA (p22)), which the pin table cannot place: it has Wire.
  test('Wire on the Nicla Sense ME is no "variant defines no I2C pins" WARNING', async () => {
    expect(shown(await findings('NiclaWire', 'arduino:mbed:nicla_sense', sketch('NiclaWire', '#include <Wire.h>\nvoid setup() {\n  Wire.begin();\n}\nvoid loop() {}\n')))).toEqual([]);
  });

  // arduino-pico's bundled WiFi says depends=…,LWIPEthernet; its bundled lwIP_Ethernet is named lwIP-Ethernet. depends=
  // is Library Manager's install list: a platform library compiles with the platform's own libraries.
  test("a platform-bundled library's depends= is no WARNING", async () => {
    const found = await findings('BundledDepends', 'rp2040:rp2040:rpipico', sketch('BundledDepends', '#include <WiFi.h>\nvoid setup() {}\nvoid loop() {}\n'));
    expect(shown(found)).toEqual([]);
  });
});

describe("SPI's clock written at its idle level is no bus conflict (ArduinoISP's start_pmode)", () => {
  // ArduinoISP on AVR uses the hardware SPI (its SPI_CLOCK is above F_CPU/128) and writes SCK LOW
  // after SPI.beginTransaction(SPISettings(…, SPI_MODE0)): mode 0's clock rests LOW, so no edge.
  const isp = (mode: string, level: string): string => `#include <SPI.h>\nvoid setup() {\n  SPI.begin();\n  SPI.beginTransaction(SPISettings(166666, MSBFIRST, ${mode}));\n  digitalWrite(SCK, ${level});\n}\nvoid loop() {}\n`;
  test.each(['arduino:avr:uno', 'arduino:avr:mega:cpu=atmega2560', 'arduino:avr:leonardo'])('on %s: LOW in SPI_MODE0 is none; HIGH in SPI_MODE0 and LOW in SPI_MODE3 are WARNINGs', async (board) => {
    const name = board.split(':')[2];
    expect(shown(await findings(`IdleLow_${name}`, board, sketch(`IdleLow_${name}`, isp('SPI_MODE0', 'LOW'))))).toEqual([]);
    expect(shown(await findings(`EdgeHigh_${name}`, board, sketch(`EdgeHigh_${name}`, isp('SPI_MODE0', 'HIGH'))))).toEqual(['5 warning bus-pin-conflict']);
    expect(shown(await findings(`EdgeMode3_${name}`, board, sketch(`EdgeMode3_${name}`, isp('SPI_MODE3', 'LOW'))))).toEqual(['5 warning bus-pin-conflict']);
  });

  test('a sketch that names no SPI mode gets the WARNING: its clock level is not known', async () => {
    const text = '#include <SPI.h>\nvoid setup() {\n  SPI.begin();\n  digitalWrite(SCK, LOW);\n}\nvoid loop() {}\n';
    expect(shown(await findings('NoMode', 'arduino:avr:uno', sketch('NoMode', text)))).toEqual(['4 warning bus-pin-conflict']);
  });

  test("ArduinoISP itself has no WARNING on the Uno, the Mega and the Leonardo", async () => {
    const text = readFileSync('/usr/share/arduino/examples/11.ArduinoISP/ArduinoISP/ArduinoISP.ino', 'utf8');
    for (const board of ['arduino:avr:uno', 'arduino:avr:mega:cpu=atmega2560', 'arduino:avr:leonardo']) {
      expect(shown(await findings('ArduinoISP', board, sketch('ArduinoISP', text)))).toEqual([]);
    }
  });
});

// SoftwareSerial.cpp's begin() sets up reception only `if (digitalPinToPCICR((int8_t)_receivePin))`;
// the pins with one are the variant's digitalPinToPCICR: every pin 0-21 on the Uno, 10-13, 50-53
// and 62-69 on the Mega (as the library's own SoftwareSerialExample says).
describe('SoftwareSerial receives only on a pin with a pin-change interrupt', () => {
  const twoPorts = (rx1: number, rx2: string): string => `#include <SoftwareSerial.h>\nconst int rxPin = ${rx2};\nSoftwareSerial first(${rx1}, 11);\nSoftwareSerial second(rxPin, 9);\nvoid setup() {\n  first.begin(9600);\n  second.begin(9600);\n}\nvoid loop() {}\n`;
  test('on the Mega, RX on 8 is a WARNING at the object, naming the pins that receive; RX on 10 and A8 (62) are none', async () => {
    const found = await findings('SoftSerialMega', 'arduino:avr:mega:cpu=atmega2560', sketch('SoftSerialMega', twoPorts(10, '8')));
    expect(shown(found)).toEqual(['4 warning softserial-rx-pin']);
    expect(found[0].message).toMatch(/RX pin 8 has no pin-change interrupt .*pins_arduino\.h:\d+.*SoftwareSerial\.cpp:\d+/);
    expect(found[0].suggestion).toBe('Use an RX pin with a pin-change interrupt: 10, 11, 12, 13, 50, 51, 52, 53, 62, 63, 64, 65, 66, 67, 68, 69.');
    expect(shown(await findings('SoftSerialMegaOk', 'arduino:avr:mega:cpu=atmega2560', sketch('SoftSerialMegaOk', twoPorts(10, 'A8'))))).toEqual([]);
  });

  test('on the Mega, RX on 2 (no PCINT) is a WARNING, TX on 2 is none', async () => {
    expect(shown(await findings('SoftSerialMegaRx2', 'arduino:avr:mega:cpu=atmega2560', sketch('SoftSerialMegaRx2', twoPorts(2, '10'))))).toEqual(['3 warning softserial-rx-pin']);
    const tx = '#include <SoftwareSerial.h>\nSoftwareSerial port(10, 2);\nvoid setup() {\n  port.begin(9600);\n}\nvoid loop() {}\n';
    expect(shown(await findings('SoftSerialMegaTx2', 'arduino:avr:mega:cpu=atmega2560', sketch('SoftSerialMegaTx2', tx)))).toEqual([]);
  });

  test('on the Uno every pin has one: RX on 8, 2 or A0 is no WARNING', async () => {
    expect(shown(await findings('SoftSerialUno', 'arduino:avr:uno', sketch('SoftSerialUno', twoPorts(8, '2'))))).toEqual([]);
    expect(shown(await findings('SoftSerialUnoA0', 'arduino:avr:uno', sketch('SoftSerialUnoA0', twoPorts(2, 'A0'))))).toEqual([]);
  });
});

describe("the reader's doubts are INFO, in the JSON only", () => {
  test('an #if condition the reader does not understand is INFO and not in the rendered context', async () => {
    const context = await sketchContext('NotUnderstood', 'arduino:avr:uno', sketch('NotUnderstood', '#if 1 +\n#endif\nvoid setup() {}\nvoid loop() {}\n'));
    const doubt = context.findings.find((finding) => finding.code === 'preprocessor-bad-condition');
    expect(doubt?.severity).toBe('info');
    expect(renderArduinoContext(context)).not.toContain('condition not understood');
  });
});

describe('a missing library is an ERROR wherever it is missing', () => {
  // The fixture SAMD platform has no toolchain folder; Debian's newlib and arm-none-eabi headers
  // say malloc.h and stdio.h are the C library's, so NoSuchLibrary.h can only be a library's.
  test('on a 32-bit board without its compiler folder, with the install command; the C library headers are no finding', async () => {
    const found = await findings('NoLibrary32', 'arduino:samd:mkrwifi1010', sketch('NoLibrary32', '#include <NoSuchLibrary.h>\n#include <stdio.h>\n#include <malloc.h>\nvoid setup() {}\nvoid loop() {}\n'));
    expect(shown(found, ['error', 'warning', 'info'])).toEqual(['1 error include-unresolved']);
    expect(found[0].suggestion).toContain('arduino-cli lib install "<name>"');
  });
});
