// The interactive simulation an agent steers through MCP tools (the same `boardbridge sim`
// command a terminal runs): start paused, run until a serial line, press a button, read a part
// pin and the part states, restart, stop. Real arduino-builder build, avr8js run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArduinoBuilder, debianLayout, SerialHub } from '../../../boards/index.js';
import { operationContext } from '../../../boards/operation-context.js';
import { operationTools } from '../../../bridge/mcp/command-tools.js';
import { BUTTONS, BUTTONS_DIAGRAM, circuitSketch } from '../../rig/circuit-sketches.js';
import { FIXTURES } from '../../context-providers/arduino/paths.js';

const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout(join(FIXTURES, 'sketchbook')));

describe('the interactive simulation tools', () => {
  it('start, run until a line, set a control, read a pin and the parts, restart and stop', async () => {
    const dir = circuitSketch('Buttons', BUTTONS, BUTTONS_DIAGRAM);
    const tools = operationTools(operationContext({ hub: new SerialHub(), tool: builder, requestUploadConsent: async () => undefined }), { cwd: dir, env: {} });
    const signal = new AbortController().signal;
    const call = async (name: string, input: Record<string, unknown> = {}) => {
      const tool = tools.find((t) => t.name === name)!;
      expect(tool.destructive).toBeFalsy();
      return tool.run(input, signal);
    };
    const started = await call('sim_start');
    expect(started.isError, started.text).toBe(false);
    expect(started.text).toMatch(/Started Arduino UNO \(arduino:avr:uno\) at 0 s with 5 parts from .*diagram\.json; paused/);

    const ready = await call('sim_run', { until: '^ready' });
    expect(ready.text).toMatch(/^At 0\.0\d\d s simulated: the line "ready" matched \/\^ready\/\.\nSerial:\nready\r?\n/);
    expect((await call('sim_pin', { part: 'led1', pin: 'A' })).text).toMatch(/^led1:A = 0 at /);

    expect((await call('sim_control', { part: 'sw1', control: 'value', value: 1 })).isError).toBe(false);
    const moved = await call('sim_run', { for: '50ms' });
    expect(moved.text).toContain('the asked time passed');
    expect(moved.text).toContain('  led1 (wokwi-led): on');
    expect((await call('sim_pin', { part: 'led1', pin: 'A' })).text).toMatch(/^led1:A = 1 at 0\.0\d\d s/);

    await call('sim_control', { part: 'btn1', control: 'pressed', value: 1 });
    const pressed = await call('sim_run', { until: 'btn1 falls=1' });
    expect(pressed.text).toContain('the line "btn1 falls=1" matched');
    expect((await call('sim_parts')).text).toContain('btn1 (wokwi-pushbutton): pressed');
    expect((await call('sim_serial_read')).text).toContain('btn1 falls=1');
    expect((await call('sim_serial_read')).text).toBe('(no new serial output)\n');

    const bad = await call('sim_control', { part: 'btn1', control: 'position', value: 1 });
    expect(bad).toEqual({ text: 'a wokwi-pushbutton has the control "pressed" (1 or 0), not "position"\n', isError: true });

    expect((await call('sim_restart')).text).toBe('Restarted at 0 s; paused.\n');
    const again = await call('sim_run', { for: '20ms' });
    expect(again.text).toMatch(/^At 0\.020 s simulated: the asked time passed/);
    expect(again.text).toContain('  led1 (wokwi-led): off');
    expect((await call('sim_stop')).text).toBe('Stopped.\n');
    expect((await call('sim_parts')).isError).toBe(true);
  });

  it('the simulate tool runs a scenario and answers with the outcome and the part states as JSON', async () => {
    const dir = circuitSketch('Buttons', BUTTONS, BUTTONS_DIAGRAM);
    writeFileSync(join(dir, 'lit.test.yaml'), 'name: lit\nversion: 1\nsteps:\n  - wait-serial: ready\n  - name: dark at first\n    expect-pin: { part-id: led1, name: A, value: 1 }\n');
    const tools = operationTools(operationContext({ hub: new SerialHub(), tool: builder, requestUploadConsent: async () => undefined }), { cwd: dir, env: {} });
    const answer = await tools.find((t) => t.name === 'simulate')!.run({ scenario: 'lit.test.yaml' }, new AbortController().signal);
    expect(answer.isError).toBe(true);
    const json = JSON.parse(answer.text);
    expect(json.scenario).toMatchObject({ passed: false, name: 'lit', failure: { step: 2, name: 'dark at first', expected: 'led1:A = 1', seen: 'led1:A = 0' } });
    expect(json.circuit.parts.map((part: { id: string }) => part.id)).toEqual(['btn1', 'btn2', 'sw1', 'led1']);
    expect(json.diagram).toBe(join(dir, 'diagram.json'));
  });
});
