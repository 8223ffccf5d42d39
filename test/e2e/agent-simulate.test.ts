// A real agent (claude-code-acp, offline against the scripted model) checks a sketch on the
// simulated board: the MCP `simulate` tool's answer (serial text and D13's figures) reaches
// the model, the session emits a `simulation` event, and no one is asked for consent
// because no device changes. Then the same through `boardbridge simulate` in its terminal.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextService } from '../../bridge/context/context-service.js';
import { BridgeHardware } from '../../bridge/hardware/bridge-hardware.js';
import { ASK_EVERYTHING, type PendingPermission } from '../../bridge/services/permission/broker.js';
import { BridgeSession } from '../../bridge/session/bridge-session.js';
import type { BridgeEvent } from '../../bridge/session/events.js';
import { allProviders } from '../../context-providers/index.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { claudeCommand } from '../panel/serve-process.js';
import { agentLaunch } from '../support/agents.js';
import { copyOfSketch } from '../rig/sketches.js';
import { claudeSession, ofType, runCli, tempSketch } from './run-cli.js';

const FQBN = 'arduino:avr:uno';
const BLINK = path.join(import.meta.dirname, '../../examples/Blink');
let server: ModelServer | undefined;
const hardware = new BridgeHardware();

afterAll(async () => {
  await hardware.close();
  await server?.close();
});

describe('a real agent simulates the sketch before anyone uploads', () => {
  it('calls the MCP simulate tool and gets the serial text and D13’s period back', async () => {
    const sketch = copyOfSketch(BLINK);
    server = await startModelServer({
      turns: [
        {
          replies: [
            { tool: { claude: { name: 'mcp__boardbridge__simulate', input: { sketch, fqbn: FQBN, for: '2.2s' } } } },
            { say: 'D13 blinks at 1 Hz.' },
          ],
        },
      ],
    });
    const asked: PendingPermission[] = [];
    const events: BridgeEvent[] = [];
    const session = await BridgeSession.start({
      ...claudeSession(server.url, mkdtempSync(path.join(os.tmpdir(), 'bb-agent-sim-'))),
      workspace: sketch,
      policy: ASK_EVERYTHING,
      ask: async (pending) => {
        asked.push(pending);
        return pending.request.options.find((o) => o.kind === 'allow_once')?.optionId;
      },
      contexts: new ContextService(allProviders()),
      hardware,
      selection: { board: FQBN },
      onEvent: (e) => events.push(e),
    });
    try {
      const turn = await session.prompt('Does the LED blink at 1 Hz? Check on the simulator.');
      expect(turn.error?.message).toBeUndefined();
      expect(turn.stopReason).toBe('end_turn');
    } finally {
      await session.close();
    }
    expect(asked.filter((p) => p.category === 'device')).toEqual([]);
    const result = server.requests.filter((r) => r.handledAs === 'script')[1].conversation?.lastToolResult ?? '';
    const answer = JSON.parse(result);
    expect(answer.serial.text).toBe('Blink ready\r\n');
    const d13 = answer.pins.find((pin: { pin: string }) => pin.pin === 'D13');
    expect(d13.periodSeconds).toBeCloseTo(1, 3);
    expect(answer.trace.changes.length).toBeGreaterThan(3);
    const simulation = events.find((e): e is Extract<BridgeEvent, { type: 'simulation' }> => e.type === 'simulation');
    expect(simulation).toMatchObject({ fqbn: FQBN, board: 'Arduino UNO', stop: { reason: 'time' } });
  });

  it('runs `boardbridge simulate` from the agent’s terminal inside the bridge', async () => {
    const sketch = copyOfSketch(BLINK);
    const line = `boardbridge simulate --fqbn ${FQBN} --for 1.2s`;
    server = await startModelServer({
      turns: [{ replies: [{ tool: { claude: { name: 'Bash', input: { command: line, description: 'simulate', timeout: 120000 } } } }, { say: 'Simulated.' }] }],
    });
    const events: BridgeEvent[] = [];
    const session = await BridgeSession.start({
      ...claudeSession(server.url, mkdtempSync(path.join(os.tmpdir(), 'bb-agent-simterm-'))),
      workspace: sketch,
      policy: { reads: true, edits: true, all: true, device: false },
      hardware,
      onEvent: (e) => events.push(e),
    });
    try {
      expect((await session.prompt('Simulate it.')).stopReason).toBe('end_turn');
    } finally {
      await session.close();
    }
    expect(events.filter((e) => e.type === 'terminal_started')).toEqual([expect.objectContaining({ command: line, inProcess: true })]);
    const result = server.requests.filter((r) => r.handledAs === 'script')[1].conversation?.lastToolResult ?? '';
    expect(result).toMatch(/D13: 2 rising edges, period 1\.000 s/);
    expect(events.some((e) => e.type === 'simulation')).toBe(true);
  });

  it('`boardbridge run --json` prints the simulation event on its line', async () => {
    const { root, sketch } = tempSketch();
    server = await startModelServer({
      turns: [{ replies: [{ tool: { claude: { name: 'mcp__boardbridge__simulate', input: { sketch, fqbn: FQBN, for: '1.2s' } } } }, { say: 'Done.' }] }],
    });
    const launch = agentLaunch('claude-code-acp', server.url, root);
    const result = await runCli(['run', 'simulate it', '--json', '--workspace', sketch, '--agent-command', claudeCommand(launch)], {
      env: { ...launch.env, BOARDBRIDGE_STATE_DIR: path.join(root, 'state') },
    });
    expect(result.code, result.stderr).toBe(0);
    const [simulation] = ofType(result.events, 'simulation');
    expect(simulation).toMatchObject({ fqbn: FQBN, serial: { text: 'Blink ready\r\n' }, stop: { reason: 'time' } });
    expect(simulation.pins).toEqual([expect.objectContaining({ pin: 'D13', risingEdges: 2 })]);
  });
});
