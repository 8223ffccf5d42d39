// One live simulation per session: what an agent starts with a terminal's `boardbridge sim start`
// its MCP `sim_*` tools step, and the other way round; another session has its own; the
// session's end ends it. Real arduino-builder build, avr8js run, a real MCP server over HTTP
// and the bridge's real terminal service.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeHardware, type SessionOperations } from '../../bridge/hardware/bridge-hardware.js';
import { startHardwareMcpServer, type HardwareMcpServer } from '../../bridge/mcp/http-server.js';
import { sessionTools } from '../../bridge/mcp/session-tools.js';
import { WorkspaceGuard } from '../../bridge/services/fs/workspace-guard.js';
import { TerminalService } from '../../bridge/services/terminal/terminal-service.js';
import { BUTTONS, BUTTONS_DIAGRAM, circuitSketch } from '../rig/circuit-sketches.js';

const hardware = new BridgeHardware();
const open: Array<{ operations: SessionOperations; server: HardwareMcpServer; client: Client; terminals: TerminalService }> = [];

afterEach(async () => {
  for (const s of open.splice(0)) {
    await s.client.close();
    await s.server.close();
    await s.terminals.releaseAll();
    await s.operations.close();
  }
});

/** A session's two faces over its one operation context, as BridgeSession and the proxy make them. */
async function session(workspace: string) {
  const consent = async () => ({ granted: false, reason: 'nobody is asked here' });
  const operations = hardware.session({ consent });
  const guard = new WorkspaceGuard([workspace]);
  const terminals = new TerminalService({ guard, commands: operations.terminalCommands(), authorize: () => undefined, env: { PATH: process.env.PATH ?? '' } });
  const server = await startHardwareMcpServer(sessionTools({ workspace, board: () => undefined, operations, guard, env: { PATH: process.env.PATH ?? '' } }), consent);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
  open.push({ operations, server, client, terminals });
  const terminal = async (...args: string[]) => {
    const { terminalId } = terminals.create({ sessionId: 's', command: 'boardbridge', args: ['sim', ...args], cwd: workspace });
    const exit = await terminals.waitForExit(terminalId);
    return { exitCode: exit.exitCode, output: terminals.output(terminalId).output };
  };
  const mcp = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }>; isError?: boolean; structuredContent?: Record<string, unknown> };
    return { text: result.content[0]?.text ?? '', isError: Boolean(result.isError), structured: result.structuredContent };
  };
  return { terminal, mcp, operations };
}

describe('one simulation per session, shared by its terminals and its MCP tools', () => {
  it('a terminal starts it, MCP runs it and presses a button, the terminal reads the part it changed, MCP stops it', async () => {
    const dir = circuitSketch('Buttons', BUTTONS, BUTTONS_DIAGRAM);
    const a = await session(dir);
    const started = await a.terminal('start');
    expect(started.exitCode, started.output).toBe(0);
    expect(started.output).toMatch(/Started Arduino UNO \(arduino:avr:uno\) at 0 s with 5 parts from .*diagram\.json; paused/);

    const ready = await a.mcp('sim_run', { until: '^ready' });
    expect(ready.isError, ready.text).toBe(false);
    expect(ready.text).toMatch(/the line "ready" matched/);

    expect((await a.mcp('sim_control', { part: 'btn1', control: 'pressed', value: 1 })).isError).toBe(false);
    const pressed = await a.terminal('run', '--until', 'btn1 falls=1');
    expect(pressed.exitCode, pressed.output).toBe(0);
    expect((await a.terminal('parts')).output).toContain('btn1 (wokwi-pushbutton): pressed');
    expect((await a.mcp('sim_parts')).text).toContain('btn1 (wokwi-pushbutton): pressed');

    // Another session has a simulation of its own: none yet.
    const b = await session(dir);
    const none = await b.mcp('sim_parts');
    expect(none.isError).toBe(true);
    expect(none.text).toContain('no simulation is running');

    expect((await a.mcp('sim_stop')).text).toBe('Stopped.\n');
    const after = await a.terminal('parts');
    expect(after.exitCode).not.toBe(0);
    expect(after.output).toContain('no simulation is running');
  });

  it("the session's end ends its simulation", async () => {
    const dir = circuitSketch('Buttons', BUTTONS, BUTTONS_DIAGRAM);
    const a = await session(dir);
    expect((await a.mcp('sim_start')).isError).toBe(false);
    const live = a.operations.context.simulation.live!;
    expect(live.ended).toBe(false);
    await a.operations.close();
    expect(a.operations.context.simulation.live).toBeUndefined();
    const run = await live.runFor(0.01);
    expect(run.stop).toContain('stopped');
  });
});
