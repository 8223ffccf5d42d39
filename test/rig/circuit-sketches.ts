// Sketches, diagrams and scenarios for the circuit tests: each part kind wired as Wokwi's part
// page shows it, driven by a real sketch compiled with arduino-builder.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sketchFolder } from './sketches.js';

/** A sketch folder with its diagram.json (and any other files) beside it. */
export function circuitSketch(name: string, source: string, diagram: object, files: Record<string, string> = {}): string {
  const dir = sketchFolder(name, source);
  writeFileSync(join(dir, 'diagram.json'), JSON.stringify(diagram, null, 2) + '\n');
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

type Wire = [string, string];
export function wokwiDiagram(parts: Array<{ id: string; type: string; attrs?: Record<string, string> }>, wires: Wire[]): object {
  return {
    version: 1,
    author: 'boardbridge tests',
    editor: 'wokwi',
    parts: parts.map((part) => ({ top: 0, left: 0, attrs: {}, ...part })),
    connections: wires.map(([a, b]) => [a, b, 'green', []]),
  };
}

/**
 * D2 and D3 read two pushbuttons to GND through INT0/INT1 (btn1 without bouncing, btn2 with);
 * D4 reads a slide switch between GND (left) and 5V (right), and D13 lights led1 (through r1)
 * as the switch says.
 */
export const BUTTONS = `volatile unsigned int falls1 = 0, falls2 = 0;
void onFall1() { falls1++; }
void onFall2() { falls2++; }

void setup() {
  Serial.begin(115200);
  pinMode(13, OUTPUT);
  pinMode(2, INPUT_PULLUP);
  pinMode(3, INPUT_PULLUP);
  pinMode(4, INPUT);
  attachInterrupt(digitalPinToInterrupt(2), onFall1, FALLING);
  attachInterrupt(digitalPinToInterrupt(3), onFall2, FALLING);
  Serial.println("ready");
}

void loop() {
  static unsigned int seen1 = 0, seen2 = 0;
  digitalWrite(13, digitalRead(4));
  if (falls1 != seen1) { seen1 = falls1; Serial.print("btn1 falls="); Serial.println(seen1); }
  if (falls2 != seen2) { delay(5); seen2 = falls2; Serial.print("btn2 falls="); Serial.println(seen2); }
}
`;

export const BUTTONS_DIAGRAM = wokwiDiagram(
  [
    { id: 'uno', type: 'wokwi-arduino-uno' },
    { id: 'btn1', type: 'wokwi-pushbutton', attrs: { color: 'blue', bounce: '0' } },
    { id: 'btn2', type: 'wokwi-pushbutton', attrs: { color: 'red' } },
    { id: 'sw1', type: 'wokwi-slide-switch', attrs: { bounce: '0' } },
    { id: 'r1', type: 'wokwi-resistor', attrs: { value: '220' } },
    { id: 'led1', type: 'wokwi-led', attrs: { color: 'red' } },
  ],
  [
    ['btn1:1.l', 'uno:2'],
    ['btn1:2.r', 'uno:GND.1'],
    ['btn2:1.r', 'uno:3'],
    ['btn2:2.l', 'uno:GND.2'],
    ['sw1:1', 'uno:GND.3'],
    ['sw1:2', 'uno:4'],
    ['sw1:3', 'uno:5V'],
    ['uno:13', 'r1:1'],
    ['r1:2', 'led1:A'],
    ['led1:C', 'uno:GND.1'],
  ],
);

/**
 * Two 74HC595s chained through Q7S on D2 (DS), D3 (SHCP), D4 (STCP): the first drives a
 * common-cathode 7-segment with the digit n, the second a bar graph with n segments lit; n counts
 * 0…9, one step each 500 ms, printed as "n=…". D5–D12 drive the segments and A0/A1 the two digits
 * of a common-anode two-digit display, multiplexed every 4 ms to show "42".
 */
export const SHIFT_DISPLAY = `const int dataPin = 2, clockPin = 3, latchPin = 4;
const byte glyphs[10] = {0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F};

void show(int n) {
  digitalWrite(latchPin, LOW);
  shiftOut(dataPin, clockPin, MSBFIRST, (1 << n) - 1);
  shiftOut(dataPin, clockPin, MSBFIRST, glyphs[n]);
  digitalWrite(latchPin, HIGH);
  Serial.print("n=");
  Serial.println(n);
}

void digit(int which, byte glyph) {
  digitalWrite(A0, LOW);
  digitalWrite(A1, LOW);
  for (int s = 0; s < 8; s++) digitalWrite(5 + s, (glyph >> s) & 1 ? LOW : HIGH);
  digitalWrite(which == 0 ? A0 : A1, HIGH);
}

void setup() {
  Serial.begin(115200);
  pinMode(dataPin, OUTPUT);
  pinMode(clockPin, OUTPUT);
  pinMode(latchPin, OUTPUT);
  for (int p = 5; p <= 12; p++) pinMode(p, OUTPUT);
  pinMode(A0, OUTPUT);
  pinMode(A1, OUTPUT);
  show(0);
}

void loop() {
  static int n = 0;
  static unsigned long next = 500;
  if (millis() >= next && n < 9) {
    next += 500;
    show(++n);
  }
  digit(0, glyphs[4]);
  delay(4);
  digit(1, glyphs[2]);
  delay(4);
}
`;

const segmentWires = (part: string, from: (i: number) => string): Array<[string, string]> =>
  ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'DP'].map((segment, i) => [from(i), `${part}:${segment}`]);

export const SHIFT_DISPLAY_DIAGRAM = wokwiDiagram(
  [
    { id: 'uno', type: 'wokwi-arduino-uno' },
    { id: 'sr1', type: 'wokwi-74hc595' },
    { id: 'sr2', type: 'wokwi-74hc595' },
    { id: 'sevseg1', type: 'wokwi-7segment', attrs: { common: 'cathode' } },
    { id: 'bar1', type: 'wokwi-led-bar-graph', attrs: { color: 'lime' } },
    { id: 'sevseg2', type: 'wokwi-7segment', attrs: { digits: '2' } },
  ],
  [
    ['uno:2', 'sr1:DS'],
    ['uno:3', 'sr1:SHCP'],
    ['uno:4', 'sr1:STCP'],
    ['sr1:Q7S', 'sr2:DS'],
    ['sr1:SHCP', 'sr2:SHCP'],
    ['sr1:STCP', 'sr2:STCP'],
    ['sr1:OE', 'uno:GND.1'],
    ['sr2:OE', 'uno:GND.1'],
    ['sr1:MR', 'uno:5V'],
    ['sr2:MR', 'uno:5V'],
    ...segmentWires('sevseg1', (i) => `sr1:Q${i}`),
    ['sevseg1:COM', 'uno:GND.2'],
    ...Array.from({ length: 8 }, (_, i): [string, string] => [`sr2:Q${i}`, `bar1:A${i + 1}`]),
    ...Array.from({ length: 10 }, (_, i): [string, string] => [`bar1:C${i + 1}`, 'uno:GND.3']),
    ...segmentWires('sevseg2', (i) => `uno:${5 + i}`),
    ['sevseg2:DIG1', 'uno:A0'],
    ['sevseg2:DIG2', 'uno:A1'],
  ],
);

/**
 * The Servo library's Knob, with a potentiometer on A0 moving a servo on D9, printing each reading;
 * a buzzer on D8 plays tone(8, 262, 250) at the start; a common-anode RGB LED shows red on D5
 * (analogWrite 0 → low → lit), green at half on D6 and blue off on D7.
 */
export const KNOB = `#include <Servo.h>
Servo servo;

void setup() {
  Serial.begin(115200);
  servo.attach(9);
  pinMode(7, OUTPUT);
  digitalWrite(7, HIGH);
  analogWrite(5, 0);
  analogWrite(6, 128);
  tone(8, 262, 250);
  Serial.println("ready");
}

void loop() {
  int value = analogRead(A0);
  servo.write(map(value, 0, 1023, 0, 180));
  Serial.print("pot=");
  Serial.println(value);
  delay(100);
}
`;

export const KNOB_DIAGRAM = wokwiDiagram(
  [
    { id: 'uno', type: 'wokwi-arduino-uno' },
    { id: 'pot1', type: 'wokwi-potentiometer' },
    { id: 'servo1', type: 'wokwi-servo' },
    { id: 'bz1', type: 'wokwi-buzzer' },
    { id: 'rgb1', type: 'wokwi-rgb-led' },
  ],
  [
    ['pot1:SIG', 'uno:A0'],
    ['pot1:VCC', 'uno:5V'],
    ['pot1:GND', 'uno:GND.1'],
    ['servo1:PWM', 'uno:9'],
    ['servo1:V+', 'uno:5V'],
    ['servo1:GND', 'uno:GND.1'],
    ['bz1:2', 'uno:8'],
    ['bz1:1', 'uno:GND.2'],
    ['rgb1:COM', 'uno:5V'],
    ['rgb1:R', 'uno:5'],
    ['rgb1:G', 'uno:6'],
    ['rgb1:B', 'uno:7'],
  ],
);

/**
 * A press counter laid out as in Wokwi's editor (top/left/rotate): btn1 from D2 to GND (read with
 * INPUT_PULLUP) counts presses, sevseg1 (common cathode; A–G on D3–D8 and D10) shows the count,
 * led1 on PWM pin D9 through r1 glows at half brightness (analogWrite 128). Each change of
 * btn1 waits 20 ms, longer than the pushbutton's bounce.
 */
export const COUNTER = `const byte segmentPins[7] = {3, 4, 5, 6, 7, 8, 10};
const byte glyphs[10] = {0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F};
int count = 0;

void show(int n) {
  for (int s = 0; s < 7; s++) digitalWrite(segmentPins[s], (glyphs[n] >> s) & 1);
  Serial.print("count=");
  Serial.println(n);
}

void setup() {
  Serial.begin(115200);
  pinMode(2, INPUT_PULLUP);
  for (int s = 0; s < 7; s++) pinMode(segmentPins[s], OUTPUT);
  analogWrite(9, 128);
  show(0);
}

void loop() {
  static int last = HIGH;
  int now = digitalRead(2);
  if (now != last) {
    if (now == LOW) show(count = (count + 1) % 10);
    last = now;
    delay(20);
  }
}
`;

export const COUNTER_DIAGRAM = {
  version: 1,
  author: 'boardbridge tests',
  editor: 'wokwi',
  parts: [
    { type: 'wokwi-arduino-uno', id: 'uno', top: 0, left: 0, attrs: {} },
    { type: 'wokwi-7segment', id: 'sevseg1', top: -150, left: 24, attrs: { common: 'cathode', color: '#ff3030' } },
    { type: 'wokwi-resistor', id: 'r1', top: -62, left: 104, rotate: 90, attrs: { value: '220' } },
    { type: 'wokwi-led', id: 'led1', top: -150, left: 118, attrs: { color: 'red' } },
    { type: 'wokwi-pushbutton', id: 'btn1', top: -128, left: 190, attrs: { color: 'green' } },
  ],
  connections: [
    ['uno:9', 'r1:2', 'orange', []],
    ['r1:1', 'led1:A', 'orange', []],
    ['led1:C', 'uno:GND.1', 'black', []],
    ['uno:2', 'btn1:2.r', 'blue', []],
    ['btn1:1.l', 'uno:GND.1', 'black', []],
    ...['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((segment, i) => [`sevseg1:${segment}`, `uno:${[3, 4, 5, 6, 7, 8, 10][i]}`, 'green', []]),
    ['sevseg1:COM.1', 'uno:GND.1', 'black', []],
  ],
};
