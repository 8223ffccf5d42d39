// Pins handed to library objects are checked as the core calls are (issue 22, scope 3): the
// object's class and overload come from the library's own header where it is installed (Servo
// 1.3.0 in the fixture sketchbook, Debian's SoftwareSerial, the ESP32 and RP2040 platforms'
// Wire/SPI, FastLED in the Ringo library), else from the declarations boards/data/library-pins.json
// quotes; each argument is resolved as the compiler would (#define, const, constexpr, enum, A0).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { libraryIndex } from '../../../context-providers/arduino/library-index.js';
import { DATA_DIR_32BIT } from './paths.js';
import { findings, shown, sketch } from './sketch-findings.js';

const ESP32 = 'cm:esp32:ringo';

describe('pins of installed libraries, from their own headers', () => {
  // Servo.h: `uint8_t attach(int pin);` — GPIO9 is a flash pin on ESP32 modules; GPIO34 input only.
  test('servo.attach(9) on an ESP32 is the flash-pin ERROR; attach(34, 1000, 2000) the input-only one', async () => {
    const text = '#include <Servo.h>\nServo servo;\nServo arm;\nvoid setup() {\n  servo.attach(9);\n  arm.attach(34, 1000, 2000);\n  servo.write(90);\n}\nvoid loop() {}\n';
    const found = await findings('ServoFlash', ESP32, sketch('ServoFlash', text));
    expect(shown(found).filter((line) => !line.includes('library-incompatible'))).toEqual(['5 error esp32-flash-pin', '6 error esp32-input-only']);
    const flash = found.find((finding) => finding.code === 'esp32-flash-pin')!;
    expect(flash.message).toMatch(/^servo\.attach\(9\): Servo takes int pin as a pin it sets up as an output \(uint8_t attach\(int pin\), Servo\.h:\d+\); GPIO9 is wired to the SPI flash/);
  });

  test('on the Uno servo.attach(20) is past the pin table; attach(9) and a pin from #define, const, constexpr or enum are resolved', async () => {
    const text = '#include <Servo.h>\n#define TILT 20\nconst int PAN = 21;\nconstexpr int ROLL = 9;\nenum Pins { YAW = 22, SPARE };\nServo a, b, c, d;\nServo e[2];\nvoid setup() {\n  a.attach(TILT);\n  b.attach(PAN);\n  c.attach(ROLL);\n  d.attach(YAW);\n  e[1].attach(SPARE);\n}\nvoid loop() {}\n';
    expect(shown(await findings('ServoUno', 'arduino:avr:uno', sketch('ServoUno', text)))).toEqual(['9 error pin-range', '10 error pin-range', '12 error pin-range', '13 error pin-range']);
  });

  // A6/A7 of the Nano are analog inputs only: pins_arduino.h gives pins 0–19 a port, so pinMode(A6 = 20) does nothing.
  test('servo.attach(A6) on the Nano is past its digital pins', async () => {
    const text = '#include <Servo.h>\nServo s;\nvoid setup() {\n  s.attach(A6);\n  s.attach(A5);\n}\nvoid loop() {}\n';
    expect(shown(await findings('ServoNano', 'arduino:avr:nano', sketch('ServoNano', text)))).toEqual(['4 error pin-range']);
  });

  // Debian's SoftwareSerial.h: `SoftwareSerial(uint8_t receivePin, uint8_t transmitPin, bool inverse_logic = false);`
  test('SoftwareSerial s(2, 30) on the Uno: the transmit pin is past the table; a temporary and new are read too', async () => {
    const text = '#include <SoftwareSerial.h>\nSoftwareSerial ok(2, 3);\nSoftwareSerial bad(2, 30);\nSoftwareSerial other = SoftwareSerial(40, 3);\nSoftwareSerial *dynamic = new SoftwareSerial(4, 41, true);\nvoid setup() {\n  ok.begin(9600);\n}\nvoid loop() {}\n';
    expect(shown(await findings('SoftSerialUno', 'arduino:avr:uno', sketch('SoftSerialUno', text)))).toEqual(['3 error pin-range', '4 error pin-range', '5 error pin-range']);
  });

  // The ESP32 platform's Wire.h `bool begin(int sda=-1, int scl=-1, uint32_t frequency=0);` and
  // SPI.h `void begin(int8_t sck=-1, int8_t miso=-1, int8_t mosi=-1, int8_t ss=-1);`.
  test('Wire.begin(sda, scl) and SPI.begin(sck, miso, mosi, ss) on an ESP32; -1 is "the default pin"', async () => {
    const text = '#include <Wire.h>\n#include <SPI.h>\nvoid setup() {\n  Wire.begin(21, 22);\n  Wire.begin(36, 22);\n  Wire.begin(-1, -1, 100000);\n  SPI.begin(18, 19, 23, 15);\n  SPI.begin(6, 7, 8, 11);\n}\nvoid loop() {}\n';
    const found = await findings('BusPinsEsp32', ESP32, sketch('BusPinsEsp32', text));
    // One finding per pin: sck, miso, mosi and ss are each a flash pin.
    expect(shown(found)).toEqual(['5 error esp32-input-only', '7 warning esp32-strapping-pin', '8 error esp32-flash-pin', '8 error esp32-flash-pin', '8 error esp32-flash-pin', '8 error esp32-flash-pin']);
    expect(found.find((finding) => finding.line === 8)!.message).toMatch(/^SPI\.begin\(6, 7, 8, 11\): SPIClass takes int8_t sck as a pin/);
  });

  // The Ringo's FastLED.h: `template<template<uint8_t DATA_PIN> class CHIPSET, uint8_t DATA_PIN> … addLeds(…)`.
  test('FastLED.addLeds<NEOPIXEL, PIN>(…) and <WS2812B, PIN, GRB> take the data pin from the template', async () => {
    const text = '#include <MAKERphone.h>\n#define DATA_PIN 6\n#define LED_TYPE WS2812B\nCRGB leds[8];\nvoid setup() {\n  FastLED.addLeds<NEOPIXEL, DATA_PIN>(leds, 8);\n  FastLED.addLeds<LED_TYPE, 7, GRB>(leds, 8);\n  FastLED.addLeds<NEOPIXEL, 4>(leds, 8);\n}\nvoid loop() {}\n';
    const found = await findings('FastLedEsp32', ESP32, sketch('FastLedEsp32', text));
    expect(shown(found).filter((line) => line.includes('flash'))).toEqual(['6 error esp32-flash-pin', '7 error esp32-flash-pin']);
  });

  // arduino-pico's Wire.h: `bool setSDA(pin_size_t sda);`: the Pico has GPIO 0–29.
  test('Wire.setSDA(40) on the Pico is past its pins', async () => {
    const text = '#include <Wire.h>\nvoid setup() {\n  Wire.setSDA(4);\n  Wire.setSCL(40);\n  Wire.begin();\n}\nvoid loop() {}\n';
    expect(shown(await findings('SetSdaPico', 'rp2040:rp2040:rpipico', sketch('SetSdaPico', text)))).toEqual(['4 error pin-range']);
  });

  test("an expander's digitalWrite(pin) or a library object the sketch declares itself is not a board pin", async () => {
    const text = '#include <SoftwareSerial.h>\nstruct Expander { void begin(int pin) {} void digitalWrite(int pin, int v) {} };\nExpander io;\nvoid setup() {\n  io.begin(40);\n  io.digitalWrite(40, 1);\n}\nvoid loop() {}\n';
    expect(shown(await findings('NotBoardPins', 'arduino:avr:uno', sketch('NotBoardPins', text)))).toEqual([]);
  });
});

describe('pins of libraries not installed here, from the cited declarations', () => {
  // OneWire 2.3.8 `OneWire(uint8_t pin)`, Adafruit NeoPixel 1.15.2 `Adafruit_NeoPixel(uint16_t n, int16_t pin = 6, …)`,
  // LiquidCrystal 1.0.7's four constructors: the library is missing (an ERROR with its install
  // command) and the pins are still checked.
  test('OneWire ds(10), a NeoPixel on PIN 6 and an LCD on the flash pins of an ESP32', async () => {
    const text = '#include <OneWire.h>\n#include <Adafruit_NeoPixel.h>\n#include <LiquidCrystal.h>\n#define PIN 6\nOneWire ds(10);\nAdafruit_NeoPixel strip(60, PIN, NEO_GRB + NEO_KHZ800);\nLiquidCrystal lcd(12, 11, 5, 4, 3, 2);\nLiquidCrystal flashLcd(12, 11, 7, 8, 3, 2);\nvoid setup() {\n  strip.begin();\n}\nvoid loop() {}\n';
    const found = await findings('CitedPins', ESP32, sketch('CitedPins', text));
    // lcd(rs 12, enable 11, …, 2): 11 is a flash pin, 12 and 2 strapping pins (5 is the Ringo's own LED); flashLcd adds 7 and 8.
    expect(shown(found)).toEqual(['1 error include-unresolved', '2 error include-unresolved', '3 error include-unresolved', '5 error esp32-flash-pin', '6 error esp32-flash-pin', '7 warning esp32-strapping-pin', '7 error esp32-flash-pin', '7 warning esp32-strapping-pin', '8 warning esp32-strapping-pin', '8 error esp32-flash-pin', '8 error esp32-flash-pin', '8 error esp32-flash-pin', '8 warning esp32-strapping-pin']);
    expect(found[0].suggestion).toContain('arduino-cli lib install "OneWire"');
    expect(found[1].suggestion).toContain('arduino-cli lib install "Adafruit NeoPixel"');
    expect(found.find((finding) => finding.line === 5 && finding.severity === 'error' && finding.code === 'esp32-flash-pin')!.message).toContain('PaulStoffregen/OneWire@800f26f:OneWire.h:57-74');
  });
});

// The library index (boards/data/library-pins.json): each entry's name is a library.properties
// name= at the commit it cites. The copies vendored in the fixture CircuitMess platform are
// checked here against the files themselves; the others were read at their commits.
describe('the library index names the library of a missing header', () => {
  const CM_COPY = join(DATA_DIR_32BIT, 'packages/cm/hardware/esp32/1.7.5');
  const vendored = libraryIndex().filter((entry) => entry.source.repository === 'CircuitMess/Arduino-ESP32');

  test('every entry cites its source and, where added from the registry, the line that registers it', () => {
    expect(libraryIndex().length).toBeGreaterThanOrEqual(28);
    expect(new Set(libraryIndex().map((entry) => entry.header)).size).toBe(libraryIndex().length);
    for (const entry of libraryIndex()) expect(entry.source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(vendored.map((entry) => entry.library)).toEqual(['ArduinoJson', 'TFT_eSPI', 'JPEGDecoder', 'HttpClient', 'SerialFlash']);
  });

  test.each(vendored)("$library: the fixture platform's copy says name=$library and has $header in its source root", ({ library, header, source }) => {
    const properties = readFileSync(join(CM_COPY, source.file), 'utf8');
    expect(properties).toMatch(new RegExp(`^name=${library}$`, 'm'));
    expect(properties).toMatch(new RegExp(`^version=${source.version!.replace(/\./g, '\\.')}$`, 'm'));
    // A library's source root is src/ where it has one (arduino-cli's library layout), else its folder.
    const root = join(CM_COPY, dirname(source.file));
    expect(existsSync(join(root, 'src')) ? existsSync(join(root, 'src', header)) : existsSync(join(root, header))).toBe(true);
  });

  test('on the Uno and the Mega, a missing indexed header is an ERROR with its install command; an unindexed one gets the search hint', async () => {
    const text = '#include <ArduinoJson.h>\n#include <DallasTemperature.h>\n#include <Adafruit_GFX.h>\n#include <NotInAnyIndex.h>\nvoid setup() {}\nvoid loop() {}\n';
    for (const board of ['arduino:avr:uno', 'arduino:avr:mega:cpu=atmega2560']) {
      const found = await findings(`IndexedMissing_${board.split(':')[2]}`, board, sketch(`IndexedMissing_${board.split(':')[2]}`, text));
      expect(shown(found)).toEqual(['1 error include-unresolved', '2 error include-unresolved', '3 error include-unresolved', '4 error include-unresolved']);
      expect(found.map((finding) => /arduino-cli lib install "([^"<]+)"/.exec(finding.suggestion ?? '')?.[1])).toEqual(['ArduinoJson', 'DallasTemperature', 'Adafruit GFX Library', undefined]);
      expect(found[0].suggestion).toContain('CircuitMess/Arduino-ESP32@1fb9e7e:libraries/Ringo/src/utility/ArduinoJson/library.properties');
      expect(found[3].suggestion).toContain('arduino-cli lib search NotInAnyIndex');
    }
  });
});
