// The still of the circuit an agent gets with a simulation's answer: a PNG (decoded here by a
// reader of its own, every CRC checked) of the diagram's parts where the diagram puts them,
// showing what they show at the end of the run. A real arduino-builder build run on avr8js
// lights one LED and leaves the other dark; the lit one's lens is its colour, the dark one's
// is not. Drawings of the 7-segment, bar graph and servo follow the part views they are given.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArduinoBuilder, debianLayout, SerialHub } from '../../../boards/index.js';
import { operationContext } from '../../../boards/operation-context.js';
import { circuitStill, placer, STILL_MAX_HEIGHT, STILL_MAX_WIDTH } from '../../../boards/circuit/still/circuit-still.js';
import { LED_LENS, partSize } from '../../../boards/circuit/still/part-shapes.js';
import { parseDiagram, readDiagram, type Diagram } from '../../../platform/circuit/diagram.js';
import { operationTools } from '../../../bridge/mcp/command-tools.js';
import { agentCapabilities } from '../../../bridge/session/agent-capabilities.js';
import { circuitSketch, wokwiDiagram } from '../../rig/circuit-sketches.js';
import { FIXTURES } from '../../context-providers/arduino/paths.js';
import { readPng } from '../../support/png-read.js';

const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout(join(FIXTURES, 'sketchbook')));

const TWO_LEDS = `void setup() {
  pinMode(13, OUTPUT);
  pinMode(12, OUTPUT);
  digitalWrite(13, HIGH);
  digitalWrite(12, LOW);
  Serial.begin(115200);
  Serial.println("ready");
}
void loop() {}
`;

// led_red through r1 on D13 (driven high), led_green through r2 on D12 (driven low), both to GND.
const TWO_LEDS_DIAGRAM = {
  ...wokwiDiagram([], []),
  parts: [
    { type: 'wokwi-arduino-uno', id: 'uno', top: 0, left: 0, attrs: {} },
    { type: 'wokwi-led', id: 'led_red', top: -120, left: 60, attrs: { color: 'red' } },
    { type: 'wokwi-led', id: 'led_green', top: -120, left: 160, attrs: { color: 'green' } },
    { type: 'wokwi-resistor', id: 'r1', top: -50, left: 40, rotate: 90, attrs: { value: '220' } },
    { type: 'wokwi-resistor', id: 'r2', top: -50, left: 140, rotate: 90, attrs: { value: '220' } },
  ],
  connections: [
    ['uno:13', 'r1:1', 'green', []],
    ['r1:2', 'led_red:A', 'green', []],
    ['led_red:C', 'uno:GND.1', 'black', []],
    ['uno:12', 'r2:1', 'green', []],
    ['r2:2', 'led_green:A', 'green', []],
    ['led_green:C', 'uno:GND.1', 'black', []],
  ],
};

/** Where the still draws a point of a part's own frame, in image pixels. */
function imagePoint(diagram: Diagram, id: string, x: number, y: number): [number, number] {
  const layout = circuitStill(diagram, []);
  const [dx, dy] = placer(diagram.parts.find((p) => p.id === id)!)(x, y);
  return [(dx - layout.origin[0]) * layout.scale, (dy - layout.origin[1]) * layout.scale];
}

const rgb = (p: number[]) => p.slice(0, 3);

describe('the circuit still', () => {
  it('goes with sim_run and simulate answers as a PNG where the lit LED is its colour and the dark one is not', async () => {
    const dir = circuitSketch('TwoLeds', TWO_LEDS, TWO_LEDS_DIAGRAM);
    const context = operationContext({ hub: new SerialHub(), tool: builder, requestUploadConsent: async () => undefined });
    const tools = operationTools(context, { cwd: dir, env: {}, images: true });
    const call = (name: string, input: Record<string, unknown> = {}) => tools.find((t) => t.name === name)!.run(input, new AbortController().signal);
    expect((await call('sim_start')).isError).toBe(false);
    const run = await call('sim_run', { for: '100ms' });
    expect(run.text).toContain('led_red (wokwi-led): on');
    expect(run.text).toContain('led_green (wokwi-led): off');
    expect(run.image?.mimeType).toBe('image/png');
    const png = readPng(Buffer.from(run.image!.data, 'base64'));
    expect(png.chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(png.width).toBeLessThanOrEqual(STILL_MAX_WIDTH);
    expect(png.height).toBeLessThanOrEqual(STILL_MAX_HEIGHT);
    const diagram = readDiagram(join(dir, 'diagram.json'));
    const red = png.pixel(...imagePoint(diagram, 'led_red', LED_LENS.x, LED_LENS.y));
    const green = png.pixel(...imagePoint(diagram, 'led_green', LED_LENS.x, LED_LENS.y));
    expect(rgb(red)).toEqual([255, 0, 0]);
    expect(red[3]).toBe(255);
    expect(rgb(green)).not.toEqual([0, 128, 0]);
    // Dark, but still green: the unlit LED keeps its colour's hue.
    expect(green[1]).toBeGreaterThan(green[0]);
    expect(green[1]).toBeLessThan(128);
    expect((await call('sim_stop')).isError).toBe(false);

    // The one-shot simulate run ends with the same still of its end state.
    const simulated = await call('simulate', { for: '100ms' });
    expect(simulated.isError).toBe(false);
    const end = readPng(Buffer.from(simulated.image!.data, 'base64'));
    expect(rgb(end.pixel(...imagePoint(diagram, 'led_red', LED_LENS.x, LED_LENS.y)))).toEqual([255, 0, 0]);
    expect(rgb(end.pixel(...imagePoint(diagram, 'led_green', LED_LENS.x, LED_LENS.y)))).not.toEqual([0, 128, 0]);

    // For an agent that takes no images, no image goes with the answer.
    const textOnly = operationTools(context, { cwd: dir, env: {} });
    const plain = await textOnly.find((t) => t.name === 'simulate')!.run({ for: '50ms' }, new AbortController().signal);
    expect(plain.isError).toBe(false);
    expect(plain.image).toBeUndefined();
  });

  it('is sent only to agents whose initialize answer says they take images', () => {
    expect(agentCapabilities({ protocolVersion: 1, agentCapabilities: { promptCapabilities: { image: true } } }).images).toBe(true);
    expect(agentCapabilities({ protocolVersion: 1, agentCapabilities: { promptCapabilities: { embeddedContext: true } } }).images).toBe(false);
    expect(agentCapabilities(undefined).images).toBe(false);
  });

  it('draws the 7-segment’s lit segments, the bar graph’s lit bars and the servo’s horn from their views', () => {
    const diagram = parseDiagram(
      JSON.stringify({
        parts: [
          { type: 'wokwi-7segment', id: 'sevseg1', top: 0, left: 0, attrs: { color: '#00ff00' } },
          { type: 'wokwi-led-bar-graph', id: 'bar1', top: 0, left: 100, attrs: { color: 'blue' } },
          { type: 'wokwi-servo', id: 'servo1', top: 0, left: 200, attrs: {} },
        ],
        connections: [],
      }),
      'diagram.json',
    );
    const MM = 96 / 25.4;
    // "1": segments B and C lit, A dark (docs.wokwi.com/parts/wokwi-7segment: values are A–G, DP).
    const still = circuitStill(diagram, [
      { id: 'sevseg1', type: 'wokwi-7segment', state: 'shows "1"', view: { segments: [0, 1, 1, 0, 0, 0, 0, 0] } },
      { id: 'bar1', type: 'wokwi-led-bar-graph', state: 'lit', view: { bars: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0] } },
      { id: 'servo1', type: 'wokwi-servo', state: 'at 180°', view: { angle: 180 } },
    ]);
    const png = readPng(still.png);
    const at = (id: string, x: number, y: number) => png.pixel(...imagePoint(diagram, id, x, y));
    // Segment B runs down the right of the upper half; A along the top.
    expect(rgb(at('sevseg1', 9.3 * MM, 6 * MM))).toEqual([0, 255, 0]);
    expect(rgb(at('sevseg1', 6 * MM, 2.6 * MM))).not.toEqual([0, 255, 0]);
    const [bw, bh] = partSize(diagram.parts[1]!);
    const pitch = (bh - 6) / 10;
    expect(rgb(at('bar1', bw / 2, 3 + pitch / 2))).toEqual([0, 0, 255]);
    expect(rgb(at('bar1', bw / 2, 3 + pitch * 1.5))).not.toEqual([0, 0, 255]);
    // At 180° the horn points right of its pivot (0° left, 90° up), so left of the pivot is the body's colour.
    const [sw, sh] = partSize(diagram.parts[2]!);
    const horn = rgb(at('servo1', 0.3 * sw + 0.35 * sh, 0.5 * sh));
    const opposite = rgb(at('servo1', 0.3 * sw - 0.35 * sh, 0.5 * sh));
    expect(horn).toEqual([250, 250, 250]);
    expect(opposite).not.toEqual([250, 250, 250]);
  });

  it('keeps a wide diagram within 800 × 600 pixels, the parts in their order', () => {
    const diagram = parseDiagram(
      JSON.stringify({
        parts: [
          { type: 'wokwi-arduino-mega', id: 'mega', top: 0, left: 0, attrs: {} },
          { type: 'wokwi-led', id: 'far', top: 0, left: 3000, attrs: { color: 'red' } },
        ],
        connections: [['mega:13', 'far:A', 'green', []]],
      }),
      'diagram.json',
    );
    const still = circuitStill(diagram, [{ id: 'far', type: 'wokwi-led', state: 'on', view: { on: true, brightness: 1 } }]);
    const png = readPng(still.png);
    expect(png.width).toBeLessThanOrEqual(STILL_MAX_WIDTH);
    expect(png.height).toBeLessThanOrEqual(STILL_MAX_HEIGHT);
    const [x, y] = imagePoint(diagram, 'far', LED_LENS.x, LED_LENS.y);
    expect(x).toBeGreaterThan(png.width * 0.9);
    expect(rgb(png.pixel(x, y))).toEqual([255, 0, 0]);
  });
});
