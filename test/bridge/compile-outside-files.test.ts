// Compile output never quotes a file the fs guard would refuse (issue 21, finding 3): a sketch
// that includes a file outside the workspace gets "a file outside the workspace", not the file's
// lines, through the MCP compile tool and a terminal's `boardbridge compile --verbose`. Real
// arduino-builder and avr-gcc.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeHardware } from '../../bridge/hardware/bridge-hardware.js';
import { startHardwareMcpServer, type HardwareMcpServer } from '../../bridge/mcp/http-server.js';
import { sessionTools } from '../../bridge/mcp/session-tools.js';
import { WorkspaceGuard } from '../../bridge/services/fs/workspace-guard.js';
import { TerminalService } from '../../bridge/services/terminal/terminal-service.js';
import { sketchFolder } from '../rig/sketches.js';

const SECRET = 'hunter2_d41d8cd9';

/** A workspace whose sketch includes a secret header outside it, by absolute path and through `..` from the build copy (build/<fqbn>/sketch/), and has an error of its own on line 4. */
function sketchWithOutsideInclude(): { workspace: string; sketch: string } {
  const root = mkdtempSync(join(tmpdir(), 'bb-outside-'));
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.h'), `api_key = "${SECRET}";\nSECRET_LINE_TWO ${SECRET}\n`);
  writeFileSync(join(outside, 'other.h'), `password ${SECRET}_2\n`);
  const workspace = join(root, 'workspace');
  const sketch = sketchFolder('Leaky', `#include "${join(outside, 'secret.h')}"\n#include "../../../../../outside/other.h"\nvoid setup() {\n  undeclaredThing = 3;\n}\nvoid loop() {}\n`, workspace);
  return { workspace, sketch };
}

let hardware: BridgeHardware | undefined;
let server: HardwareMcpServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  await hardware?.close();
  client = server = hardware = undefined;
});

function expectNoSecret(text: string): void {
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain('api_key');
  expect(text).not.toContain('SECRET_LINE_TWO');
  expect(text).not.toContain('password');
  expect(text).toContain('a file outside the workspace');
}

describe('compiling a sketch that includes a file outside the workspace', () => {
  it('MCP compile cuts the outside file out of its diagnostics and still points at the sketch\'s own error', async () => {
    const { workspace, sketch } = sketchWithOutsideInclude();
    hardware = new BridgeHardware();
    const consent = async () => ({ granted: false });
    const tools = sessionTools({ workspace, board: () => undefined, operations: hardware.session({ consent }), guard: new WorkspaceGuard([workspace]), env: { PATH: process.env.PATH ?? '' } });
    server = await startHardwareMcpServer(tools, consent);
    client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }));
    const result = await client.callTool({ name: 'compile', arguments: { sketch, fqbn: 'arduino:avr:uno' } });
    const text = (result as { content: Array<{ text: string }> }).content[0].text;
    expect(result.isError).toBe(true);
    expectNoSecret(text);
    expect(text).toMatch(/Leaky\.ino:4:3: error: 'undeclaredThing' was not declared/);
  });

  it('a terminal\'s `boardbridge compile --verbose` cuts the raw compiler lines of the outside file too', async () => {
    const { workspace, sketch } = sketchWithOutsideInclude();
    hardware = new BridgeHardware();
    const terminals = new TerminalService({
      guard: new WorkspaceGuard([workspace]),
      commands: hardware.commands(async () => ({ granted: false }), 'the agent (terminal)'),
      authorize: () => undefined,
      env: {},
    });
    const { terminalId } = terminals.create({ sessionId: 's', command: 'boardbridge', args: ['compile', sketch, '--fqbn', 'arduino:avr:uno', '--verbose'], cwd: workspace });
    expect((await terminals.waitForExit(terminalId)).exitCode).toBe(1);
    const { output } = terminals.output(terminalId);
    expectNoSecret(output);
    expect(output).toContain("'undeclaredThing' was not declared");
    await terminals.releaseAll();
  });
});
