// A real agent (claude-code-acp, offline against the scripted model) uses the
// bridge's hardware MCP tools on an emulated Arduino Uno (simavr + ATmegaBOOT on
// a pty): compile, an upload the person must allow (twice), and serial_expect reading
// what the freshly uploaded sketch prints.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextService } from '../../bridge/context/context-service.js';
import { BridgeHardware } from '../../bridge/hardware/bridge-hardware.js';
import { ASK_EVERYTHING, type PendingPermission } from '../../bridge/services/permission/broker.js';
import { BridgeSession } from '../../bridge/session/bridge-session.js';
import type { BridgeEvent } from '../../bridge/session/events.js';
import { allProviders } from '../../context-providers/index.js';
import { startModelServer, type ModelServer } from '../support/model-server/index.js';
import { startEmulatedUno, type EmulatedUno } from '../rig/emulated-uno.js';
import { GREETER, sketchFolder } from '../rig/sketches.js';
import { claudeSession } from './run-cli.js';

const FQBN = 'arduino:avr:uno';
let uno: EmulatedUno;
let server: ModelServer | undefined;
let hardware: BridgeHardware | undefined;

beforeAll(async () => {
  uno = await startEmulatedUno();
});
afterAll(async () => {
  await hardware?.close();
  await server?.close();
  await uno?.stop();
});

describe('a real agent on an emulated Uno through the hardware MCP tools', () => {
  it('compiles, uploads after the person allows it, and sees the sketch print through serial_expect', async () => {
    const sketch = sketchFolder('Greeter', GREETER);
    const tool = (name: string, input: Record<string, unknown>) => ({ tool: { claude: { name: `mcp__boardbridge__${name}`, input } } });
    server = await startModelServer({
      turns: [
        {
          replies: [
            tool('compile', { sketch, fqbn: FQBN }),
            tool('upload', { sketch, fqbn: FQBN, port: uno.port }),
            tool('serial_expect', { port: uno.port, baud: 115200, pattern: 'hello from the emulated uno', timeoutMs: 30000 }),
            { say: 'The Uno greets us.' },
          ],
        },
      ],
    });
    const root = mkdtempSync(path.join(os.tmpdir(), 'bb-agent-board-'));
    const asked: PendingPermission[] = [];
    const events: BridgeEvent[] = [];
    hardware = new BridgeHardware();
    const session = await BridgeSession.start({
      ...claudeSession(server.url, root),
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
      const turn = await session.prompt('Build it, put it on the board on ' + uno.port + ' and check that it says hello');
      expect(turn.error?.message).toBeUndefined();
      expect(turn.stopReason).toBe('end_turn');
    } finally {
      await session.close();
    }
    // compile and serial_expect ran unasked; the upload was asked twice: the agent's request for our
    // tool (as a device change: its title alone never allows it), then the tool's own exact question.
    expect(asked.map((p) => p.request.toolCall.title)).toEqual([
      'mcp__boardbridge__upload',
      expect.stringMatching(new RegExp(`^upload .*Greeter\\.ino\\.hex to .* on ${uno.port.replace(/[/.]/g, '\\$&')}\\?$`)),
    ]);
    expect(asked.map((p) => p.category)).toEqual(['device', 'device']);
    const results = server.requests.filter((r) => r.handledAs === 'script').map((r) => r.conversation?.lastToolResult ?? '');
    expect(results[1]).toMatch(/Flash: \d+ of 32256 bytes/);
    expect(results[2]).toMatch(/Uploaded .*Greeter\.ino\.hex/);
    expect(results[3]).toContain('matched "hello from the emulated uno"');
    const completed = events.filter((e): e is Extract<BridgeEvent, { type: 'tool_call' }> => e.type === 'tool_call' && e.toolCall.status === 'completed');
    expect(new Set(completed.map((e) => e.toolCall.toolCallId)).size).toBe(3);
  });

  it('runs `boardbridge monitor` from the agent\'s terminal inside the bridge, on the same hub', async () => {
    const sketch = sketchFolder('Watcher', GREETER);
    const monitorLine = `boardbridge monitor --port ${uno.port} --baud 115200 --until "tick [0-9]+"`;
    server = await startModelServer({
      turns: [{ replies: [{ tool: { claude: { name: 'Bash', input: { command: monitorLine, description: 'watch the board', timeout: 60000 } } } }, { say: 'It ticks.' }] }],
    });
    const root = mkdtempSync(path.join(os.tmpdir(), 'bb-agent-term-'));
    const events: BridgeEvent[] = [];
    hardware ??= new BridgeHardware();
    const session = await BridgeSession.start({
      ...claudeSession(server.url, root),
      workspace: sketch,
      policy: { reads: true, edits: true, all: true, device: false },
      hardware,
      onEvent: (e) => events.push(e),
    });
    try {
      expect((await session.prompt('What does the board print?')).stopReason).toBe('end_turn');
    } finally {
      await session.close();
    }
    const started = events.filter((e): e is Extract<BridgeEvent, { type: 'terminal_started' }> => e.type === 'terminal_started');
    expect(started).toEqual([expect.objectContaining({ command: monitorLine, inProcess: true })]);
    expect(events.find((e) => e.type === 'terminal_exited')).toMatchObject({ exitCode: 0 });
    const result = server.requests.filter((r) => r.handledAs === 'script')[1].conversation?.lastToolResult ?? '';
    expect(result).toMatch(/tick \d+/);
    expect(hardware.hub.holder(uno.port)).toBeUndefined();
  });
});
