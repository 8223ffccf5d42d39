// A stand-in ACP agent that behaves as a hostile or careless agent would toward the
// client's fs, terminal and permission services, which no real agent does on purpose.
// The prompt is a JSON list of steps; the reply is one message with a JSON list of
// results, one per step. Steps:
//   {read: path, line?, limit?, repeat?}      → {contents: {text: count}, errors: {message: count}}
//   {write: path, content? | bytes?, repeat?}  → {ok, errors: {message: count}}
//   {permission: toolCall}                    → {outcome}
//   {terminal: command, args?, cwd?}          → {exitCode, output} | {error, code}
//   {together: [steps]}                      runs them at once → {results, finished: [index in the order they finished]}
//   {update: sessionUpdate}                  sends it as a session/update notification → {sent: true}
//   {waitMany: n, command, args?}          n terminals, a terminal/wait_for_exit on each held open, then a
//                                          terminal/kill of each (sent after the waits) → {exits: [exitStatus…]}
//   {ownWrite: path, content}                writes the file itself, as OpenCode does beside fs/write_text_file → {wrote: true}
//   {pids: file}  writes {agent, child} to `file`: the agent's pid and a `sleep` it started in its group
//   {hang: true}  never answers the prompt
//   {mcp: tool, arguments?}  calls a tool of the board MCP server session/new named → {text, isError}
// STANDIN_MCP_HTTP=1: the agent takes MCP over HTTP (mcpCapabilities.http).
// STANDIN_CANCEL=1: session/cancel ends the turn at once with stopReason `cancelled`, as ACP asks;
// without it the cancel is ignored (a careless agent).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream } from '@agentclientprotocol/sdk';

/** The mcpServers each session was given. */
const servers = new Map();
/** Ends a session's running turn as cancelled. */
const cancels = new Map();

async function callTool(sessionId, name, args) {
  const entry = (servers.get(sessionId) ?? []).find((s) => s.name === 'boardbridge' && s.type === 'http');
  if (!entry) return { error: `no HTTP board server in ${JSON.stringify(servers.get(sessionId))}` };
  // Loaded only here: the other steps start no faster than the agent itself.
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/streamableHttp.js')]);
  const client = new Client({ name: 'standin-fs-agent', version: '1.0.0' });
  const headers = Object.fromEntries(entry.headers.map((h) => [h.name, h.value]));
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
  try {
    const result = await client.callTool({ name, arguments: args ?? {} });
    return { text: result.content.map((c) => c.text).join('\n'), isError: Boolean(result.isError) };
  } finally {
    await client.close();
  }
}

const count = (map, key) => (map[key] = (map[key] ?? 0) + 1);

async function step(client, sessionId, s) {
  if (s.read) {
    const result = { contents: {}, errors: {} };
    for (let i = 0; i < (s.repeat ?? 1); i++) {
      try {
        const { content } = await client.request(methods.client.fs.readTextFile, { sessionId, path: s.read, line: s.line, limit: s.limit });
        count(result.contents, content.length > 1000 ? `${content.slice(0, 100)}…(${content.length} chars)…${content.slice(-100)}` : content);
      } catch (error) {
        count(result.errors, error.message);
      }
    }
    return result;
  }
  if (s.write) {
    const content = s.content ?? 'x'.repeat(s.bytes ?? 0);
    const result = { ok: 0, errors: {} };
    for (let i = 0; i < (s.repeat ?? 1); i++) {
      try {
        await client.request(methods.client.fs.writeTextFile, { sessionId, path: s.write, content });
        result.ok++;
      } catch (error) {
        count(result.errors, error.message);
      }
    }
    return result;
  }
  if (s.permission) {
    const options = [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ];
    const response = await client.request(methods.client.session.requestPermission, { sessionId, toolCall: s.permission, options });
    return { outcome: response.outcome.outcome === 'selected' ? response.outcome.optionId : response.outcome.outcome };
  }
  if (s.terminal) {
    try {
      const { terminalId } = await client.request(methods.client.terminal.create, { sessionId, command: s.terminal, args: s.args, cwd: s.cwd });
      const exit = await client.request(methods.client.terminal.waitForExit, { sessionId, terminalId });
      const { output } = await client.request(methods.client.terminal.output, { sessionId, terminalId });
      await client.request(methods.client.terminal.release, { sessionId, terminalId });
      return { exitCode: exit.exitCode, output };
    } catch (error) {
      return { error: error.message, code: error.code };
    }
  }
  if (s.waitMany) {
    const ids = [];
    for (let i = 0; i < s.waitMany; i++) ids.push((await client.request(methods.client.terminal.create, { sessionId, command: s.command, args: s.args })).terminalId);
    const waits = ids.map((terminalId) => client.request(methods.client.terminal.waitForExit, { sessionId, terminalId }));
    await Promise.all(ids.map((terminalId) => client.request(methods.client.terminal.kill, { sessionId, terminalId })));
    const exits = await Promise.all(waits);
    for (const terminalId of ids) await client.request(methods.client.terminal.release, { sessionId, terminalId });
    return { exits: exits.map((e) => e.signal ?? e.exitCode) };
  }
  if (s.together) {
    const finished = [];
    const results = await Promise.all(s.together.map((t, i) => step(client, sessionId, t).then((r) => (finished.push(i), r))));
    return { results, finished };
  }
  if (s.update) {
    await client.notify(methods.client.session.update, { sessionId, update: s.update });
    return { sent: true };
  }
  if (s.ownWrite) {
    writeFileSync(s.ownWrite, s.content);
    return { wrote: true };
  }
  if (s.pids) {
    const child = spawn('sleep', ['1000'], { stdio: 'ignore' });
    writeFileSync(s.pids, JSON.stringify({ agent: process.pid, child: child.pid }));
    return { agent: process.pid, child: child.pid };
  }
  if (s.hang) return new Promise(() => undefined);
  if (s.mcp) return callTool(sessionId, s.mcp, s.arguments);
  return { error: `unknown step ${JSON.stringify(s)}` };
}

const app = agent({ name: 'standin-fs' })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: 1,
    agentInfo: { name: 'standin-fs-agent', version: '1.0.0' },
    agentCapabilities: process.env.STANDIN_MCP_HTTP ? { mcpCapabilities: { http: true } } : {},
  }))
  .onRequest(methods.agent.session.new, ({ params }) => {
    servers.set('standin-fs-session', params.mcpServers);
    return { sessionId: 'standin-fs-session' };
  })
  .onNotification(methods.agent.session.cancel, ({ params }) => {
    if (process.env.STANDIN_CANCEL) cancels.get(params.sessionId)?.();
  })
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    // The person's text is the last block (the bridge may put the hardware context before it).
    const steps = JSON.parse(params.prompt.filter((b) => b.type === 'text').at(-1).text);
    const cancelled = new Promise((resolve) => cancels.set(params.sessionId, () => resolve('cancelled')));
    const results = [];
    for (const s of steps) {
      const result = await Promise.race([step(client, params.sessionId, s), cancelled]);
      if (result === 'cancelled') return { stopReason: 'cancelled' };
      results.push(result);
    }
    await client.notify(methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: JSON.stringify(results) } },
    });
    return { stopReason: 'end_turn' };
  });

app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
