// One consent rule for every operation that changes a device or runs the project's own code,
// written as the attacks of issue 21 (finding 3): a raw-REPL payload through MCP serial_write,
// an agent-written Makefile through MCP build. Real ptys (socat), real MicroPython (the micro:bit
// firmware in qemu), real make; the consent function records what the person is asked.
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ConsentKind } from '../../boards/operations.js';
import { BridgeHardware } from '../../bridge/hardware/bridge-hardware.js';
import type { DeviceConsent } from '../../bridge/mcp/hardware-tool.js';
import { startHardwareMcpServer, type HardwareMcpServer } from '../../bridge/mcp/http-server.js';
import type { SessionOperations } from '../../bridge/hardware/bridge-hardware.js';
import { sessionTools } from '../../bridge/mcp/session-tools.js';
import { WorkspaceGuard } from '../../bridge/services/fs/workspace-guard.js';
import { TerminalService } from '../../bridge/services/terminal/terminal-service.js';
import { ownFixtures, removeTempDirs, tempDir } from '../context-providers/mplabx/support.js';
import { openBoardEnd, type BoardEnd } from '../rig/board-end.js';
import { ptyPair, type PtyPair } from '../rig/pty-pair.js';
import { standInUdevadm } from '../rig/stand-in-udevadm.js';
import { startMicrobit, type EmulatedBoard } from '../boards/micropython/emulated-boards.js';
import { until } from '../support/until.js';

interface Asked {
  tool: string;
  question: string;
  kind: ConsentKind;
}

let hardware: BridgeHardware | undefined;
let operations: SessionOperations | undefined;
let server: HardwareMcpServer | undefined;
let client: Client | undefined;
let pair: PtyPair | undefined;
let boardEnd: BoardEnd | undefined;
let board: EmulatedBoard | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  await operations?.close();
  await hardware?.close();
  await boardEnd?.close();
  await pair?.unplug();
  await board?.stop();
  client = server = operations = hardware = boardEnd = pair = board = undefined;
});
afterAll(removeTempDirs);

/** The session's MCP tools over HTTP, with a person who answers `grant` and a record of what was asked. */
async function mcpWith(workspace: string, grant: (asked: Asked) => boolean): Promise<{ client: Client; asked: Asked[] }> {
  const asked: Asked[] = [];
  const consent: DeviceConsent = async (tool, question, kind) => {
    const entry = { tool, question, kind };
    asked.push(entry);
    return grant(entry) ? { granted: true } : { granted: false, reason: 'rejected by the person' };
  };
  hardware = new BridgeHardware();
  operations = hardware.session({ consent });
  const tools = sessionTools({ workspace, board: () => undefined, operations, env: { PATH: process.env.PATH ?? '' } });
  server = await startHardwareMcpServer(tools, consent);
  client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
  return { client, asked };
}

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]?.text ?? '');

/** A copy of the avr-blink.X project whose Makefile the agent replaced: its build target leaves a marker file. */
function projectWithAgentMakefile(): { folder: string; marker: string } {
  const folder = join(tempDir('consent-build-'), 'avr-blink.X');
  cpSync(join(ownFixtures, 'avr-blink.X'), folder, { recursive: true });
  const marker = join(folder, '..', 'the-makefile-ran');
  writeFileSync(join(folder, 'Makefile'), `build:\n\ttouch ${marker}\n`);
  return { folder, marker };
}

describe('MCP serial_write to a MicroPython board (socat pty pair standing in for the board)', () => {
  const payload = '\x03\x01import os; os.remove("main.py")\x04';

  it('asks the person before raw-REPL control bytes, and a refusal sends no byte to the board', async () => {
    pair = await ptyPair();
    boardEnd = await openBoardEnd(pair.board);
    const { client: c, asked } = await mcpWith(process.cwd(), () => false);
    const refused = await c.callTool({ name: 'serial_write', arguments: { port: pair.device, baud: 115200, data: payload, lineEnding: 'none' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('was not allowed');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: 'serial_write', kind: 'device' });
    expect(asked[0].question).toContain(pair.device);
    expect(asked[0].question).toContain(JSON.stringify(payload));
    // A plain line to a port nobody knows as MicroPython needs no question; it is the first byte the board sees.
    const plain = await c.callTool({ name: 'serial_write', arguments: { port: pair.device, baud: 115200, data: 'hello' } });
    expect(plain.isError).toBe(false);
    await until('the plain line arriving', () => boardEnd!.received().includes('hello\n'));
    expect(boardEnd.received().toString('latin1')).toBe('hello\n');
    expect(asked).toHaveLength(1);
  });

  it('sends the payload once the person allows it', async () => {
    pair = await ptyPair();
    boardEnd = await openBoardEnd(pair.board);
    const { client: c, asked } = await mcpWith(process.cwd(), () => true);
    const sent = await c.callTool({ name: 'serial_write', arguments: { port: pair.device, baud: 115200, data: payload, lineEnding: 'none' } });
    expect(sent.isError).toBe(false);
    await until('the payload arriving', () => boardEnd!.received().includes('\x04'));
    expect(boardEnd.received().toString('latin1')).toBe(payload);
    expect(asked.map((a) => a.kind)).toEqual(['device']);
  });

  it('asks before a plain line to a port whose USB id is an OpenMV camera (udevadm is a stand-in: no udev here)', async () => {
    pair = await ptyPair();
    boardEnd = await openBoardEnd(pair.board);
    const path = process.env.PATH;
    process.env.PATH = `${standInUdevadm([{ path: pair.device, vid: '1209', pid: 'abd1', serial: '1', vendor: 'OpenMV' }])}:${path ?? ''}`;
    try {
      const { client: c, asked } = await mcpWith(process.cwd(), () => false);
      const refused = await c.callTool({ name: 'serial_write', arguments: { port: pair.device, baud: 115200, data: 'import os; os.remove("main.py")' } });
      expect(refused.isError).toBe(true);
      expect(asked).toHaveLength(1);
      expect(asked[0].question).toContain('OpenMV Cam');
      expect(boardEnd.received().length).toBe(0);
    } finally {
      process.env.PATH = path;
    }
  });

  it('asks before a plain line to a port where camera_info found a MicroPython REPL (real MicroPython on an emulated micro:bit)', async () => {
    board = await startMicrobit();
    const { client: c, asked } = await mcpWith(process.cwd(), () => false);
    const info = await c.callTool({ name: 'camera_info', arguments: { port: board.path } });
    expect(textOf(info)).toContain('MicroPython');
    expect(asked).toEqual([]);
    const refused = await c.callTool({ name: 'serial_write', arguments: { port: board.path, baud: 115200, data: 'import os; os.remove("main.py")', lineEnding: 'crlf' } });
    expect(refused.isError).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0].question).toContain('MicroPython REPL');
  });
});

describe('MCP build of an MPLAB X project whose Makefile the agent wrote (real make)', () => {
  it('asks the person first, as a terminal make is asked, and a refusal runs nothing', async () => {
    const { folder, marker } = projectWithAgentMakefile();
    const { client: c, asked } = await mcpWith(join(folder, '..'), () => false);
    const refused = await c.callTool({ name: 'build', arguments: { project: folder, conf: 'default' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('was not allowed');
    expect(asked).toEqual([{ tool: 'build', kind: 'project-code', question: expect.stringContaining(folder) as string }]);
    expect(existsSync(marker)).toBe(false);
  });

  it('runs the Makefile once the person allows it', async () => {
    const { folder, marker } = projectWithAgentMakefile();
    const { client: c, asked } = await mcpWith(join(folder, '..'), () => true);
    await c.callTool({ name: 'build', arguments: { project: folder, conf: 'default' } });
    expect(asked.map((a) => a.kind)).toEqual(['project-code']);
    expect(existsSync(marker)).toBe(true);
  });
});

describe('board commands in agent terminals follow the same operation table', () => {
  function terminalsWith(consent: DeviceConsent, authorize: (line: string) => string | undefined): TerminalService {
    hardware = new BridgeHardware();
    return new TerminalService({ guard: new WorkspaceGuard([process.cwd()]), commands: hardware.commands(consent, 'the agent (terminal)'), authorize, env: {} });
  }

  it('camera-info only reads there too: it runs without a grant, as the read-only camera_info tool does', async () => {
    const terminals = terminalsWith(async () => ({ granted: false }), () => 'no grant');
    const { terminalId } = terminals.create({ sessionId: 's', command: 'boardbridge', args: ['camera-info', '--port', '/dev/bb-no-such-port'] });
    const exit = await terminals.waitForExit(terminalId);
    expect(exit.exitCode).toBe(1);
    expect(terminals.output(terminalId).output).toContain('/dev/bb-no-such-port');
    await terminals.releaseAll();
  });

  it('a granted `boardbridge build` still asks before the project\'s Makefile runs', async () => {
    const { folder, marker } = projectWithAgentMakefile();
    const kinds: ConsentKind[] = [];
    const terminals = terminalsWith(async (_tool, _question, kind) => {
      kinds.push(kind);
      return { granted: false };
    }, () => undefined);
    const { terminalId } = terminals.create({ sessionId: 's', command: 'boardbridge', args: ['build', folder, '--conf', 'default'] });
    expect((await terminals.waitForExit(terminalId)).exitCode).toBe(1);
    expect(kinds).toEqual(['project-code']);
    expect(existsSync(marker)).toBe(false);
    await terminals.releaseAll();
  });
});
