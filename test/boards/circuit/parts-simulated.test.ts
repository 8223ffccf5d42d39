// Every part kind in a diagram beside a real sketch (Debian arduino-builder, avr8js), driven by a
// Wokwi scenario, each checked against what its page at docs.wokwi.com/parts/… says it does.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArduinoBuilder, boardCommands, debianLayout, SerialHub } from '../../../boards/index.js';
import type { SimulationRecord } from '../../../boards/commands/simulate-command.js';
import type { PartReport } from '../../../boards/circuit/circuit.js';
import { recordedIo } from '../../rig/command-io.js';
import { BUTTONS, BUTTONS_DIAGRAM, circuitSketch, KNOB, KNOB_DIAGRAM, SHIFT_DISPLAY, SHIFT_DISPLAY_DIAGRAM } from '../../rig/circuit-sketches.js';
import { FIXTURES } from '../../context-providers/arduino/paths.js';

// The shared sketchbook holds the Servo library, which Debian's packages do not ship.
const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout(join(FIXTURES, 'sketchbook')));
const records: SimulationRecord[] = [];
const commands = boardCommands({ hub: new SerialHub(), tool: builder, requestUploadConsent: async () => undefined, onSimulation: (record) => records.push(record) });

async function simulate(argv: string[]): Promise<{ code: number; text: string; record: SimulationRecord }> {
  const io = recordedIo();
  const code = await commands.get('simulate')!(argv, io);
  return { code, text: io.output(), record: records.at(-1)! };
}

function part(record: SimulationRecord, id: string): PartReport {
  const found = record.circuit?.parts.find((p) => p.id === id);
  if (!found) throw new Error(`no part ${id} in ${JSON.stringify(record.circuit?.parts.map((p) => p.id))}`);
  return found;
}

function scenarioFile(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const BUTTONS_PASS = `name: buttons, switch and LED
version: 1
steps:
  - wait-serial: ready
  - name: led1 dark with the switch left
    expect-pin: { part-id: led1, name: A, value: 0 }
  - set-control: { part-id: sw1, control: value, value: 1 }
  - delay: 20ms
  - name: led1 lit with the switch right
    expect-pin: { part-id: led1, name: A, value: 1 }
  - set-control: { part-id: btn1, control: pressed, value: 1 }
  - wait-serial: "btn1 falls=1"
  - delay: 50ms
  - set-control: { part-id: btn1, control: pressed, value: 0 }
  - delay: 50ms
  - set-control: { part-id: btn2, control: pressed, value: 1 }
  - delay: 100ms
  - name: btn2 holds D3 low
    expect-pin: { part-id: uno, name: "3", value: 0 }
`;

describe('Wokwi parts on the simulated Uno', () => {
  const buttons = circuitSketch('Buttons', BUTTONS, BUTTONS_DIAGRAM);

  it('runs a passing scenario: the slide switch lights the LED, btn1 gives one falling edge, btn2 bounces', async () => {
    // https://docs.wokwi.com/parts/wokwi-pushbutton: pressed connects contact 1 to contact 2, so a pin on
    // INPUT_PULLUP reads LOW; bouncing is simulated unless "bounce" is "0" ("the contacts separate and
    // reconnect ... over a period of about 1ms").
    // https://docs.wokwi.com/parts/wokwi-slide-switch: the handle right shorts pins 3 and 2.
    // https://docs.wokwi.com/parts/wokwi-led: A is the anode, C the cathode.
    const file = scenarioFile(buttons, 'buttons.test.yaml', BUTTONS_PASS);
    const { code, text, record } = await simulate([buttons, '--scenario', file]);
    expect(code, text).toBe(0);
    expect(text).toContain('Scenario: scenario "buttons, switch and LED" passed (13 steps).');
    expect(record.scenario).toMatchObject({ passed: true, completed: 13, total: 13 });
    expect(record.fqbn).toBe('arduino:avr:uno');
    const lines = record.serial.text.split('\r\n');
    expect(lines.filter((line) => line.startsWith('btn1 '))).toEqual(['btn1 falls=1']);
    const btn2 = Number(lines.filter((line) => line.startsWith('btn2 falls=')).at(-1)!.split('=')[1]);
    expect(btn2).toBeGreaterThan(1);
    const led = part(record, 'led1');
    expect(led.intervals.map((i) => i.state)).toEqual(['off', 'on']);
    expect(led.intervals[1].from).toBeGreaterThan(0);
    expect(part(record, 'btn1').intervals.map((i) => i.state)).toEqual(['released', 'pressed', 'released']);
    expect(part(record, 'sw1').state).toBe('right (2–3)');
  });

  it('fails a scenario at its named step with the simulated time, what it expected and what it saw (exit 1)', async () => {
    const file = scenarioFile(
      buttons,
      'wrong.test.yaml',
      'name: wrong guess\nversion: 1\nsteps:\n  - wait-serial: ready\n  - name: led1 lit before the switch moves\n    expect-pin:\n      part-id: led1\n      name: A\n      value: 1\n',
    );
    const { code, text, record } = await simulate([buttons, '--scenario', file, '--vcd', join(buttons, 'run.vcd')]);
    expect(code).toBe(1);
    expect(text).toMatch(
      new RegExp(`Scenario: scenario "wrong guess" failed at step 2 "led1 lit before the switch moves" \\(${file.replaceAll('.', '\\.')}:5\\) at 0\\.0\\d\\d s simulated: expected led1:A = 1, saw led1:A = 0\\.`),
    );
    expect(record.scenario?.failure).toMatchObject({ step: 2, name: 'led1 lit before the switch moves', line: 5, expected: 'led1:A = 1', seen: 'led1:A = 0' });
    expect(text).toContain(`VCD written to ${join(buttons, 'run.vcd')}`);
  });

  it('takes the board from the diagram’s wokwi-arduino-nano part and runs the same circuit on the Nano', async () => {
    // https://docs.wokwi.com/diagram-format: wokwi-arduino-nano is the Arduino Nano.
    const diagram = JSON.parse(JSON.stringify(BUTTONS_DIAGRAM).replace('"wokwi-arduino-uno"', '"wokwi-arduino-nano"'));
    const nano = circuitSketch('Buttons', BUTTONS, diagram);
    const file = scenarioFile(nano, 'nano.test.yaml', 'name: nano\nversion: 1\nsteps:\n  - wait-serial: ready\n  - set-control: { part-id: sw1, control: value, value: 1 }\n  - delay: 20ms\n  - expect-pin: { part-id: led1, name: A, value: 1 }\n');
    const { code, text, record } = await simulate([nano, '--scenario', file]);
    expect(code, text).toBe(0);
    expect(record.fqbn).toBe('arduino:avr:nano:cpu=atmega328');
    expect(record.scenario?.passed).toBe(true);
  });

  it('refuses a scenario with an unknown step key before compiling anything', async () => {
    const file = scenarioFile(buttons, 'typo.test.yaml', 'name: typo\nversion: 1\nsteps:\n  - wait-serial: ready\n  - wait-serail: again\n');
    const io = recordedIo();
    expect(await commands.get('simulate')!([buttons, '--scenario', file], io)).not.toBe(0);
    expect(io.output()).toContain(
      `${file}:5: step 2: unknown step key "wait-serail" (a step is one of delay, wait-serial, write-serial, set-control, expect-pin, with an optional name)`,
    );
    expect(io.output()).not.toContain('Compiling');
  });

  it('refuses a set-control of a control the part does not have, before the run', async () => {
    const file = scenarioFile(buttons, 'control.test.yaml', 'name: control\nversion: 1\nsteps:\n  - set-control:\n      part-id: btn1\n      control: position\n      value: 1\n');
    const io = recordedIo();
    expect(await commands.get('simulate')!([buttons, '--scenario', file], io)).not.toBe(0);
    expect(io.output()).toContain(
      `${file}:5: step 1: btn1 (wokwi-pushbutton) has the controls "pressed" (1 to press, 0 to release), not "position"`,
    );
  });

  it('shifts through two chained 74HC595s into a 7-segment and a bar graph, and multiplexes a two-digit display', async () => {
    // https://docs.wokwi.com/parts/wokwi-74hc595: "Connect Q7S to the DS pin of the next 74HC595 chip in chain."
    // https://docs.wokwi.com/parts/wokwi-7segment: common "cathode" lights a segment when its pin is high; the
    // default (anode) when it is low; multi-digit displays select a digit with DIG1…DIG4.
    // https://docs.wokwi.com/parts/wokwi-led-bar-graph: An is the anode and Cn the cathode of LED n.
    const dir = circuitSketch('ShiftDisplay', SHIFT_DISPLAY, SHIFT_DISPLAY_DIAGRAM);
    const file = scenarioFile(
      dir,
      'display.test.yaml',
      `name: shift display
version: 1
steps:
  - wait-serial: "n=3"
  - delay: 10ms
  - name: segment A of the 3 is lit
    expect-pin: { part-id: sevseg1, name: A, value: 1 }
  - name: segment F of the 3 is dark
    expect-pin: { part-id: sevseg1, name: F, value: 0 }
  - name: three bars
    expect-pin: { part-id: bar1, name: A3, value: 1 }
  - expect-pin: { part-id: bar1, name: A4, value: 0 }
  - delay: 100ms
`,
    );
    const { code, text, record } = await simulate([dir, '--scenario', file]);
    expect(code, text).toBe(0);
    expect(part(record, 'sevseg1').intervals.map((i) => i.state)).toEqual(['shows "0"', 'shows "1"', 'shows "2"', 'shows "3"']);
    const three = part(record, 'sevseg1').intervals[3];
    expect(three.from).toBeGreaterThanOrEqual(1.5);
    expect(three.from).toBeLessThan(1.52);
    expect(part(record, 'bar1').state).toBe('lit 1110000000 (3 of 10)');
    expect(part(record, 'sr1').state).toBe('Q0–Q7 11110010');
    expect(part(record, 'sevseg2').state).toBe('shows "42"');
    expect(text).toMatch(/sevseg1 \(wokwi-7segment\): shows "0" 0\.00–0\.50 s, shows "1" 0\.50–1\.0\d s/);
  });

  it('turns the servo with the potentiometer, sounds the buzzer at tone()’s frequency for its duration, and mixes the RGB LED', async () => {
    // https://docs.wokwi.com/parts/wokwi-potentiometer: control "position" 0.0–1.0 moves the wiper; analogRead() reads it.
    // https://docs.wokwi.com/parts/wokwi-servo: the horn sweeps 0 to 180 degrees.
    // https://docs.wokwi.com/parts/wokwi-buzzer: tone(8, 262, 250) "Plays 262Hz tone for 0.250 seconds".
    // https://docs.wokwi.com/parts/wokwi-rgb-led: COM is the anode by default.
    const dir = circuitSketch('Knob', KNOB, KNOB_DIAGRAM);
    const file = scenarioFile(
      dir,
      'knob.test.yaml',
      'name: knob\nversion: 1\nsteps:\n  - wait-serial: "pot=0"\n  - delay: 400ms\n  - set-control:\n      part-id: pot1\n      control: position\n      value: 0.5\n  - wait-serial: "pot=512"\n  - delay: 150ms\n',
    );
    const { code, text, record } = await simulate([dir, '--scenario', file, '--json']);
    expect(code, text).toBe(0);
    const servo = part(record, 'servo1');
    expect(servo.intervals[0].state).toBe('no pulse');
    const angles = servo.intervals.slice(1).map((i) => Number(/^at (\d+)°$/.exec(i.state)![1]));
    expect(angles[0]).toBe(0);
    expect(Math.abs(angles.at(-1)! - 90)).toBeLessThanOrEqual(1);
    const buzzer = part(record, 'bz1');
    const tone = buzzer.intervals.find((i) => i.state.startsWith('sounds'))!;
    expect(Math.abs(Number(/sounds (\d+) Hz/.exec(tone.state)![1]) - 262) / 262).toBeLessThan(0.01);
    expect(Math.abs(tone.to - tone.from - 0.25)).toBeLessThan(0.01);
    expect(buzzer.state).toBe('silent');
    const [, red, green, blue] = /^colour #(..)(..)(..)$/.exec(part(record, 'rgb1').state)!.map((hex) => parseInt(hex, 16));
    expect(red).toBe(255);
    expect(green).toBeGreaterThan(0x70);
    expect(green).toBeLessThan(0x90);
    expect(blue).toBe(0);
    expect(part(record, 'pot1').state).toBe('at 0.50 (2.50 V)');
  });
});
