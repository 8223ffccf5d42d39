// The Wokwi parts the circuit simulator knows: each type's pin names, the pins joined inside the
// part, its automation controls and what kind of thing it is to the sketch check. Pin names and
// attributes as docs.wokwi.com/parts/<type> gives them (cited per entry).
import { lazily } from '../data-files.js';

export type PartRole = 'input' | 'analog-input' | 'light' | 'actuator' | 'logic' | 'passive';

export interface PartType {
  type: string;
  doc: string;
  role: PartRole;
  pins(attrs: Record<string, string>): string[];
  /** Pins that are one conductor inside the part (the pushbutton's 1.l and 1.r). */
  joined?: string[][];
  /** Automation controls, with the values each takes. */
  controls?: Record<string, string>;
}

const DOCS = 'https://docs.wokwi.com/parts/';
const fixed = (...pins: string[]) => () => pins;
const numbered = (prefix: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);

// Made when a diagram is first read: a sketch without one (most contexts) never needs the table.
const byType = lazily((): Map<string, PartType> => {
  const list: PartType[] = [
    { type: 'wokwi-led', doc: `${DOCS}wokwi-led`, role: 'light', pins: fixed('A', 'C') },
    { type: 'wokwi-rgb-led', doc: `${DOCS}wokwi-rgb-led`, role: 'light', pins: fixed('R', 'G', 'B', 'COM') },
    {
      type: 'wokwi-pushbutton',
      doc: `${DOCS}wokwi-pushbutton`,
      role: 'input',
      pins: fixed('1.l', '1.r', '2.l', '2.r'),
      joined: [
        ['1.l', '1.r'],
        ['2.l', '2.r'],
      ],
      controls: { pressed: '1 to press, 0 to release' },
    },
    {
      type: 'wokwi-slide-switch',
      doc: `${DOCS}wokwi-slide-switch`,
      role: 'input',
      pins: fixed('1', '2', '3'),
      // Not one of Wokwi's documented controls: the position its "value" attribute sets.
      controls: { value: '0 for left (pins 1–2), 1 for right (pins 2–3)' },
    },
    { type: 'wokwi-potentiometer', doc: `${DOCS}wokwi-potentiometer`, role: 'analog-input', pins: fixed('GND', 'SIG', 'VCC'), controls: { position: '0.0 to 1.0' } },
    { type: 'wokwi-slide-potentiometer', doc: `${DOCS}wokwi-slide-potentiometer`, role: 'analog-input', pins: fixed('GND', 'SIG', 'VCC'), controls: { position: '0.0 to 1.0' } },
    { type: 'wokwi-servo', doc: `${DOCS}wokwi-servo`, role: 'actuator', pins: fixed('PWM', 'V+', 'GND') },
    { type: 'wokwi-74hc595', doc: `${DOCS}wokwi-74hc595`, role: 'logic', pins: fixed('DS', 'SHCP', 'STCP', 'OE', 'MR', 'Q7S', 'GND', 'VCC', ...numbered('Q', 0, 7)) },
    {
      type: 'wokwi-7segment',
      doc: `${DOCS}wokwi-7segment`,
      role: 'light',
      // A single digit's common is on two pins, COM.1 and COM.2 (as Wokwi's element names them: @wokwi/elements 7segment-element, 1 digit).
      pins: () => ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'DP', 'COM', 'COM.1', 'COM.2', 'CLN', ...numbered('DIG', 1, 4)],
      joined: [['COM', 'COM.1', 'COM.2']],
    },
    { type: 'wokwi-led-bar-graph', doc: `${DOCS}wokwi-led-bar-graph`, role: 'light', pins: fixed(...numbered('A', 1, 10), ...numbered('C', 1, 10)) },
    { type: 'wokwi-resistor', doc: `${DOCS}wokwi-resistor`, role: 'passive', pins: fixed('1', '2') },
    { type: 'wokwi-buzzer', doc: `${DOCS}wokwi-buzzer`, role: 'actuator', pins: fixed('1', '2') },
  ];
  return new Map(list.map((type) => [type.type, type]));
});

export function partType(type: string): PartType | undefined {
  return byType().get(type);
}

export function knownPartTypes(): string[] {
  return [...byType().keys()];
}
