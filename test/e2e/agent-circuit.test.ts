// The real claude-code-acp (offline, scripted model) works a circuit through the bridge's MCP
// sim_* tools: starts the counter sketch with its diagram.json (real arduino-builder build,
// avr8js run), runs until it prints, presses the button, reads the 7-segment digit from the part
// states, stops, and ends the turn. The digit the agent read is the one the sketch shows after
// one press, no one is asked for consent (no device changes), the model's first request
// carries the Wiring section of the hardware context, and each sim_run answer reached the model
// with a PNG still of the circuit.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextService } from '../../bridge/context/context-service.js';
import { BridgeHardware } from '../../bridge/hardware/bridge-hardware.js';
import { ASK_EVERYTHING, type PendingPermission } from '../../bridge/services/permission/broker.js';
import { BridgeSession } from '../../bridge/session/bridge-session.js';
import { allProviders } from '../../context-providers/index.js';
import { COUNTER, COUNTER_DIAGRAM, circuitSketch } from '../rig/circuit-sketches.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { claudeSession } from './run-cli.js';

let server: ModelServer | undefined;
const hardware = new BridgeHardware();

afterAll(async () => {
  await hardware.close();
  await server?.close();
});

type Block = { type: string; content?: string | Block[]; source?: { type: string; media_type?: string; data?: string } };
/** The blocks of the last tool_result in a model request (Anthropic Messages API). */
function lastToolResultBlocks(body: unknown): Block[] {
  const messages = (body as { messages: Array<{ content: string | Block[] }> }).messages;
  const results = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result');
  const content = results.at(-1)?.content;
  return Array.isArray(content) ? content : [];
}

const tool = (name: string, input: Record<string, unknown> = {}) => ({ tool: { claude: { name: `mcp__boardbridge__${name}`, input } } });

describe('a real agent presses a button on the simulated circuit', () => {
  it('starts the simulation through MCP, presses btn1, reads the digit 1 on sevseg1, stops and finishes', async () => {
    const sketch = circuitSketch('Counter', COUNTER, COUNTER_DIAGRAM);
    writeFileSync(path.join(sketch, 'sketch.yaml'), 'default_fqbn: arduino:avr:uno\n');
    server = await startModelServer({
      turns: [
        {
          replies: [
            tool('sim_start'),
            tool('sim_run', { until: '^count=0' }),
            tool('sim_control', { part: 'btn1', control: 'pressed', value: 1 }),
            tool('sim_run', { for: '100ms' }),
            tool('sim_control', { part: 'btn1', control: 'pressed', value: 0 }),
            tool('sim_run', { for: '100ms' }),
            tool('sim_parts'),
            tool('sim_stop'),
            { say: 'After one press the display shows 1.' },
          ],
        },
      ],
    });
    const asked: PendingPermission[] = [];
    const session = await BridgeSession.start({
      ...claudeSession(server.url, mkdtempSync(path.join(os.tmpdir(), 'bb-agent-circuit-'))),
      workspace: sketch,
      policy: ASK_EVERYTHING,
      ask: async (pending) => {
        asked.push(pending);
        return pending.request.options.find((o) => o.kind === 'allow_once')?.optionId;
      },
      contexts: new ContextService(allProviders()),
      hardware,
      selection: { board: 'arduino:avr:uno' },
    });
    try {
      const turn = await session.prompt('Press the button once on the simulator and tell me what the display shows.');
      expect(turn.error?.message).toBeUndefined();
      expect(turn.stopReason).toBe('end_turn');
    } finally {
      await session.close();
    }
    expect(asked.filter((p) => p.category === 'device')).toEqual([]);
    const scripted = server.requests.filter((r) => r.handledAs === 'script');
    const result = (k: number) => scripted[k]?.conversation?.lastToolResult ?? '';
    expect(result(1)).toMatch(/Started Arduino UNO \(arduino:avr:uno\) at 0 s with 4 parts from .*diagram\.json; paused/);
    expect(result(2)).toMatch(/the line "count=0" matched/);
    expect(result(3)).toMatch(/^btn1 pressed = 1 at 0\.\d{3} s/);
    expect(result(4)).toContain('count=1');
    // What the agent read: the digit after one press.
    expect(result(7)).toContain('sevseg1 (wokwi-7segment): shows "1"');
    expect(result(7)).toContain('btn1 (wokwi-pushbutton): released');
    expect(result(7)).toContain('led1 (wokwi-led): on 50 %');
    expect(result(8)).toBe('Stopped.\n');
    // The model saw the circuit: each sim_run result holds a PNG still beside its text (claude-code-acp takes images).
    const images = (k: number) => lastToolResultBlocks(scripted[k]!.body).filter((b) => b.type === 'image');
    for (const k of [2, 4, 6]) {
      expect(images(k)).toHaveLength(1);
      expect(images(k)[0]!.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
      expect(Buffer.from(images(k)[0]!.source!.data!, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    }
    expect(images(7)).toEqual([]);
    expect(scripted).toHaveLength(9);
    // The hardware context the bridge gave the agent names what each pin is wired to.
    const first = JSON.stringify((scripted[0].body as { messages: unknown }).messages);
    expect(first).toContain('D2 → btn1');
    expect(first).toContain('D9 → led1 anode through r1');
  }, 300_000);
});
