// The panel hub's circuit run without a browser: a page sends circuit_start, the counter sketch
// is built (real arduino-builder) and runs paced to the wall clock with its diagram's parts; what
// each part shows reaches the page as `parts` messages, each part at most once a step and only
// when it changed; the page's button press goes to the run; a bad control is refused with a
// reason; the run ends when the last page leaves.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArduinoBuilder, debianLayout, SerialHub } from '../../boards/index.js';
import { CIRCUIT_STEP_SECONDS } from '../../bridge/panel/circuit-run.js';
import { PanelHub } from '../../bridge/panel/panel-hub.js';
import type { ServerMessage } from '../../bridge/panel/protocol.js';
import { FIXTURES } from '../context-providers/arduino/paths.js';
import { COUNTER, COUNTER_DIAGRAM, circuitSketch } from '../rig/circuit-sketches.js';

const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout(join(FIXTURES, 'sketchbook')));
type Parts = Extract<ServerMessage, { type: 'parts' }>;
type CircuitState = Extract<ServerMessage, { type: 'circuit' }>;

describe('the panel’s circuit run', () => {
  it('sends the parts as they change, bounded per step, takes a press from the page and ends with the last page', async () => {
    const dir = circuitSketch('Counter', COUNTER, COUNTER_DIAGRAM);
    const hub = new PanelHub({ workspace: dir, boardDeps: { hub: new SerialHub(), tool: builder, requestUploadConsent: async () => undefined } });
    const got: ServerMessage[] = [];
    const page = hub.connect({ send: (message) => got.push(message) });
    const circuits = () => got.filter((m): m is CircuitState => m.type === 'circuit');
    const parts = () => got.filter((m): m is Parts => m.type === 'parts');
    const until = async (what: () => boolean) => {
      for (let i = 0; i < 6000 && !what(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(what()).toBe(true);
    };
    const shows = (id: string, state: string) => () => parts().some((m) => m.parts.some((p) => p.id === id && p.state === state));

    // Before any run the page already has the diagram to draw, at its positions.
    expect(circuits()[0]).toMatchObject({ running: false, layout: { file: join(dir, 'diagram.json') } });
    expect(circuits()[0].layout!.parts.find((p) => p.id === 'r1')).toEqual({ id: 'r1', type: 'wokwi-resistor', top: -62, left: 104, rotate: 90, attrs: { value: '220' } });
    expect(circuits()[0].layout!.wires[0]).toEqual({ from: 'uno:9', to: 'r1:2', color: 'orange' });

    await page.receive(JSON.stringify({ type: 'circuit_start' }));
    expect(circuits().at(-1)).toMatchObject({ running: true, board: 'Arduino UNO (arduino:avr:uno)' });
    await until(shows('sevseg1', 'shows "0"'));
    await until(shows('led1', 'on 50 %'));
    const led = parts().flatMap((m) => m.parts).find((p) => p.id === 'led1' && p.state === 'on 50 %')!;
    expect(led.view.on).toBe(true);
    expect(led.view.brightness as number).toBeCloseTo(0.5, 1);
    expect(parts().flatMap((m) => m.parts).find((p) => p.id === 'sevseg1' && p.state === 'shows "0"')!.view).toEqual({ segments: [1, 1, 1, 1, 1, 1, 0, 0] });

    await page.receive(JSON.stringify({ type: 'circuit_control', part: 'btn1', control: 'pressed', value: 1 }));
    await page.receive(JSON.stringify({ type: 'circuit_control', part: 'btn1', control: 'pressed', value: 0 }));
    await until(shows('sevseg1', 'shows "1"'));
    await until(() => parts().some((m) => m.serial?.includes('count=1')));
    // The press and the release came in one step but reached the run a step apart.
    const btnLooks = () => parts().flatMap((m) => m.parts.filter((p) => p.id === 'btn1').map((p) => ({ at: m.atSeconds, state: p.state })));
    await until(() => btnLooks().length >= 3);
    const btn = btnLooks();
    expect(btn.map((b) => b.state)).toEqual(['released', 'pressed', 'released']);
    expect(btn[2].at - btn[1].at).toBeGreaterThanOrEqual(CIRCUIT_STEP_SECONDS - 1e-9);

    // Bounded and coalesced: a part is in a message at most once, and a message comes at most once a step.
    for (const m of parts()) expect(new Set(m.parts.map((p) => p.id)).size).toBe(m.parts.length);
    const times = parts().map((m) => m.atSeconds);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(CIRCUIT_STEP_SECONDS - 1e-9);
    // Only changes: the LED's steady half brightness was sent once.
    expect(parts().flatMap((m) => m.parts).filter((p) => p.id === 'led1' && p.state === 'on 50 %')).toHaveLength(1);

    const refused: ServerMessage[] = [];
    const other = hub.connect({ send: (message) => refused.push(message) });
    await other.receive(JSON.stringify({ type: 'circuit_control', part: 'nobody', control: 'pressed', value: 1 }));
    expect(refused.at(-1)).toEqual({ type: 'problem', message: 'the diagram has no part "nobody" the simulator models' });
    await other.receive(JSON.stringify({ type: 'circuit_control', part: 'btn1', control: 'pressed' }));
    expect(refused.at(-1)).toEqual({ type: 'problem', message: 'circuit_control needs a part, a control and a number value' });
    // A late page gets the run's state and every part as it is now.
    expect(refused.find((m) => m.type === 'circuit')).toMatchObject({ running: true });
    expect((refused.find((m) => m.type === 'parts') as Parts).parts.map((p) => p.id)).toEqual(['sevseg1', 'led1', 'btn1']);

    other.leave();
    expect(circuits().at(-1)!.running).toBe(true);
    page.leave();
    const later: ServerMessage[] = [];
    hub.connect({ send: (message) => later.push(message) });
    expect(later.find((m) => m.type === 'circuit')).toMatchObject({ running: false, stopped: 'no page is open' });
    await hub.close();
  }, 300_000);
});
