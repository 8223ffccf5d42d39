// `boardbridge acp`: toward the editor an ACP agent, toward the real agent the
// bridge's ACP client. Everything passes through unchanged except what the bridge
// adds: the hardware context in prompts, the board MCP server in sessions, board
// commands in terminals, device consent through the editor's permission UI, the
// fs and terminals the editor does not have, and the /board and /context commands.
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  AvailableCommand,
  ClientCapabilities,
  InitializeRequest,
  InitializeResponse,
  LoadSessionRequest,
  NewSessionRequest,
  PromptRequest,
  RequestPermissionRequest,
  RequestPermissionResponse,
  ResumeSessionRequest,
  SessionNotification,
  Stream,
} from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import type { Selection } from '../../context-providers/types.js';
import { AgentProcess, type AgentExit } from '../agents/agent-process.js';
import type { AgentLaunch } from '../agents/resolve.js';
import type { ContextService } from '../context/context-service.js';
import type { BridgeHardware } from '../hardware/bridge-hardware.js';
import type { AcpMcpHost } from '../mcp/acp-mcp-server.js';
import { agentCapabilities, editorServices, type AgentCapabilities } from '../session/agent-capabilities.js';
import { delay, exitedError } from '../session/agent-connection.js';
import type { ConsentVoice } from '../session/consent-request.js';
import { BridgeError } from '../errors.js';
import { checkParams } from './acp-schemas.js';
import { JsonRpcRelay, type AgentForward, type Outcome, type RpcError } from './json-rpc-relay.js';
import { LocalAnswers } from './local-answers.js';
import { refusalUpdate } from './refused-call.js';
import { permissionAnswer } from '../session/permission-answer.js';
import { ProxySession } from './proxy-session.js';
import { preloadBoardServer } from '../session/session-kit.js';
import { answerCommand } from './proxy-answers.js';
import { proxyCommandOf, withProxyCommands } from './slash-commands.js';
import { cliCommand } from '../cli-entry.js';

export interface ProxyOptions {
  /** The agent to start, or why it cannot be (every request is then answered with that error). */
  launch: AgentLaunch | BridgeError;
  /**
   * The agent's process, when the caller started it already for this `launch` (`boardbridge acp`
   * starts it before it loads the proxy, so the two start side by side); else the proxy starts it.
   */
  agent?: AgentProcess;
  editor: Stream;
  /** The folder the agent process starts in (sessions name their own cwd). */
  agentCwd?: string;
  selection: Selection;
  /** --sketch: the project of the workspace, when it is not the workspace itself. */
  sketch?: string;
  env: NodeJS.ProcessEnv;
  contexts?: ContextService;
  hardware?: BridgeHardware;
  log: (line: string) => void;
  /** A line about a failure (the agent cannot start or ended by itself); default: log. */
  logFailure?: (line: string) => void;
  /** Where the log is, for `/context`. */
  logFile?: string;
  /** The agent's own stderr, as it comes. */
  agentStderr?: (text: string) => void;
}

/** How long an orderly end may take before what is left is killed (editors give a proxy about 3 s). */
const CLOSE_DEADLINE_MS = 2500;

export class AcpProxy {
  readonly closed: Promise<void>;
  readonly agent?: AgentProcess;
  private readonly relay: JsonRpcRelay;
  private readonly sessions = new Map<string, ProxySession>();
  private readonly local = new LocalAnswers(() => editorServices(this.editorCaps), this.sessions);
  private readonly agentCommands = new Map<string, AvailableCommand[]>();
  private editorCaps: ClientCapabilities = {};
  private agentCaps: AgentCapabilities = agentCapabilities(undefined);
  /** The agent's own name for itself (initialize's agentInfo), for the sessions' names. */
  private agentName?: string;
  private exit?: AgentExit;
  /** The board servers offered over ACP itself, for an agent that takes them. */
  private mcpHost?: AcpMcpHost;
  private closing?: Promise<void>;
  private markClosed!: () => void;

  constructor(private readonly options: ProxyOptions) {
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    const launch = options.launch;
    let agentStream: Stream;
    if (launch instanceof BridgeError) {
      agentStream = endedStream();
    } else {
      this.agent = options.agent ?? new AgentProcess(launch, options.agentCwd ?? process.cwd(), options.env, options.agentStderr);
      agentStream = this.agent.stream;
      const agent = this.agent;
      // Said once it runs: a command that cannot be started has no pid and no group to speak of.
      void agent.spawned.then((pid) => options.log(`started ${launch.title} (pid ${pid}, its own process group): ${[launch.command, ...launch.args].join(' ')}`));
      void agent.exited.then((exit) => {
        this.exit = exit;
        const tail = agent.stderr.tail(8);
        const line = `${launch.title} ${exit.spawnError ? `could not start: ${exit.spawnError}` : `ended (code ${exit.code}, signal ${exit.signal})`}${tail ? `; its last words:\n${tail}` : ''}`;
        // An agent ended by the proxy's own close is no failure; one that ends by itself, not cleanly, is.
        if (!this.closing && (exit.spawnError || exit.code !== 0)) (options.logFailure ?? options.log)(line);
        else options.log(line);
        this.relay.agentEnded();
      });
    }
    this.relay = new JsonRpcRelay(options.editor, agentStream, {
      editorRequest: (method, params) => this.editorRequest(method, params),
      agentRequest: (method, params) => {
        // The file the agent reads tells which project of the workspace it works on.
        if (method === methods.client.fs.readTextFile) this.noteFile(params);
        if (method === methods.client.session.requestPermission) return this.permissionAsked(params);
        if (method === methods.client.fs.writeTextFile) this.clientWrites(params);
        if (this.mcpHost?.serves(method)) return this.mcpHost.answer(params);
        return this.local.answer(method, params);
      },
      agentNotification: (method, params) => this.agentNotification(method, params),
      editorNotification: (method, params) => {
        if (method === methods.agent.session.cancel) this.sessions.get((params as { sessionId?: string } | undefined)?.sessionId ?? '')?.cancel();
      },
      agentGone: () => this.agentGoneError(),
      agentClosed: () => void Promise.race([this.agent?.exited, delay(1000)]).then(() => this.relay.agentEnded()),
      editorClosed: () => void this.close('the editor closed stdin'),
      log: options.log,
    });
  }

  /**
   * Ends every session (what runs is cancelled, terminals released), the agent's process
   * group and the board services, and logs why. Whatever has not ended by CLOSE_DEADLINE_MS
   * is killed: an editor that ends boardbridge wants it gone at once.
   */
  close(reason = 'closed'): Promise<void> {
    this.closing ??= (async () => {
      this.options.log(`ending (${reason}): cancelling ${this.sessions.size} session(s), ending ${this.agent?.running ? `the agent's process group (pid ${this.agent.pid})` : 'the board services'}`);
      const deadline = setTimeout(() => {
        this.options.log(`not ended within ${CLOSE_DEADLINE_MS / 1000} s: killing the agent's process group`);
        this.agent?.kill();
        this.markClosed();
      }, CLOSE_DEADLINE_MS);
      for (const sessionId of this.sessions.keys()) this.relay.notifyAgent(methods.agent.session.cancel, { sessionId });
      await Promise.all([...[...this.sessions.values()].map((s) => s.close().catch(() => undefined)), this.agent?.close()]);
      this.sessions.clear();
      await this.options.hardware?.close();
      this.mcpHost?.close();
      clearTimeout(deadline);
      this.relay.close();
      this.options.log(`ended (${reason})`);
      this.markClosed();
    })();
    return this.closing;
  }

  private editorRequest(method: string, params: unknown): Promise<Outcome> | Outcome | undefined {
    switch (method) {
      case methods.agent.initialize:
        return this.initialize(checkParams<InitializeRequest>('InitializeRequest', method, params, this.options.log));
      case methods.agent.session.new:
        return this.openSession(checkParams<NewSessionRequest>('NewSessionRequest', method, params, this.options.log));
      case methods.agent.session.load:
        return this.openSession(checkParams<LoadSessionRequest>('LoadSessionRequest', method, params, this.options.log));
      case methods.agent.session.resume:
        return this.openSession(checkParams<ResumeSessionRequest>('ResumeSessionRequest', method, params, this.options.log));
      case methods.agent.session.prompt:
        return this.prompt(checkParams<PromptRequest>('PromptRequest', method, params, this.options.log));
      case methods.agent.session.close: {
        const sessionId = (params as { sessionId?: string } | undefined)?.sessionId;
        return { forward: params, after: (result: unknown) => (this.dropSession(sessionId), result) };
      }
      default:
        return undefined;
    }
  }

  // The agent is told only what the editor can do, plus what the proxy serves itself (fs, terminals).
  private initialize(params: InitializeRequest): Outcome {
    // The board server's modules load while the agent answers (a session/new needs them next).
    preloadBoardServer();
    const given: unknown = params.clientCapabilities;
    this.editorCaps = given && typeof given === 'object' && !Array.isArray(given) ? (given as ClientCapabilities) : {};
    const clientCapabilities: ClientCapabilities = { ...this.editorCaps, fs: { ...this.editorCaps.fs, readTextFile: true, writeTextFile: true }, terminal: true };
    return {
      forward: { ...params, clientCapabilities },
      after: (result) => {
        this.agentCaps = agentCapabilities(result as InitializeResponse);
        const info = (result as InitializeResponse | undefined)?.agentInfo;
        this.agentName = (typeof info?.title === 'string' && info.title) || (typeof info?.name === 'string' && info.name) || undefined;
        return result;
      },
    };
  }

  private async openSession(params: NewSessionRequest | LoadSessionRequest | ResumeSessionRequest): Promise<Outcome> {
    const caps = this.agentCaps;
    const session = await ProxySession.open({
      cwd: params.cwd,
      selection: this.options.selection,
      sketch: this.options.sketch,
      agentId: this.options.launch instanceof BridgeError ? 'unknown' : this.options.launch.id,
      env: this.options.env,
      contexts: this.options.contexts,
      hardware: this.options.hardware,
      caps,
      mcpAcp: await this.acpMcpHost(caps),
      voice: this.editorVoice,
      log: this.options.log,
    });
    const roots = await session.readOnlyRoots();
    const forward = {
      ...params,
      mcpServers: await session.mcpServers(params.mcpServers),
      ...(roots.length ? { additionalDirectories: [...(params.additionalDirectories ?? []), ...roots] } : {}),
    };
    // A load replays the history before it answers: the session must be known by then.
    const known = 'sessionId' in params ? params.sessionId : undefined;
    if (known) this.addSession(known, session);
    return {
      forward,
      after: (result) => {
        const sessionId = known ?? (result as { sessionId: string }).sessionId;
        this.addSession(sessionId, session);
        queueMicrotask(() => this.announceCommands(sessionId));
        return result;
      },
      failed: () => {
        if (known) this.sessions.delete(known);
        void session.close();
      },
    };
  }

  // Loaded only for an agent that takes MCP servers over ACP (unstable ACP, its own SDK entry point).
  private async acpMcpHost(caps: AgentCapabilities): Promise<AcpMcpHost | undefined> {
    if (!caps.mcp.acp) return undefined;
    const { AcpMcpHost } = await import('../mcp/acp-mcp-server.js');
    return (this.mcpHost ??= new AcpMcpHost((method, params) => this.relay.notifyAgent(method, params)));
  }

  private addSession(sessionId: string, session: ProxySession): void {
    // Loading a session again replaces its earlier board server and terminals.
    const earlier = this.sessions.get(sessionId);
    if (earlier && earlier !== session) void earlier.close();
    session.sessionId = sessionId;
    this.sessions.set(sessionId, session);
  }

  private dropSession(sessionId: string | undefined): void {
    const session = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    if (!session || !sessionId) return;
    this.sessions.delete(sessionId);
    this.agentCommands.delete(sessionId);
    void session.close();
  }

  private async prompt(params: PromptRequest): Promise<Outcome> {
    const session = this.sessions.get(params.sessionId);
    if (!session) return { forward: params };
    const command = proxyCommandOf(params.prompt);
    if (command) {
      const text = await answerCommand(session, command, this.options.logFile);
      this.relay.notifyEditor(methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
      return { answer: { stopReason: 'end_turn' } };
    }
    for (const file of resourceFiles(params.prompt)) session.noteFile(file);
    session.name(this.agentName ?? (this.options.launch instanceof BridgeError ? 'unknown' : this.options.launch.title), promptText(params.prompt));
    const { blocks, notice } = await session.contextBlocks();
    // The person hears which sketch the agent was told about, or why none: never nothing in silence.
    if (notice) this.relay.notifyEditor(methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `[boardbridge] ${notice}\n\n` } } });
    // What the editor allowed for this turn's commands ends with the turn, and a cancelled turn's terminals.
    return {
      forward: { ...params, prompt: [...blocks, ...params.prompt] },
      after: (result: unknown) => {
        void session.endTurn((result as { stopReason?: unknown } | undefined)?.stopReason);
        return result;
      },
      failed: () => void session.endTurn(undefined),
    };
  }

  // The agent's own edits are journalled from the text before its call: a permission is often where it is first named.
  // The editor answers; the proxy hears the answer first (what it allowed, or that the person refused).
  private permissionAsked(params: unknown): AgentForward | undefined {
    const request = (params ?? {}) as RequestPermissionRequest;
    const session = typeof request.sessionId === 'string' ? this.sessions.get(request.sessionId) : undefined;
    if (!session || typeof request.toolCall?.toolCallId !== 'string') return undefined;
    session.permissionAsked(request.toolCall);
    if (!Array.isArray(request.options)) return undefined;
    return {
      answered: ({ result }) => {
        const refusal = session.permissionAnswered(request, result);
        if (refusal) this.relay.notifyEditor(methods.client.session.update, { sessionId: request.sessionId, update: { sessionUpdate: 'tool_call_update', ...refusal } });
      },
    };
  }

  private clientWrites(params: unknown): void {
    const { sessionId, path, content } = (params ?? {}) as { sessionId?: unknown; path?: unknown; content?: unknown };
    const session = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    if (session && typeof path === 'string' && typeof content === 'string') session.clientWrites(path, content);
  }

  private noteFile(params: unknown): void {
    const { sessionId, path } = (params ?? {}) as { sessionId?: unknown; path?: unknown };
    const session = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    if (session && typeof path === 'string' && isAbsolute(path)) session.noteFile(path);
  }

  private agentNotification(method: string, params: unknown): unknown {
    if (method !== methods.client.session.update) return params;
    const notification = params as SessionNotification;
    const session = this.sessions.get(notification?.sessionId);
    session?.agentUpdate(notification.update);
    const update = notification?.update;
    if (session && (update?.sessionUpdate === 'tool_call' || update?.sessionUpdate === 'tool_call_update') && typeof update.toolCallId === 'string') {
      const told = session.toEditor(update);
      return told === update ? params : { ...notification, update: told };
    }
    if (notification.update?.sessionUpdate !== 'available_commands_update') return params;
    this.agentCommands.set(notification.sessionId, notification.update.availableCommands ?? []);
    return { ...notification, update: { ...notification.update, availableCommands: withProxyCommands(notification.update.availableCommands ?? []) } };
  }

  private announceCommands(sessionId: string): void {
    this.relay.notifyEditor(methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: 'available_commands_update', availableCommands: withProxyCommands(this.agentCommands.get(sessionId) ?? []) },
    });
  }

  // A device change is asked in the editor's permission UI, as a tool call of its own
  // whose title is the exact operation ("upload …Blink.ino.hex to Arduino Uno on /dev/ttyACM0?").
  private readonly editorVoice: ConsentVoice = {
    ask: async (request) => {
      const { sessionId } = request;
      const toolCall = { ...request.toolCall, status: 'pending' as const };
      this.relay.notifyEditor(methods.client.session.update, { sessionId, update: { sessionUpdate: 'tool_call', ...toolCall } });
      let outcome: RequestPermissionResponse['outcome'] = { outcome: 'cancelled' };
      try {
        const response = (await this.relay.requestEditor(methods.client.session.requestPermission, { ...request, toolCall })) as { outcome?: { outcome?: unknown; optionId?: unknown } } | undefined;
        const chosen = response?.outcome;
        if (chosen?.outcome === 'selected' && typeof chosen.optionId === 'string') outcome = { outcome: 'selected', optionId: chosen.optionId };
      } catch (error) {
        this.options.log(`the editor could not be asked "${toolCall.title}": ${(error as RpcError).message ?? String(error)}`);
      }
      const answer = permissionAnswer(request.options, { outcome });
      const update = answer === 'refused' ? refusalUpdate({ toolCallId: toolCall.toolCallId, content: [] }) : { toolCallId: toolCall.toolCallId, status: answer === 'allowed' ? 'completed' : 'failed' };
      this.relay.notifyEditor(methods.client.session.update, { sessionId, update: { sessionUpdate: 'tool_call_update', ...update } });
      return { outcome };
    },
    refusal: () => 'it was not allowed in the editor',
  };

  // What the editor is told when the agent cannot answer: what happened and what to do.
  private agentGoneError(): RpcError {
    const launch = this.options.launch;
    const error = launch instanceof BridgeError
      ? launch
      : this.agent && this.exit
        ? exitedError(this.agent, this.exit, 'the session')
        : new BridgeError('agent_exited', `${launch.title} is not running`, `start the agent again (reconnect in the editor); run: ${cliCommand('doctor')}`);
    // The agent's last words, when it failed, go in the data too: the editor shows them, the log has the rest.
    const stderr = this.exit && (this.exit.code !== 0 || this.exit.signal) ? this.agent?.stderr.tail(8) : undefined;
    return { code: -32603, message: error.hint ? `${error.message}\n${error.hint}` : error.message, data: { code: error.code, hint: error.hint, ...(stderr ? { stderr } : {}) } };
  }
}

/** The person's words in a prompt (its text blocks), for the session's name. */
function promptText(prompt: PromptRequest['prompt']): string {
  return (Array.isArray(prompt) ? prompt : []).flatMap((block) => (block?.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('\n');
}

/** The local files a prompt's resource links and embedded resources name (the files the editor has open). */
function resourceFiles(prompt: PromptRequest['prompt']): string[] {
  const uris = (Array.isArray(prompt) ? prompt : []).map((block) => (block.type === 'resource_link' ? block.uri : block.type === 'resource' ? block.resource?.uri : undefined));
  return uris.flatMap((uri) => {
    if (typeof uri !== 'string' || !uri.startsWith('file:')) return [];
    try {
      return [fileURLToPath(uri.replace(/#.*$/, ''))];
    } catch {
      return [];
    }
  });
}

/** The agent side when there is no agent: it ends at once. */
function endedStream(): Stream {
  return {
    readable: new ReadableStream({ start: (controller) => controller.close() }),
    writable: new WritableStream(),
  };
}
