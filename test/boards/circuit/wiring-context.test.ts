// The hardware context of a sketch with Wokwi's diagram.json beside it: what each used pin is
// wired to, and the sketch check against the circuit (an output on a button or potentiometer,
// an LED with no resistor: WARNING; a driven pin wired to nothing: INFO).
import { describe, expect, it } from 'vitest';
import { buildBoardContext } from '../../../context-providers/arduino/board-context.js';
import { arduinoContextSchema } from '../../../context-providers/arduino/context-schema.js';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import { renderArduinoContext } from '../../../context-providers/arduino/render.js';
import { resolveFqbn } from '../../../platform/arduino/resolve.js';
import { readSketch } from '../../../context-providers/arduino/sketch.js';
import { circuitSketch, wokwiDiagram } from '../../rig/circuit-sketches.js';

const installed = await discoverPlatforms();

const SKETCH = `const int button = 2;
void setup() {
  pinMode(button, OUTPUT);
  pinMode(13, OUTPUT);
  pinMode(12, OUTPUT);
  pinMode(7, OUTPUT);
  pinMode(A0, OUTPUT);
}
void loop() {
  digitalWrite(13, HIGH);
  digitalWrite(12, HIGH);
  digitalWrite(7, HIGH);
}
`;

const DIAGRAM = wokwiDiagram(
  [
    { id: 'uno', type: 'wokwi-arduino-uno' },
    { id: 'btn1', type: 'wokwi-pushbutton' },
    { id: 'r1', type: 'wokwi-resistor', attrs: { value: '220' } },
    { id: 'led_red', type: 'wokwi-led', attrs: { color: 'red' } },
    { id: 'led_bare', type: 'wokwi-led', attrs: { color: 'green' } },
    { id: 'pot1', type: 'wokwi-potentiometer' },
    { id: 'sr1', type: 'wokwi-74hc595' },
  ],
  [
    ['btn1:1.l', 'uno:2'],
    ['btn1:2.l', 'uno:GND.1'],
    ['uno:13', 'r1:1'],
    ['r1:2', 'led_red:A'],
    ['led_red:C', 'uno:GND.1'],
    ['uno:12', 'led_bare:A'],
    ['led_bare:C', 'uno:GND.2'],
    ['pot1:SIG', 'uno:A0'],
    ['uno:8', 'sr1:DS'],
  ],
);

describe('wiring in the Arduino context', () => {
  it('lists what each board pin is wired to, through resistors, with the diagram line', async () => {
    const dir = circuitSketch('Wired', SKETCH, DIAGRAM);
    const context = buildBoardContext({ board: resolveFqbn('arduino:avr:uno', installed), installed, sketch: await readSketch(dir) });
    expect(context.wiring?.map((pin) => `${pin.pin} → ${pin.to.join(', ')}`)).toEqual([
      'D2 → btn1 1.l, btn1 1.r',
      'D8 → sr1 DS',
      'D12 → led_bare anode',
      'D13 → led_red anode through r1',
      'A0 → pot1 SIG',
    ]);
    expect(context.wiring?.[0].source).toEqual({ file: `${dir}/diagram.json`, line: expect.any(Number) });
    expect(context.inputs).toContain(`${dir}/diagram.json`);
    arduinoContextSchema.parse(JSON.parse(JSON.stringify(context)));
    const text = renderArduinoContext(context);
    expect(text).toContain('## Wiring (');
    expect(text).toContain('- D13 → led_red anode through r1');
    expect(text).toContain("- Circuit: the sketch's diagram.json parts are simulated with it");
  });

  it('warns of an output on a button or potentiometer and an LED without a resistor; tells of a driven pin wired to nothing', async () => {
    const dir = circuitSketch('Wired', SKETCH, DIAGRAM);
    const context = buildBoardContext({ board: resolveFqbn('arduino:avr:uno', installed), installed, sketch: await readSketch(dir) });
    const wiring = context.findings.filter((finding) => finding.code.startsWith('wiring-'));
    expect(wiring.map((finding) => [finding.severity, finding.code, finding.line])).toEqual([
      ['warning', 'wiring-output-on-input', 3],
      ['warning', 'wiring-led-no-resistor', 5],
      ['info', 'wiring-unconnected', 6],
      ['warning', 'wiring-output-on-input', 7],
    ]);
    expect(wiring[0].message).toMatch(/^pinMode\(2, OUTPUT\) makes D2 an output, but .*diagram\.json:\d+ wires it to btn1, a pushbutton/);
    expect(wiring[1].message).toMatch(/^D12 drives led_bare \(.*\) with no resistor in its path/);
    expect(wiring[2].message).toMatch(/^pinMode\(7, …\) drives D7, which .*diagram\.json wires to nothing$/);
    // The LED behind r1 and the 74HC595 input are what they should be: no finding.
    expect(wiring.some((finding) => finding.line === 4)).toBe(false);
  });
});
