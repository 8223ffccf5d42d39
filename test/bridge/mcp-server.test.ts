import http from 'node:http';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type DeviceConsent } from '../../bridge/mcp/hardware-tool.js';
import { startHardwareMcpServer, type HardwareMcpServer } from '../../bridge/mcp/http-server.js';
import { httpServerParts, loadHttpServer } from '../../bridge/mcp/http-server-load.js';

const uploads: string[] = [];
const tools = [
  defineTool({ name: 'list_ports', title: 'Ports', description: 'ports', input: {}, readOnly: true, run: async () => ({ text: '/dev/ttyACM0 Arduino Uno' }) }),
  defineTool({
    name: 'upload',
    title: 'Upload',
    description: 'upload',
    input: { port: z.string() },
    readOnly: false,
    consentQuestion: ({ port }) => ({ question: `upload build/Blink.ino.hex to Arduino Uno on ${port}?`, kind: 'device' as const }),
    run: async ({ port }) => {
      uploads.push(port);
      return { text: `uploaded to ${port}` };
    },
  }),
  defineTool({ name: 'serial_monitor', title: 'Monitor', description: 'flood', input: {}, readOnly: true, run: async () => ({ text: 'x'.repeat(100_000) }) }),
];

let server: HardwareMcpServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
  uploads.length = 0;
});

async function connect(consent: DeviceConsent, token?: string): Promise<Client> {
  server = await startHardwareMcpServer(tools, consent);
  client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token ?? server.token}` } } }));
  return client;
}

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]?.text ?? '');

describe('the hardware MCP server', () => {
  it('loads through each part of its preload (a part the installed MCP SDK no longer has would fail here, not in silence)', async () => {
    const loaded = [];
    for (const part of httpServerParts) loaded.push(await part());
    expect(loaded.at(-1)).toBe(await loadHttpServer());
    expect(typeof (loaded.at(-1) as typeof import('../../bridge/mcp/http-server.js')).startHardwareMcpServer).toBe('function');
  });

  it('listens on 127.0.0.1 only and lists its tools with read-only and destructive annotations', async () => {
    const c = await connect(async () => ({ granted: true }));
    expect(new URL(server!.url).hostname).toBe('127.0.0.1');
    const listed = await c.listTools();
    const byName = Object.fromEntries(listed.tools.map((t) => [t.name, t]));
    expect(byName.list_ports.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.upload.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.upload.inputSchema.properties).toHaveProperty('port');
  });

  it('refuses requests without the bearer token and from a foreign Host', async () => {
    server = await startHardwareMcpServer(tools, async () => ({ granted: true }));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    expect((await fetch(server.url, { method: 'POST', headers, body })).status).toBe(401);
    expect((await fetch(server.url, { method: 'POST', headers: { ...headers, authorization: 'Bearer wrong' }, body })).status).toBe(401);
    const rebinding = await new Promise<number>((resolve) => {
      const url = new URL(server!.url);
      const req = http.request(
        { host: '127.0.0.1', port: url.port, path: '/mcp', method: 'POST', headers: { ...headers, host: 'evil.example:80', authorization: `Bearer ${server!.token}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.end(body);
    });
    expect(rebinding).toBe(403);
  });

  it('asks for consent before a device change and does nothing when refused', async () => {
    const asked: string[] = [];
    const c = await connect(async (_tool, question) => {
      asked.push(question);
      return { granted: false, reason: 'rejected by the person' };
    });
    const result = await c.callTool({ name: 'upload', arguments: { port: '/dev/ttyACM0' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('was not allowed');
    expect(asked).toEqual(['upload build/Blink.ino.hex to Arduino Uno on /dev/ttyACM0?']);
    expect(uploads).toEqual([]);
  });

  it('runs a device change once consent is given', async () => {
    const c = await connect(async () => ({ granted: true }));
    const result = await c.callTool({ name: 'upload', arguments: { port: '/dev/ttyUSB1' } });
    expect(textOf(result)).toBe('uploaded to /dev/ttyUSB1');
    expect(uploads).toEqual(['/dev/ttyUSB1']);
  });

  it('validates tool input against the schema', async () => {
    const c = await connect(async () => ({ granted: true }));
    const result = await c.callTool({ name: 'upload', arguments: { port: 42 } });
    expect(result.isError).toBe(true);
    expect(uploads).toEqual([]);
  });

  it('truncates huge results with a note instead of flooding the agent', async () => {
    const c = await connect(async () => ({ granted: true }));
    const text = textOf(await c.callTool({ name: 'serial_monitor', arguments: {} }));
    expect(text.length).toBeLessThan(20_000);
    expect(text).toContain('earlier characters left out');
  });

  it('serves the same tools over stdio through `boardbridge mcp --connect` (the relay agents start)', async () => {
    server = await startHardwareMcpServer(tools, async () => ({ granted: true }));
    const main = path.join(__dirname, '..', '..', 'dist', 'bridge', 'cli', 'main.js');
    client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [main, 'mcp', '--connect', server.url], env: { ...process.env, BOARDBRIDGE_MCP_TOKEN: server.token } as Record<string, string> }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('list_ports');
    expect(textOf(await client.callTool({ name: 'list_ports', arguments: {} }))).toContain('Arduino Uno');
  });

  it('the stdio relay refuses to start without its token', async () => {
    const main = path.join(__dirname, '..', '..', 'dist', 'bridge', 'cli', 'main.js');
    const child = spawn(process.execPath, [main, 'mcp', '--connect', 'http://127.0.0.1:1/mcp'], { env: { PATH: process.env.PATH } });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(2);
    expect(err).toContain('BOARDBRIDGE_MCP_TOKEN');
  });
});
