// The one API every face uses: start an agent on a workspace, prompt it, answer
// it, and watch the conversation as events. A face never builds an ACP message.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import {
  methods,
  type ContentBlock,
  type McpServer,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionInfo,
  type SetSessionConfigOptionRequest,
  type SessionNotification,
  type StopReason,
} from '@agentclientprotocol/sdk';
import type { SimulationRecord } from '../../boards/commands/simulate-command.js';
import type { Selection } from '../../context-providers/types.js';
import { MAX_MESSAGE_ENV, type LostMessage } from '../agents/message-stream.js';
import { askingModeInstead } from '../agents/quirks.js';
import type { AgentProcess } from '../agents/agent-process.js';
import type { AgentLaunch } from '../agents/resolve.js';
import type { ContextService } from '../context/context-service.js';
import type { BridgeHardware } from '../hardware/bridge-hardware.js';
import type { EditorWrite } from '../services/fs/fs-service.js';
import { readJournals, type WriteJournal } from '../services/fs/journal.js';
import { removeStaleTemps } from '../services/fs/stale-temps.js';
import type { WorkspaceGuard } from '../services/fs/workspace-guard.js';
import { ElicitationBroker, type AskElicitation, type ElicitationBrokerOptions } from '../services/elicitation/elicitation-broker.js';
import { PermissionBroker, type AskPerson, type PermissionPolicy } from '../services/permission/broker.js';
import type { TerminalEvent } from '../services/terminal/terminal-service.js';
import { capabilitySummary } from './agent-capabilities.js';
import { BoardSelection } from './board-selection.js';
import { connectAgent, delay, exitedError, newSession, reopenSession, START_TAIL_LINES, untilExit, type AgentConnection } from './agent-connection.js';
import { cliCommand } from '../cli-entry.js';
import { BridgeError, errorMessage } from '../errors.js';
import type { BridgeEvent } from './events.js';
import { preloadBoardServer, SessionKit } from './session-kit.js';
import { checkWorkspace } from './workspace-check.js';
import type { SimulationSlot } from '../../boards/operation-context.js';
import { simulationEvent } from '../hardware/simulation-event.js';
import { optionAnswer, permissionAnswer } from './permission-answer.js';
import { reducePermissionToolCall, reduceRefusal, reduceTurnStart, reduceUpdate, type Reduction, type StateChange } from './reducer.js';
import { promptStopReason } from './sdk-validation.js';
import { getToolCall, initialState, type SessionState } from './state.js';

/** How many of the workspace's latest journals are searched for stale temporary files at start. */
const STALE_TEMP_JOURNALS = 20;
const LIST_TIMEOUT_MS = 15_000;
const CLOSE_TIMEOUT_MS = 3_000;

export interface EditorState {
  /** Unsaved editor contents by absolute path: the agent reads these instead of the disk. */
  buffers?: Record<string, string>;
  selection?: Selection;
}

export interface SessionOptions {
  launch: AgentLaunch;
  /**
   * The agent's process, already started for `launch` in `workspace` (startSession starts it before
   * it loads the session, so the two start side by side). The first connection speaks to it; a
   * restart starts a new one.
   */
  agent?: AgentProcess;
  workspace: string;
  policy: PermissionPolicy;
  ask?: AskPerson;
  askTimeoutMs?: number;
  /** How the face asks the person for an agent's form or URL; without it elicitations are declined. */
  askElicitation?: AskElicitation;
  contexts?: ContextService;
  /** --sketch: which project of the workspace the context is about, when it is not the workspace itself. */
  sketch?: string;
  mcpServers?: McpServer[];
  /** The bridge's serial hub and board commands: served to the agent as MCP tools and in terminals. */
  hardware?: BridgeHardware;
  /** The board the face has selected (FQBN, device, camera) until a prompt says otherwise; a face that owns one passes its own. */
  selection?: Selection | BoardSelection;
  env?: NodeJS.ProcessEnv;
  /**
   * Continue an earlier session instead of starting one: its id, or `pick` to choose from the
   * agent's session/list (undefined from pick: start a new session).
   */
  resume?: { sessionId?: string; pick?: (sessions: SessionInfo[]) => Promise<string | undefined> };
  /**
   * Listens from the very first event (session_started comes before start() resolves). `state` is the
   * session's transcript as it is after this event (undefined before the session exists).
   */
  onEvent?: (event: BridgeEvent, state: SessionState | undefined) => void;
}

export interface TurnResult {
  stopReason?: StopReason;
  error?: BridgeError;
}

export class BridgeSession extends EventEmitter<{ event: [BridgeEvent, SessionState | undefined] }> {
  state!: SessionState;
  readonly workspace: string;
  readonly guard: WorkspaceGuard;
  readonly broker: PermissionBroker;
  readonly elicitations: ElicitationBroker;
  private readonly kit: SessionKit;
  private editorWriter?: EditorWrite;
  private agent!: AgentConnection;
  private buffers = new Map<string, string>();
  private turn?: Promise<TurnResult>;
  private abandonTurn?: AbortController;
  private failTurn?: (error: BridgeError) => void;
  private cancelled = false;
  readonly selection: BoardSelection;
  private closed = false;
  private shuttingDown = false;
  private readonly env: NodeJS.ProcessEnv;
  private startedAgent?: AgentProcess;

  private constructor(private readonly options: SessionOptions) {
    super();
    this.workspace = checkWorkspace(options.workspace);
    this.env = options.env ?? process.env;
    this.startedAgent = options.agent;
    if (options.onEvent) this.on('event', options.onEvent);
    this.selection = options.selection instanceof BoardSelection ? options.selection : new BoardSelection(options.selection);
    // The person's voice is the broker: the policy (--allow …) or the face's question.
    this.kit = new SessionKit({
      workspace: this.workspace,
      agentId: options.launch.id,
      env: this.env,
      contexts: options.contexts,
      sketch: options.sketch,
      hardware: options.hardware,
      board: () => this.selection.board,
      voice: {
        ask: (request) => this.broker.decide(request),
        refusal: (kind) => (kind === 'device' ? "device changes need the person's consent (or --allow-device)" : "the project's own build scripts run only with the person's consent (or --allow all)"),
      },
      authorize: (commandLine) => {
        const verdict = this.broker.authorizeCommand(commandLine);
        return verdict.allowed ? undefined : verdict.reason;
      },
      onTerminal: (e) => this.onTerminal(e),
      onSimulation: (record: SimulationRecord) => this.emitEvent(simulationEvent(record)),
      buffers: () => this.buffers,
      editorWrite: (file, text) => this.editorWriter?.(file, text) ?? Promise.resolve(false),
    });
    this.kit.onJournalEntry((entry) => this.emitEvent({ type: 'file_written', path: entry.path, created: entry.before === null, seq: entry.seq }));
    this.guard = this.kit.guard;
    this.broker = new PermissionBroker({
      policy: options.policy,
      guard: this.guard,
      ask: options.ask,
      askTimeoutMs: options.askTimeoutMs,
      ownTools: () => this.kit.ownTools,
      onPending: (p) =>
        this.emitEvent({
          type: 'permission_request',
          id: p.id,
          category: p.category,
          toolCall: { toolCallId: p.request.toolCall.toolCallId, title: p.request.toolCall.title ?? undefined, kind: p.request.toolCall.kind ?? undefined },
          options: p.request.options,
        }),
      onDecision: (p, d) =>
        this.emitEvent({
          type: 'permission_decision',
          id: p.id,
          outcome: d.outcome,
          optionId: 'option' in d ? d.option?.optionId : undefined,
          optionKind: 'option' in d ? d.option?.kind : undefined,
          answer: 'option' in d && d.option ? optionAnswer(p.request.options, d.option.optionId) : 'none',
          by: d.by,
          reason: 'reason' in d ? d.reason : undefined,
        }),
    });
    this.elicitations = new ElicitationBroker(this.elicitationEvents());
  }

  private elicitationEvents(): ElicitationBrokerOptions {
    return {
      ask: this.options.askElicitation,
      onPending: (p) => this.emitEvent({ type: 'elicitation_request', id: p.id, mode: p.mode, message: p.message, fields: p.fields, url: p.url, toolCallId: p.toolCallId }),
      onDecision: (p, action, by) => this.emitEvent({ type: 'elicitation_decision', id: p.id, action, by }),
    };
  }

  static async start(options: SessionOptions): Promise<BridgeSession> {
    const session = new BridgeSession(options);
    await session.connect(undefined, options.resume);
    return session;
  }

  get sessionId(): string {
    return this.state.sessionId;
  }

  get agentInfo(): AgentConnection['init'] {
    return this.agent.init;
  }

  get alive(): boolean {
    return this.agent.process.running && !this.closed;
  }

  /** One turn: resolves when the agent answers session/prompt (or dies). Never rejects. */
  prompt(text: string, editor: EditorState = {}): Promise<TurnResult> {
    if (this.turn) return Promise.resolve({ error: new BridgeError('busy', 'a turn is already running', 'wait for it or cancel it') });
    this.turn = this.runTurn(text, editor).then(async (result) => {
      const cancelled = this.cancelled || result.stopReason === 'cancelled';
      this.cancelled = false;
      await this.kit.endTurn(cancelled);
      return result;
    }).finally(() => {
      this.turn = undefined;
      this.broker.endTurn();
    });
    return this.turn;
  }

  /** Cancels the running turn: pending permission requests are answered `cancelled`; its end releases the agent's terminals. */
  async cancel(): Promise<void> {
    this.broker.cancelAll();
    this.elicitations.cancelAll();
    if (this.turn && this.agent.process.running) {
      this.cancelled = true;
      await this.agent.connection.agent.notify(methods.agent.session.cancel, { sessionId: this.sessionId }).catch(() => undefined);
    }
  }

  /** The session's one interactive simulation (its sim_* tools and terminals step it); none without board services. */
  get simulation(): SimulationSlot | undefined {
    return this.kit.operations?.context.simulation;
  }

  /** Where this session's writes are journalled (the file exists once the agent wrote something). */
  get journal(): WriteJournal {
    return this.kit.writes!;
  }

  async setMode(modeId: string): Promise<void> {
    await this.agent.connection.agent.request(methods.agent.session.setMode, { sessionId: this.sessionId, modeId });
    this.apply({ sessionUpdate: 'current_mode_update', currentModeId: modeId });
  }

  /** A select option takes one of its value ids; a boolean option takes true or false. */
  async setConfigOption(configId: string, value: string | boolean): Promise<void> {
    const params: SetSessionConfigOptionRequest =
      typeof value === 'boolean' ? { sessionId: this.sessionId, configId, type: 'boolean', value } : { sessionId: this.sessionId, configId, value };
    const response = await this.agent.connection.agent.request(methods.agent.session.setConfigOption, params);
    this.apply({ sessionUpdate: 'config_option_update', configOptions: response.configOptions });
  }

  // session/close lets the agent free what it holds for the session; a slow answer is abandoned.
  private async closeAgentSession(): Promise<void> {
    if (!this.agent?.process.running || !this.state || !this.agent.capabilities.close) return;
    const sessionId = this.sessionId;
    await this.abandonAfter(CLOSE_TIMEOUT_MS, 'session/close', (signal) =>
      this.agent.connection.agent.request(methods.agent.session.close, { sessionId }, { cancellationSignal: signal, stopWaitingOnCancel: true }),
    ).then(
      () => this.emitEvent({ type: 'session_closed', sessionId }),
      // Abandoned: give the $/cancel_request a moment to reach the agent before its input closes.
      () => delay(200),
    );
  }

  /** Ends the agent's login (ACP `logout`), where the agent offers it. */
  async logout(): Promise<void> {
    if (!this.agent.capabilities.logout) {
      throw new BridgeError('protocol', `${this.options.launch.title} cannot log out from here (it does not offer ACP logout)`, "use the agent's own command to log out");
    }
    await this.agent.connection.agent.request(methods.agent.logout, {});
  }

  /** Starts a fresh agent process after a crash, loading the old session when the agent can. */
  async restart(): Promise<void> {
    await this.shutdownAgent();
    const oldId = this.state?.sessionId;
    await this.connect(oldId);
  }

  /** The face's unsaved editor contents by path, now (also mid-turn): the agent reads these instead of the disk. */
  setBuffers(buffers: Record<string, string>): void {
    this.buffers = new Map(Object.entries(buffers).map(([p, c]) => [path.resolve(p), c]));
  }

  /** A face whose IDE applies the agent's writes through its editor (undefined: the bridge writes files itself). */
  setEditorWriter(writer: EditorWrite | undefined): void {
    this.editorWriter = writer;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.cancel();
    if (this.turn) await Promise.race([this.turn, delay(2000)]);
    this.abandonTurn?.abort();
    await this.closeAgentSession();
    await this.shutdownAgent();
    await this.kit.close();
  }

  private async connect(loadId?: string, resume?: SessionOptions['resume']): Promise<void> {
    const env = this.env;
    // Temporary files of bridges killed mid-write (recent sessions are where they can be),
    // before the agent is connected: nothing of this session is being written yet (the agent
    // writes through the session, which it reaches only once connected).
    if (!this.kit.writes) {
      await readJournals(this.workspace, env, STALE_TEMP_JOURNALS)
        .then((journals) => removeStaleTemps(journals, this.guard))
        .catch(() => undefined);
    }
    // The board server's modules load while the agent initializes (its answer is awaited below).
    preloadBoardServer();
    // The process startSession started goes to the first connection only.
    const started = this.startedAgent;
    this.startedAgent = undefined;
    this.agent = await connectAgent(
      this.options.launch,
      this.workspace,
      {
        fs: () => this.kit.fs(),
        terminals: () => this.kit.terminals,
        onUpdate: (n) => this.onUpdate(n),
        onPermission: (r, signal) => this.onPermission(r, signal),
        onElicitation: (r, signal) => this.elicitations.decide(r, signal),
        onElicitationComplete: (elicitationId) => this.emitEvent({ type: 'elicitation_complete', elicitationId }),
      },
      env,
      started,
    );
    this.agent.onLost((lost) => this.onLost(lost));
    const caps = this.agent.capabilities;
    let sessionId: string;
    try {
      if (resume) loadId = resume.sessionId ?? (await this.pickSession(resume.pick));
      if (resume && loadId && !caps.reopen) {
        throw new BridgeError('protocol', `${this.options.launch.title} cannot continue an earlier session (it offers neither session/load nor session/resume)`, 'start without --resume');
      }
    } catch (error) {
      await this.shutdownAgent();
      throw error;
    }
    let mcpServers: McpServer[];
    try {
      // Other servers of the face's that are HTTP go only to an agent that takes HTTP.
      const board = await this.kit.boardServer(caps);
      mcpServers = [...(this.options.mcpServers ?? []).filter((s) => !('type' in s) || s.type !== 'http' || caps.mcp.http), ...(board ? [board] : [])];
    } catch (error) {
      await this.shutdownAgent();
      throw error;
    }
    try {
      // A load replays the history as updates: the state starts empty to receive it.
      if (loadId) this.state = initialState(loadId);
      const reopened = loadId ? await reopenSession(this.agent, loadId, this.workspace, mcpServers).catch((error: unknown) => {
        // The agent could not load its own record of the session: go on in a new one, and say so.
        this.emitEvent({ type: 'error', code: 'session_not_reloaded', message: `${this.options.launch.title} could not re-open session ${loadId}: ${errorMessage(error)}`, hint: 'a new session starts; the files and the journal are kept' });
        return undefined;
      }) : undefined;
      if (loadId && reopened) {
        sessionId = loadId;
        if (reopened.modes) this.state = { ...this.state, modes: { currentModeId: reopened.modes.currentModeId, availableModes: reopened.modes.availableModes } };
        if (reopened.configOptions) this.state = { ...this.state, configOptions: reopened.configOptions };
      } else {
        const created = await newSession(this.agent, this.workspace, mcpServers, env, await this.platformFolders());
        sessionId = created.sessionId;
        this.state = initialState(sessionId, {
          modes: created.modes ? { currentModeId: created.modes.currentModeId, availableModes: created.modes.availableModes } : undefined,
          configOptions: created.configOptions ?? undefined,
        });
        const asking = askingModeInstead(this.agent.init.agentInfo, this.state.modes);
        if (asking) {
          await untilExit(this.agent.process, this.agent.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: asking }), 'session/set_mode');
          this.state = { ...this.state, modes: { ...this.state.modes, currentModeId: asking } };
        }
      }
    } catch (error) {
      // The agent's own account (an "Internal error" says nothing): read before it is ended.
      const tail = this.agent.process.stderr.tail(START_TAIL_LINES);
      await this.shutdownAgent();
      await this.kit.stopBoardServer();
      if (error instanceof BridgeError) throw error;
      throw new BridgeError(
        'protocol',
        `${this.options.launch.title} refused to start a session: ${errorMessage(error)}${rpcDetails(error)}${tail ? `; its last words:\n${tail}` : ''}`,
        `run: ${cliCommand('doctor')}`,
      );
    }
    this.kit.open(sessionId, caps);
    const agentProcess = this.agent.process;
    void agentProcess.exited.then((exit) => {
      // Only an exit nobody asked for is news: not a close, not the old process of a restart.
      if (this.closed || this.shuttingDown || agentProcess !== this.agent.process) return;
      this.emitEvent({ type: 'agent_exited', code: exit.code, signal: exit.signal, stderrTail: this.agent.process.stderr.tail(8), duringTurn: Boolean(this.turn) });
      this.broker.cancelAll();
      void this.kit.terminals.releaseAll();
    });
    this.emitEvent({
      type: 'session_started',
      sessionId,
      agent: { id: this.options.launch.id, name: this.agent.init.agentInfo?.name, version: this.agent.init.agentInfo?.version },
      cwd: this.workspace,
      capabilities: capabilitySummary(caps),
      modes: this.state.modes,
      configOptions: this.state.configOptions,
      journal: this.journal.file,
    });
  }

  /** The installed platform folders the context reads, as `additionalDirectories` (an error is the first prompt's to report). */
  private async platformFolders(): Promise<string[]> {
    return (await this.kit.platformFolders(this.agent.capabilities, this.selection.current)).folders;
  }

  /** The agent's earlier sessions in this workspace (session/list, every page), newest first as the agent orders them. */
  private async listSessions(): Promise<SessionInfo[]> {
    const sessions: SessionInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const response = await this.abandonAfter(LIST_TIMEOUT_MS, 'session/list', (signal) =>
        this.agent.connection.agent.request(methods.agent.session.list, { cwd: this.workspace, cursor }, { cancellationSignal: signal, stopWaitingOnCancel: true }),
      );
      sessions.push(...response.sessions);
      cursor = response.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return sessions;
  }

  private async pickSession(pick: ((sessions: SessionInfo[]) => Promise<string | undefined>) | undefined): Promise<string | undefined> {
    if (!this.agent.capabilities.list) {
      throw new BridgeError('protocol', `${this.options.launch.title} cannot list its sessions (no session/list)`, 'name the session: --resume <session id>');
    }
    const sessions = await this.listSessions();
    return pick ? pick(sessions) : sessions[0]?.sessionId;
  }

  /**
   * A request the bridge stops waiting for after `ms`: the agent is told with
   * $/cancel_request (the SDK sends it when the signal aborts), and the caller gets an error.
   */
  private async abandonAfter<T>(ms: number, what: string, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const signal = AbortSignal.timeout(ms);
    try {
      return await untilExit(this.agent.process, send(signal), what);
    } catch (error) {
      if (signal.aborted) throw new BridgeError('protocol', `${this.options.launch.title} did not answer ${what} within ${ms / 1000} s (the request was cancelled)`, `try again; if it repeats, run: ${cliCommand('doctor')}`);
      throw error;
    }
  }

  private onTerminal(e: TerminalEvent): void {
    if (e.type === 'terminal_output') return this.emitEvent(e);
    if (e.type === 'terminal_refused') {
      return this.emitEvent({ type: 'error', code: 'terminal_refused', message: `refused the agent's terminal command ${e.command}: ${e.reason}`, hint: 'allow the agent\'s own command step when it asks, or run with --allow all' });
    }
    if (e.type === 'terminal_started') return this.emitEvent({ type: 'terminal_started', terminalId: e.terminalId, command: e.command, inProcess: e.inProcess });
    this.emitEvent({ type: 'terminal_exited', terminalId: e.terminalId, command: e.command, exitCode: e.exit?.exitCode ?? null, signal: e.exit?.signal ?? null });
  }

  private async runTurn(text: string, editor: EditorState): Promise<TurnResult> {
    if (!this.agent.process.running) {
      return { error: new BridgeError('agent_exited', `${this.options.launch.title} is not running`, 'restart the session') };
    }
    this.setBuffers(editor.buffers ?? {});
    if (editor.selection) this.selection.set(editor.selection);
    const blocks: ContentBlock[] = [];
    if (this.options.contexts) {
      // Never without a word: the agent gets the context, or one line saying why there is none.
      const injected = await this.kit.promptContext(this.selection.current);
      if (injected.error) this.emitEvent({ type: 'error', code: 'context', message: `the hardware context could not be built: ${injected.error}`, hint: `the prompt goes without it; run: ${cliCommand('context')}` });
      blocks.push(...injected.blocks);
      if (injected.event) this.emitEvent({ type: 'context_sent', ...injected.event });
      if (injected.missing) this.emitEvent({ type: 'context_missing', reason: injected.missing });
    }
    blocks.push({ type: 'text', text });
    this.state = reduceTurnStart(this.state);
    this.emitEvent({ type: 'prompt_sent', text });
    const info = this.agent.init.agentInfo;
    this.kit.writes?.name({ agentName: info?.title || info?.name || this.options.launch.title, firstPrompt: text });
    try {
      // Closing the session while a turn runs abandons its prompt request ($/cancel_request);
      // a message of the agent's that could not be answered fails the turn (onLost).
      this.abandonTurn = new AbortController();
      const lost = new Promise<never>((_, reject) => (this.failTurn = reject));
      const reply: unknown = await untilExit(
        this.agent.process,
        Promise.race([this.agent.connection.agent.request(methods.agent.session.prompt, { sessionId: this.sessionId, prompt: blocks }, { cancellationSignal: this.abandonTurn.signal, stopWaitingOnCancel: true }), lost]),
        'the turn',
      );
      const stopReason = promptStopReason(reply, this.options.launch.title);
      this.emitEvent({ type: 'stop', stopReason });
      return { stopReason };
    } catch (error) {
      // A dying agent closes its stdout (rejecting the request) a moment before its exit is seen.
      const exit = error instanceof BridgeError ? undefined : await Promise.race([this.agent.process.exited, delay(1000)]);
      const bridgeError =
        error instanceof BridgeError
          ? error
          : exit
            ? exitedError(this.agent.process, exit, 'the turn')
            : new BridgeError('protocol', `${this.options.launch.title} failed the turn: ${errorMessage(error)}`, `try again; if it repeats, run: ${cliCommand('doctor')}`);
      this.emitEvent({ type: 'error', code: bridgeError.code, message: bridgeError.message, hint: bridgeError.hint });
      return { error: bridgeError };
    } finally {
      this.failTurn = undefined;
    }
  }

  // A message the agent sent that could be neither taken nor answered: the turn waiting for it ends.
  private onLost(lost: LostMessage): void {
    const error = new BridgeError(
      'protocol',
      `${this.options.launch.title} sent ${lost.reason}`,
      `the turn ended; ask the agent for smaller pieces (e.g. smaller files), or raise the limit with ${MAX_MESSAGE_ENV}`,
    );
    if (this.failTurn) this.failTurn(error);
    else this.emitEvent({ type: 'error', code: error.code, message: error.message, hint: error.hint });
  }

  private onUpdate(notification: SessionNotification): void {
    if (!this.state || notification.sessionId !== this.state.sessionId) return;
    this.apply(notification.update);
  }

  private apply(update: SessionNotification['update']): void {
    this.reduce(reduceUpdate(this.state, update));
  }

  private reduce({ state, changes }: Reduction): void {
    this.state = state;
    for (const change of changes) this.emitChange(change);
  }

  // The request's tool call may carry only a title (claude sends no kind there): the broker
  // judges the call as the session knows it, merged from every update so far.
  private async onPermission(request: RequestPermissionRequest, signal?: AbortSignal): Promise<RequestPermissionResponse> {
    if (!this.state || request.sessionId !== this.state.sessionId) return this.broker.decide(request, signal);
    this.reduce(reducePermissionToolCall(this.state, request.toolCall));
    const known = getToolCall(this.state, request.toolCall.toolCallId)!;
    const response = await this.broker.decide(
      { ...request, toolCall: { ...request.toolCall, kind: known.kind, title: known.title, content: known.content, locations: known.locations, rawInput: known.rawInput } },
      signal,
    );
    const answer = permissionAnswer(request.options, response);
    if (answer === 'refused') this.reduce(reduceRefusal(this.state, known.toolCallId));
    // Gemini sends nothing more for a call whose permission was refused: close it here.
    const current = getToolCall(this.state, known.toolCallId);
    if (answer !== 'allowed' && current && (current.status === 'pending' || current.status === 'in_progress')) {
      this.apply({ sessionUpdate: 'tool_call_update', toolCallId: known.toolCallId, status: 'failed' });
    }
    return response;
  }

  private emitChange(change: StateChange): void {
    switch (change.type) {
      case 'message_chunk':
        return this.emitEvent({ type: 'message_chunk', role: change.role, text: change.text });
      case 'tool_call':
        this.emitEvent({ type: 'tool_call', created: change.created, toolCall: change.toolCall });
        this.kit.ownEdits.observe(change.toolCall);
        return;
      case 'plan':
        return this.emitEvent({ type: 'plan', entries: this.state.plan });
      case 'mode':
        return this.emitEvent({ type: 'mode', currentModeId: change.currentModeId });
      case 'config_options':
        return this.emitEvent({ type: 'config_options', configOptions: this.state.configOptions });
      case 'available_commands':
        return this.emitEvent({ type: 'available_commands', commands: this.state.availableCommands });
      case 'usage':
        return this.emitEvent({
          type: 'usage',
          used: this.state.usage?.used ?? 0,
          size: this.state.usage?.size ?? 0,
          ...(this.state.usage?.cost ? { cost: { amount: this.state.usage.cost.amount, currency: this.state.usage.cost.currency } } : {}),
        });
      case 'session_info':
        return this.emitEvent({ type: 'session_info', title: this.state.title });
      case 'notice':
        return this.emitEvent({ type: 'notice', severity: change.severity, title: change.title, description: change.description });
      case 'unknown':
        return;
    }
  }

  private emitEvent(event: BridgeEvent): void {
    this.emit('event', event, this.state);
  }

  private async shutdownAgent(): Promise<void> {
    if (!this.agent) return;
    this.shuttingDown = true;
    try {
      await this.kit.terminals.releaseAll();
      this.agent.connection.close();
      await this.agent.process.close();
    } finally {
      this.shuttingDown = false;
    }
  }
}

// A JSON-RPC error's `data.details` (claude-code-acp puts the real cause there under "Internal error").
function rpcDetails(error: unknown): string {
  const data = error && typeof error === 'object' && 'data' in error ? (error as { data: unknown }).data : undefined;
  const details = data && typeof data === 'object' && 'details' in data ? (data as { details: unknown }).details : undefined;
  return typeof details === 'string' && details ? ` (${details})` : '';
}
