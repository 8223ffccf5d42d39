// Starts an agent process and speaks ACP to it through the SDK's client(): the
// handshake (initialize, authentication, session/new or load) and the routing of
// the agent's requests to the session's services.
import {
  client,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type InitializeResponse,
  type McpServer,
  type NewSessionRequest,
  type NewSessionResponse,
  type SessionConfigOption,
  type SessionModeState,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import { AgentProcess, type AgentExit } from '../agents/agent-process.js';
import { AgentMessageStream, type LostMessage } from '../agents/message-stream.js';
import { loginHint } from '../agents/login-hint.js';
import { quietStartSignal } from '../agents/start-bound.js';
import { cliCommand } from '../cli-entry.js';
import type { AgentLaunch } from '../agents/resolve.js';
import type { FsService } from '../services/fs/fs-service.js';
import type { TerminalService } from '../services/terminal/terminal-service.js';
import { agentCapabilities, type AgentCapabilities } from './agent-capabilities.js';
import { AuthRequiredError, BridgeError, commandLine, errorMessage, rpcErrorCode, type TerminalLogin } from '../errors.js';
import { parseSessionNotification } from './sdk-validation.js';

export interface ConnectionHandlers {
  fs: () => FsService;
  terminals: () => TerminalService;
  onUpdate: (notification: SessionNotification) => void;
  onPermission: (request: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>;
  onElicitation: (request: CreateElicitationRequest, signal: AbortSignal) => Promise<CreateElicitationResponse>;
  onElicitationComplete: (elicitationId: string) => void;
}

export interface AgentConnection {
  process: AgentProcess;
  connection: ClientConnection;
  init: InitializeResponse;
  /** What the agent can do, read once from `init`. */
  capabilities: AgentCapabilities;
  /** A message from the agent that could be neither taken nor answered (too large, id unreadable). */
  onLost(listener: (lost: LostMessage) => void): void;
}

const CLIENT_INFO = { name: 'boardbridge', title: 'boardbridge', version: '0.1.0' };

/** `started`: the agent's process when the caller started it already, for `launch` in `cwd` with `env`; else it is started here. */
export async function connectAgent(launch: AgentLaunch, cwd: string, handlers: ConnectionHandlers, env: NodeJS.ProcessEnv, started?: AgentProcess): Promise<AgentConnection> {
  const agent = started ?? new AgentProcess(launch, cwd, env);
  const stream = agent.stream;
  if (!(stream instanceof AgentMessageStream)) throw new Error('an agent process must speak through an AgentMessageStream');
  const connection = connectClient(stream, handlers, (line) => agent.stderr.append(`[boardbridge] ${line}\n`));
  const bound = quietStartSignal(agent);
  try {
    const init = await untilExit<InitializeResponse>(
      agent,
      connection.agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
        // `_meta["terminal-auth"]` is the older way to say the same as auth.terminal: claude-code-acp
        // offers its real login command (Claude Code's cli.js) only to a client that says it.
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, auth: { terminal: true }, elicitation: { form: {}, url: {} }, _meta: { 'terminal-auth': true } },
        clientInfo: CLIENT_INFO,
      }, { cancellationSignal: bound.signal, stopWaitingOnCancel: true }),
      // The same words as an exit seen through the broken pipe below, whichever is seen first.
      'start-up',
    );
    bound.stop();
    return { process: agent, connection, init, capabilities: agentCapabilities(init), onLost: (listener) => stream.onLost(listener) };
  } catch (error) {
    bound.stop();
    const quiet = bound.signal.aborted && !(error instanceof BridgeError);
    // An agent that dies at start breaks the pipe before its exit is seen: wait a moment for it.
    const exit = error instanceof BridgeError || quiet ? undefined : await Promise.race([agent.exited, delay(1000)]);
    connection.close();
    await agent.close();
    if (quiet) throw silentError(agent, bound.reason());
    throw exit ? exitedError(agent, exit, 'start-up') : error;
  }
}

/**
 * The SDK's client connection over the agent's stream, with the session's services behind
 * it. `session/update` notifications are checked with the SDK's schemas by their tag
 * (sdk-validation.ts) and reach onUpdate in the order they arrived.
 */
export function connectClient(stream: AgentMessageStream, handlers: ConnectionHandlers, log: (line: string) => void): ClientConnection {
  const onUpdate = (params: unknown) => {
    let notification: SessionNotification;
    try {
      notification = parseSessionNotification(params);
    } catch (error) {
      log(`skipped an invalid session/update: ${errorMessage(error).slice(0, 500)}`);
      return;
    }
    handlers.onUpdate(notification);
  };
  stream.intercept((message) => {
    if (!('method' in message) || message.method !== methods.client.session.update || 'id' in message) return false;
    onUpdate(message.params);
    return true;
  });
  const app = client({ name: 'boardbridge' })
    .onNotification(methods.client.session.update, parseSessionNotification, ({ params }) => handlers.onUpdate(params))
    .onRequest(methods.client.session.requestPermission, ({ params, signal }) => handlers.onPermission(params, signal))
    .onRequest(methods.client.elicitation.create, ({ params, signal }) => handlers.onElicitation(params, signal))
    .onNotification(methods.client.elicitation.complete, ({ params }) => handlers.onElicitationComplete(params.elicitationId))
    .onRequest(methods.client.fs.readTextFile, ({ params }) => handlers.fs().read(params))
    .onRequest(methods.client.fs.writeTextFile, ({ params }) => handlers.fs().write(params))
    .onRequest(methods.client.terminal.create, ({ params }) => handlers.terminals().create(params))
    .onRequest(methods.client.terminal.output, ({ params }) => handlers.terminals().output(params.terminalId))
    .onRequest(methods.client.terminal.waitForExit, async ({ params }) => handlers.terminals().waitForExit(params.terminalId))
    .onRequest(methods.client.terminal.kill, async ({ params }) => {
      await handlers.terminals().kill(params.terminalId);
      return {};
    })
    .onRequest(methods.client.terminal.release, async ({ params }) => {
      await handlers.terminals().release(params.terminalId);
      return {};
    });
  return app.connect(stream);
}

export function delay(ms: number): Promise<undefined> {
  return new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

/** `session/new`, authenticating once and retrying when the agent answers -32000. */
export async function newSession(agent: AgentConnection, cwd: string, mcpServers: McpServer[], env: NodeJS.ProcessEnv, additionalDirectories: string[] = []): Promise<NewSessionResponse> {
  const params: NewSessionRequest = { cwd, mcpServers, ...(additionalDirectories.length ? { additionalDirectories } : {}) };
  const request = () => untilExit(agent.process, agent.connection.agent.request(methods.agent.session.new, params), 'session/new');
  try {
    return await request();
  } catch (error) {
    if (rpcErrorCode(error) !== -32000) throw error;
    const method = chooseAuthMethod(agent, env);
    if (!method) throw authError(agent, error);
    try {
      await untilExit(agent.process, agent.connection.agent.request(methods.agent.authenticate, { methodId: method }), 'authenticate');
      return await request();
    } catch (retryError) {
      throw authError(agent, retryError);
    }
  }
}

/**
 * Re-opens an earlier session in a new agent process: `session/load` (the agent replays the
 * history as updates) or else `session/resume`; undefined when the agent can do neither.
 */
export async function reopenSession(
  agent: AgentConnection,
  sessionId: string,
  cwd: string,
  mcpServers: McpServer[],
): Promise<{ modes?: SessionModeState | null; configOptions?: SessionConfigOption[] | null } | undefined> {
  switch (agent.capabilities.reopen) {
    case 'load':
      return untilExit(agent.process, agent.connection.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers }), 'session/load');
    case 'resume':
      return untilExit(agent.process, agent.connection.agent.request(methods.agent.session.resume, { sessionId, cwd, mcpServers }), 'session/resume');
    default:
      return undefined;
  }
}

function chooseAuthMethod(agent: AgentConnection, env: NodeJS.ProcessEnv): string | undefined {
  const agentMethods = (agent.init.authMethods ?? []).filter((m) => !('type' in m && m.type === 'terminal'));
  const usable = agentMethods.filter((m) => !loginOf(m, agent.process.launch));
  for (const hint of agent.process.launch.profile?.authEnv ?? []) {
    if (env[hint.env] && hint.methodId && agentMethods.some((m) => m.id === hint.methodId)) return hint.methodId;
  }
  return usable.length === 1 ? usable[0].id : undefined;
}

/** The terminal logins an agent offers, as commands to run. */
export function terminalLogins(init: InitializeResponse, launch: AgentLaunch): TerminalLogin[] {
  return (init.authMethods ?? []).flatMap((m) => {
    const login = loginOf(m, launch);
    return login ? [login] : [];
  });
}

// Three spellings are in use: the stable `type: "terminal"` with args/env added to the agent's
// own command (without its ACP flags), Qwen's `_meta.type: "terminal"` with args, and Copilot's
// `_meta["terminal-auth"]` with a complete command.
function loginOf(method: NonNullable<InitializeResponse['authMethods']>[number], launch: AgentLaunch): TerminalLogin | undefined {
  const base = { methodId: method.id, name: method.name, launchEnv: launch.env };
  const ownArgs = launch.profile ? launch.args.slice(0, launch.args.length - launch.profile.args.length) : launch.args;
  if ('type' in method && method.type === 'terminal') {
    return { ...base, command: launch.command, args: [...ownArgs, ...(method.args ?? [])], env: { ...(method.env ?? {}) } };
  }
  const meta = (method._meta ?? {}) as Record<string, unknown>;
  const full = meta['terminal-auth'] as { command?: unknown; args?: unknown; env?: unknown } | undefined;
  if (full && typeof full.command === 'string') {
    return { ...base, command: full.command, args: stringArray(full.args), env: stringRecord(full.env) };
  }
  if (meta.type === 'terminal') return { ...base, command: launch.command, args: [...ownArgs, ...stringArray(meta.args)], env: stringRecord(meta.env) };
  return undefined;
}

const stringArray = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const stringRecord = (value: unknown): Record<string, string> =>
  value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};


function authError(agent: AgentConnection, cause: unknown): BridgeError {
  const launch = agent.process.launch;
  const logins = terminalLogins(agent.init, launch);
  const lines: string[] = logins.map((l) => `log in: ${commandLine(l)}   (${l.name})`);
  const vars = launch.profile?.authEnv.map((h) => h.env) ?? [];
  // A profile whose "login" only sets a key (Gemini's) says so beside the key, not as a login.
  const { login, loginNote, keyNote } = launch.profile ? loginHint(launch.profile) : {};
  if (vars.length) lines.push(`${lines.length ? 'or ' : ''}set ${vars.join(' or ')} (e.g. export ${vars[0]}=...)${keyNote ? `: ${keyNote}` : ''}`);
  if (login && !logins.length) lines.push(`or log in once: ${login}${loginNote ? `   (${loginNote})` : ''}`);
  if (!lines.length) lines.push(`see ${launch.title}'s documentation for how to sign in`);
  return new AuthRequiredError(`${launch.title} needs authentication: ${errorMessage(cause)}`, lines.join('\n'), logins, { name: agent.init.agentInfo?.name, version: agent.init.agentInfo?.version });
}

/** Races an ACP request against the agent's exit, so a dead agent never hangs a turn. */
export function untilExit<T>(agent: AgentProcess, request: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    request,
    agent.exited.then((exit): never => {
      throw exitedError(agent, exit, what);
    }),
  ]);
}

// Enough of a dying agent's stderr to hold the cause above its echo of the failed request.
export const START_TAIL_LINES = 16;

// An agent that runs but never answers: most often not an ACP agent, or one waiting for a terminal.
function silentError(agent: AgentProcess, why: string): BridgeError {
  const launch = agent.launch;
  const tail = agent.stderr.tail(START_TAIL_LINES);
  return new BridgeError(
    'agent_start',
    `${launch.title} did not answer initialize: it ${why} and was stopped${tail ? `; its last words:\n${tail}` : ' (it wrote nothing on stderr)'}`,
    `check that it is an ACP agent (one that speaks JSON-RPC on stdout; some need a flag such as --acp): run it by hand: ${commandLine({ command: launch.command, args: launch.args })}; or run: ${cliCommand('doctor')}`,
  );
}

export function exitedError(agent: AgentProcess, exit: AgentExit, what: string): BridgeError {
  const launch = agent.launch;
  if (exit.spawnError) {
    return new BridgeError('agent_start', `cannot start ${launch.title} (${launch.command}): ${exit.spawnError}`, `check that ${launch.command} is installed; run: ${cliCommand('doctor')}`);
  }
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const tail = agent.stderr.tail(what === 'start-up' ? START_TAIL_LINES : 8);
  return new BridgeError(
    'agent_exited',
    `${launch.title} ${how} during ${what}${tail ? `; its last words:\n${tail}` : ''}`,
    // Before a session there is nothing of its to lose: what helps is seeing the agent fail by itself.
    what === 'start-up'
      ? `run it by hand to see why it stops: ${commandLine({ command: launch.command, args: launch.args })}; or run: ${cliCommand('doctor')}`
      : `nothing written is lost (see the journal); start the session again or run: ${cliCommand('doctor')}`,
  );
}

export { RequestError };
