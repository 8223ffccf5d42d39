// diagram.json read as Wokwi's format page describes it (https://docs.wokwi.com/diagram-format):
// parts with id/type/attrs, connections ["part:pin", "part:pin", color, [...]] joined into nets,
// with the board part's pins resolved through the installed variant.
import { describe, expect, it } from 'vitest';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import { diagramFqbn } from '../../../boards/circuit/diagram-file.js';
import { DiagramError, parseDiagram } from '../../../platform/circuit/diagram.js';
import { buildNetlist } from '../../../platform/circuit/netlist.js';
import { simulatedBoard } from '../../../boards/simulate/simulatable.js';

const installed = await discoverPlatforms();
const uno = simulatedBoard('arduino:avr:uno', installed);
const nano = simulatedBoard('arduino:avr:nano:cpu=atmega328', installed);

function diagram(parts: string, connections: string): string {
  return `{\n  "version": 1,\n  "author": "test",\n  "editor": "wokwi",\n  "parts": [\n${parts}\n  ],\n  "connections": [\n${connections}\n  ]\n}\n`;
}
const UNO = '    { "type": "wokwi-arduino-uno", "id": "uno", "top": 0, "left": 0, "attrs": {} },';

describe('diagram.json', () => {
  it('joins wires into nets: the board’s GND pins are one net, a resistor keeps its two ends apart', () => {
    const text = diagram(
      `${UNO}\n    { "type": "wokwi-led", "id": "led1", "attrs": { "color": "red" } },\n    { "type": "wokwi-resistor", "id": "r1", "attrs": { "value": "220" } }`,
      `    ["uno:13", "r1:1", "green", []],\n    ["r1:2", "led1:A", "green", ["v10"]],\n    ["led1:C", "uno:GND.1", "black", []],\n    ["uno:GND.2", "uno:GND.3", "black", []]`,
    );
    const netlist = buildNetlist(parseDiagram(text, 'diagram.json'), uno.naming);
    expect(netlist.netOf('uno', '13')).not.toBe(netlist.netOf('led1', 'A'));
    expect(netlist.netOf('r1', '2')).toBe(netlist.netOf('led1', 'A'));
    expect(netlist.netOf('led1', 'C')).toBe(netlist.netOf('uno', 'GND.3'));
    expect(netlist.netOf('uno', '13')!.board).toEqual([{ kind: 'io', pin: 13, name: 'D13' }]);
    expect(netlist.notes).toEqual([]);
  });

  it('maps A0 to the variant’s pin 14 and ADC channel 0, and the Nano’s A7 to an analog-only input', () => {
    const text = diagram(
      `    { "type": "wokwi-arduino-nano", "id": "nano", "attrs": {} },\n    { "type": "wokwi-potentiometer", "id": "pot1", "attrs": {} },\n    { "type": "wokwi-potentiometer", "id": "pot2", "attrs": {} }`,
      `    ["pot1:SIG", "nano:A0", "green", []],\n    ["pot2:SIG", "nano:A7", "green", []]`,
    );
    const parsed = parseDiagram(text, 'diagram.json');
    expect(diagramFqbn(parsed)).toBe('arduino:avr:nano:cpu=atmega328');
    const netlist = buildNetlist(parsed, nano.naming);
    expect(netlist.netOf('pot1', 'SIG')!.board).toEqual([{ kind: 'io', pin: 14, name: 'A0', channel: 0 }]);
    expect(netlist.netOf('pot2', 'SIG')!.board).toEqual([{ kind: 'analog-only', name: 'A7', channel: 7 }]);
  });

  it('says at its line when a wire goes to a pin the board does not have', () => {
    const text = diagram(`${UNO}\n    { "type": "wokwi-led", "id": "led1", "attrs": {} }`, `    ["led1:A", "uno:14x", "green", []],\n    ["led1:C", "uno:GND.9", "black", []]`);
    expect(() => buildNetlist(parseDiagram(text, 'diagram.json'), uno.naming)).toThrow(/^diagram\.json:10: the wokwi-arduino-uno "uno" has no pin "14x" \(its pins: 0, 1, .*, 13, A0, A1, A2, A3, A4, A5, GND\.1/);
  });

  it('says at its line when a wire goes to a pin the part does not have, naming its pins and doc page', () => {
    const text = diagram(`${UNO}\n    { "type": "wokwi-led", "id": "led1", "attrs": {} }`, `    ["led1:A", "uno:13", "green", []],\n    ["led1:K", "uno:GND.1", "black", []]`);
    expect(() => buildNetlist(parseDiagram(text, 'diagram.json'), uno.naming)).toThrow(
      'diagram.json:11: the wokwi-led "led1" has no pin "K" (its pins: A, C; https://docs.wokwi.com/parts/wokwi-led)',
    );
  });

  it('names a part type it does not model in a note, and keeps its wires', () => {
    const text = diagram(`${UNO}\n    { "type": "wokwi-lcd1602", "id": "lcd1", "attrs": {} }`, `    ["lcd1:SDA", "uno:A4", "green", []]`);
    const netlist = buildNetlist(parseDiagram(text, 'diagram.json'), uno.naming);
    expect(netlist.notes).toEqual(['diagram.json:7: part "lcd1" is a wokwi-lcd1602, which the simulator does not model; its wires are kept but it does nothing']);
    expect(netlist.netOf('lcd1', 'SDA')).toBe(netlist.netOf('uno', 'A4'));
  });

  it('says where the JSON breaks', () => {
    const text = '{\n  "version": 1,\n  "parts": [\n    { "type": "wokwi-led", "id": "led1" }\n    { "type": "wokwi-led", "id": "led2" }\n  ]\n}\n';
    expect(() => parseDiagram(text, 'diagram.json')).toThrow(DiagramError);
    expect(() => parseDiagram(text, 'diagram.json')).toThrow(/^diagram\.json:5: not valid JSON \(CommaExpected\)/);
  });

  it('refuses a wire to a part that is not in the diagram, at the wire’s line', () => {
    const text = diagram(UNO.replace(/,$/, ''), `    ["btn9:1.l", "uno:2", "green", []]`);
    expect(() => buildNetlist(parseDiagram(text, 'diagram.json'), uno.naming)).toThrow(/^diagram\.json:9: the wire goes to "btn9:1\.l" but there is no part "btn9"/);
  });
});
