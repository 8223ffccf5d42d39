// What the bundled `boardbridge` (dist/cli/boardbridge.cjs) does before the agent it starts is
// running, and what it leaves unloaded. `boardbridge acp` and `run` start the agent before they
// load the ACP SDK, the proxy or the session, so the agent and the bridge start side by side; the
// board packages (serialport, execa, yaml) load only when a board operation needs them, and the
// MCP SDK (for the session's board tools) while the agent initializes. Seen through Node's own module hooks
// (every module the CLI resolves, in order) and child_process.spawn, logged to one file by a
// preload (--import) the test writes; the agent is the stand-in (test/support/standin-agent.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './run-cli.js';

const bundle = path.join(repoRoot, 'dist', 'cli', 'boardbridge.cjs');
const standin = path.join(repoRoot, 'test', 'support', 'standin-agent.mjs');
const agentCommand = `${process.execPath} ${standin}`;
const work = mkdtempSync(path.join(os.tmpdir(), 'bb-start-order-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The preload: registers a resolve hook (Node runs it on its hooks thread) and wraps spawn; both
// append to $BB_LOAD_LOG, the hook each resolved URL, the wrapper each command line.
writeFileSync(
  path.join(work, 'preload.mjs'),
  `import { register, syncBuiltinESMExports } from 'node:module';
import { appendFileSync } from 'node:fs';
import childProcess from 'node:child_process';
const log = process.env.BB_LOAD_LOG;
register('./hooks.mjs', import.meta.url, { data: { log } });
const spawn = childProcess.spawn;
childProcess.spawn = function (command, args, ...rest) {
  appendFileSync(log, 'spawn ' + [command, ...(Array.isArray(args) ? args : [])].join(' ') + '\\n');
  return spawn.call(this, command, args, ...rest);
};
syncBuiltinESMExports();
`,
);
writeFileSync(
  path.join(work, 'hooks.mjs'),
  `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, 'resolve ' + resolved.url + '\\n');
  return resolved;
}
`,
);

let runs = 0;
function loadLog(): string {
  return path.join(work, `load-${++runs}.log`);
}

function cliProcess(log: string, args: string[], cwd = repoRoot) {
  return spawn(process.execPath, ['--import', path.join(work, 'preload.mjs'), bundle, ...args], {
    cwd,
    env: { ...process.env, BB_LOAD_LOG: log, BOARDBRIDGE_STATE_DIR: path.join(work, 'state') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** The log's lines, with a line `--- <mark>` where the test noted a point of the session. */
const lines = (log: string): string[] => readFileSync(log, 'utf8').split('\n').filter(Boolean);
const firstIndex = (entries: string[], test: (line: string) => boolean): number => entries.findIndex(test);
const resolves = (entries: string[], packagePath: string): boolean => entries.some((line) => line.startsWith('resolve ') && line.includes(`/node_modules/${packagePath}/`));
const isAgentSpawn = (line: string) => line.startsWith('spawn ') && line.includes(standin);
const isAcpSdk = (line: string) => line.startsWith('resolve ') && line.includes('/node_modules/@agentclientprotocol/sdk/');

describe('what the bundled CLI loads before and after it starts the agent', { timeout: 60_000 }, () => {
  it('acp: the agent starts before the ACP SDK, the proxy and the MCP SDK load; initialize and session/new load no board package', async () => {
    const log = loadLog();
    const child = cliProcess(log, ['acp', '--log-file', path.join(work, 'acp.log'), '--agent-command', agentCommand]);
    const answers = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number; method?: string; result?: unknown; error?: unknown };
      if (message.id !== undefined && message.method === undefined) answers.get(message.id)?.(message);
    });
    const request = (id: number, method: string, params: object) =>
      new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
        answers.set(id, resolve);
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      });
    try {
      expect((await request(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} })).error).toBeUndefined();
      const atInitialize = lines(log);
      expect((await request(2, 'session/new', { cwd: work, mcpServers: [] })).error).toBeUndefined();
      const atSession = lines(log);

      const agentStarted = firstIndex(atInitialize, isAgentSpawn);
      expect(agentStarted).toBeGreaterThan(-1);
      // The proxy needs the SDK to answer initialize; it loads once the agent runs.
      const sdkLoaded = firstIndex(atInitialize, isAcpSdk);
      expect(sdkLoaded).toBeGreaterThan(agentStarted);
      expect(atInitialize.slice(0, agentStarted).some((line) => /\/chunks\/acp-proxy-[^/]*\.js$/.test(line))).toBe(false);

      // session/new offers the agent the board tools: the MCP server (its SDK loads while the agent
      // initializes, session-kit.ts preloadBoardServer), not yet any tool's package.
      const mcpLoaded = firstIndex(atSession, (line) => line.startsWith('resolve ') && line.includes('/node_modules/@modelcontextprotocol/sdk/'));
      expect(mcpLoaded).toBeGreaterThan(agentStarted);
      for (const board of ['serialport', 'execa', 'yaml']) expect(resolves(atSession, board), board).toBe(false);
    } finally {
      child.kill();
    }
  });

  it('run: the agent starts before the session and the ACP SDK load, and a turn without a board operation loads no board package', async () => {
    const log = loadLog();
    const child = cliProcess(log, ['run', '--json', '--agent-command', agentCommand, work, 'hello'], work);
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toContain('"stopReason":"end_turn"');
    const entries = lines(log);
    const agentStarted = firstIndex(entries, isAgentSpawn);
    expect(agentStarted).toBeGreaterThan(-1);
    expect(firstIndex(entries, isAcpSdk)).toBeGreaterThan(agentStarted);
    expect(entries.slice(0, agentStarted).some((line) => /\/chunks\/bridge-session-[^/]*\.js$/.test(line))).toBe(false);
    for (const board of ['serialport', 'execa', 'yaml']) expect(resolves(entries, board), board).toBe(false);
  });
});
