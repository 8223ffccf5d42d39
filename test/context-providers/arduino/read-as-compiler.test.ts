// The sketch check reads a sketch as the compiler does (issue 22): comments and strings are never
// code, a name an object already has in JavaScript is no table entry, the sketch's own objects
// are its own, `a::f` is not `f`, and only the headers the compiler includes are read. Each cause
// is a small sketch that behaves as the comment above it says, run through the whole context.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { evaluate } from '../../../context-providers/arduino/c-expression.js';
import { tokenize } from '../../../context-providers/arduino/c-tokens.js';
import { readSketch } from '../../../context-providers/arduino/sketch.js';
import { findings, shown, sketch, SKETCHES } from './sketch-findings.js';

const ESP32 = 'cm:esp32:ringo';

describe('comments and strings are never code', () => {
  // The 1.0.x core declares no analogWrite: the call does not compile, whatever the comments say.
  test('a comment or string that mentions analogWrite() does not make the sketch declare it', async () => {
    const text = '// Fade: set the brightness of pin 4 with analogWrite():\n/* void analogWrite(int pin, int value) is what AVR has */\nconst char *help = "void analogWrite(int, int)";\nvoid setup() {\n  analogWrite(4, 128);\n}\nvoid loop() {}\n';
    expect(shown(await findings('CommentMentions', ESP32, sketch('CommentMentions', text)))).toEqual(['5 error esp32-missing-api']);
  });

  test('a declaration under an inactive #if, or a class member of that name, is not the free function', async () => {
    const text = '#if 0\nvoid analogWrite(int pin, int value) {}\n#endif\nstruct Led {\n  void analogWrite(int pin, int value) {}\n};\nvoid setup() {\n  analogWrite(4, 128);\n}\nvoid loop() {}\n';
    expect(shown(await findings('InactiveDeclaration', ESP32, sketch('InactiveDeclaration', text)))).toEqual(['8 error esp32-missing-api']);
  });

  test('a free function the sketch defines, directly or in a namespace it uses, is declared', async () => {
    const own = 'void analogWrite(int pin, int value) { ledcWrite(0, value); }\nvoid setup() {\n  analogWrite(4, 128);\n}\nvoid loop() {}\n';
    expect(shown(await findings('OwnAnalogWrite', ESP32, sketch('OwnAnalogWrite', own)))).toEqual([]);
    const used = 'namespace pwm {\nvoid analogWrite(int pin, int value) { ledcWrite(0, value); }\n}\nusing namespace pwm;\nvoid setup() {\n  analogWrite(4, 128);\n}\nvoid loop() {}\n';
    expect(shown(await findings('UsedNamespace', ESP32, sketch('UsedNamespace', used)))).toEqual([]);
  });
});

describe("names JavaScript objects already have are no table's entries", () => {
  const NAMES = Object.getOwnPropertyNames(Object.prototype);

  test('Object.prototype has the names this test means to feed', () => {
    expect(NAMES).toEqual(expect.arrayContaining(['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__']));
  });

  // A sketch that defines and uses each name as a function, a member, a macro test and a cast:
  // it compiles, so no board may find an ERROR or WARNING in it, nor quote JavaScript.
  const text = [
    // The 1.0.x ESP32 core has no analogWrite or tone: there the sketch brings its own.
    '#ifdef ARDUINO_ARCH_ESP32\nvoid analogWrite(int pin, int value) {}\nvoid tone(int pin, int hz) {}\n#endif',
    ...NAMES.map((name) => `int ${name}(int v) { return v; }`),
    `struct Thing {\n${NAMES.map((name) => `  int ${name}() { return 1; }`).join('\n')}\n};`,
    'Thing thing;',
    'void setup() {',
    ...NAMES.flatMap((name) => [
      `  pinMode(${name}(2), OUTPUT);`,
      `  analogWrite(${name}(4), thing.${name}());`,
      `  tone(${name}(5), 440);`,
      `  analogWrite((${name})(4), 1);`,
      `#ifdef ${name}\n  notDeclared();\n#endif`,
      `#if ${name} || defined(${name})\n  notDeclared();\n#endif`,
    ]),
    '}',
    'void loop() {}',
    '',
  ].join('\n');

  test.each(['arduino:avr:uno', 'arduino:avr:mega', ESP32, 'arduino:samd:mkrwifi1010', 'arduino:mbed:nano33ble', 'arduino:renesas_uno:minima', 'rp2040:rp2040:rpipico', 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE'])('on %s every Object.prototype name is only the sketch’s own', async (board) => {
    const found = await findings('PrototypeNames', board, sketch('PrototypeNames', text));
    expect(shown(found)).toEqual([]);
    expect(found.map((finding) => `${finding.message} ${finding.suggestion ?? ''}`).filter((words) => /native code|\bfunction\b.*\{/.test(words))).toEqual([]);
  });
});

describe('tables read by name below the sketch check', () => {
  test('(toString)4 is no cast: only integer type names are', () => {
    const value = (text: string) => evaluate(tokenize(text), { identifier: () => undefined, unknownIsZero: false });
    for (const name of Object.getOwnPropertyNames(Object.prototype)) expect(value(`(${name})4`).ok).toBe(false);
    expect(value('(uint8_t)260')).toEqual({ ok: true, value: 4n });
  });

  test("a sketch.yaml key named __proto__ or toString is a key like any other, not the mapping's prototype", async () => {
    const dir = join(SKETCHES, 'YamlPrototype');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'YamlPrototype.ino'), 'void setup() {}\nvoid loop() {}\n');
    writeFileSync(join(dir, 'sketch.yaml'), '__proto__:\n  default_fqbn: arduino:avr:mega\ntoString: x\nprofiles:\n  constructor:\n    fqbn: arduino:avr:uno\n');
    const project = await readSketch(dir);
    expect(project?.yaml?.defaultFqbn).toBeUndefined();
    expect(project?.yaml?.profiles.map((profile) => `${profile.name} ${profile.fqbn}`)).toEqual(['constructor arduino:avr:uno']);
  });
});

describe("a sketch's own object is not the library's", () => {
  // The official ArduinoISP example: without USE_HARDWARE_SPI it bit-bangs its own SPI object.
  const own = '#define PIN_OUT 11\nclass BitBangedSPI {\npublic:\n  void begin() { pinMode(PIN_OUT, OUTPUT); }\n  void transfer(int b) { digitalWrite(PIN_OUT, b & 1); }\n};\nstatic BitBangedSPI SPI;\nvoid setup() {\n  SPI.begin();\n  SPI.transfer(1);\n}\nvoid loop() {}\n';

  test.each(['arduino:avr:uno', 'arduino:samd:mkrwifi1010', 'arduino:renesas_uno:minima'])('static BitBangedSPI SPI; then SPI.begin() needs no SPI.h and owns no bus pins on %s', async (board) => {
    expect(shown(await findings('OwnSpi', board, sketch('OwnSpi', own)))).toEqual([]);
  });

  test("the library's SPI without SPI.h is still an ERROR", async () => {
    expect(shown(await findings('LibrarySpi', 'arduino:samd:mkrwifi1010', sketch('LibrarySpi', 'void setup() {\n  SPI.begin();\n}\nvoid loop() {}\n')))).toEqual(['2 error missing-include']);
  });
});

describe('a::f is not f', () => {
  // A library's software PWM in its own namespace takes any pin; the global ::analogWrite is the core's.
  test('ns::analogWrite(2, v) is not the core call; ::analogWrite(4, v) is', async () => {
    const text = 'namespace softpwm {\nvoid analogWrite(uint8_t pin, int value) { digitalWrite(pin, value > 127); }\n}\nvoid setup() {\n  softpwm::analogWrite(2, 100);\n  ::analogWrite(4, 100);\n}\nvoid loop() {}\n';
    expect(shown(await findings('Namespaced', 'arduino:avr:uno', sketch('Namespaced', text)))).toEqual(['6 error pwm-pin']);
  });

  test('a member defined outside its class (void Buzzer::tone(int)) is no call of tone', async () => {
    const text = 'class Buzzer {\npublic:\n  void tone(int hz);\n};\nvoid Buzzer::tone(int hz) { ::tone(4, hz); }\nBuzzer buzzer;\nvoid setup() {\n  buzzer.tone(440);\n}\nvoid loop() {}\n';
    expect(shown(await findings('MemberDefinition', ESP32, sketch('MemberDefinition', text)))).toEqual(['5 error esp32-missing-api']);
  });

  test('ns::Serial3 is not the board’s Serial3', async () => {
    const text = 'namespace ports {\nint Serial3 = 0;\n}\nvoid setup() {\n  ports::Serial3 = 1;\n  Serial3.begin(9600);\n}\nvoid loop() {}\n';
    expect(shown(await findings('NamespacedSerial', 'arduino:avr:uno', sketch('NamespacedSerial', text)))).toEqual(['6 error unknown-serial']);
  });
});

describe('only the headers the compiler includes are read', () => {
  // esp_net.h is included only for ESP32 builds; unused.h by no file: on the Uno both are never read.
  const files: Array<[string, string]> = [
    ['Headers.ino', '#if defined(ARDUINO_ARCH_ESP32)\n#include "esp_net.h"\n#endif\n#include "used.h"\nvoid setup() {\n  blink();\n}\nvoid loop() {}\n'],
    ['esp_net.h', '#include <WiFi.h>\ninline void connect() { WiFi.begin("a", "b"); Serial2.begin(9600); }\n'],
    ['unused.h', '#include <NoSuchLibrary.h>\ninline void never() { Serial3.begin(9600); analogWrite(4, 1); }\n'],
    ['used.h', '#pragma once\ninline void blink() { analogWrite(7, 1); }\n'],
    ['extra.cpp', '#include <Arduino.h>\nvoid more() { Serial1.begin(9600); }\n'],
  ];

  test('on the Uno a header under an inactive #if or included by no file raises nothing; an included one and a .cpp are checked', async () => {
    const found = await findings('Headers', 'arduino:avr:uno', files);
    expect(found.filter((finding) => finding.severity !== 'info').map((finding) => `${finding.file?.slice(SKETCHES.length + 1)}:${finding.line} ${finding.code}`)).toEqual(['Headers/used.h:2 pwm-pin', 'Headers/extra.cpp:2 unknown-serial']);
  });

  test('a library an included header names is still resolved, and a missing one is an ERROR there', async () => {
    const found = await findings('HeaderLibrary', 'arduino:avr:uno', [['HeaderLibrary.ino', '#include "lib.h"\nvoid setup() {}\nvoid loop() {}\n'], ['lib.h', '#include <NoSuchLibrary.h>\n']]);
    expect(shown(found)).toEqual(['1 error include-unresolved']);
    expect(found[0].file).toMatch(/lib\.h$/);
  });
});
