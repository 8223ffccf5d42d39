// One served project: its BridgeSession, the pages watching it, and the person's
// answers coming back. Every page gets the same view; a page that connects late
// (reload, second tab) first receives the whole conversation so far: the session's own
// transcript (its SessionState, the one reduction of session/update that chat and the proxy
// read too), with the other events (prompts, permissions, terminals, stops) where they came.
import path from 'node:path';
import type { SerialHub } from '../../boards/serial/hub.js';
import type { ContextService } from '../context/context-service.js';
import type { Selection } from '../../context-providers/types.js';
import { BoardSelection } from '../session/board-selection.js';
import type { BridgeSession } from '../session/bridge-session.js';
import { AuthRequiredError, BridgeError, commandLine, errorMessage } from '../errors.js';
import { entryEvent, type BridgeEvent } from '../session/events.js';
import { findToolCall, type SessionState } from '../session/state.js';
import type { CreateElicitationResponse, ElicitationContentValue } from '@agentclientprotocol/sdk';
import type { AskElicitation, PendingElicitation } from '../services/elicitation/elicitation-broker.js';
import { parseAnswer } from '../services/elicitation/form-fields.js';
import type { AskPerson } from '../services/permission/broker.js';
import type { BoardCommandDeps } from '../../boards/commands/deps.js';
import { agentChoices } from './agent-choices.js';
import { CircuitRun } from './circuit-run.js';
import { toContextView } from './context-view.js';
import { FileReviews } from './file-review.js';
import { SerialMonitor } from './serial-monitor.js';
import { readWorkspaceFile } from './workspace-file.js';
import { parseClientMessage, type AgentUnavailable, type BoardContextView, type ClientMessage, type ServerMessage } from './protocol.js';

/** How long the IDE may take to apply and save an agent's write before the bridge writes it itself. */
const EDITOR_WRITE_TIMEOUT_MS = 15_000;

export interface PanelClient {
  send(message: ServerMessage): void;
}

export interface HubOptions {
  workspace: string;
  contexts?: ContextService;
  selection?: Selection;
  /** The bridge's shared serial hub, for the monitor pane. */
  serial?: SerialHub;
  /**
   * Starts a session for this project: `agent` is a choice the person picked on the panel,
   * undefined for the agent the bridge was started with (or picked last). Throws when it cannot start.
   */
  startAgent?(agent: string | undefined): Promise<BridgeSession>;
  /** What the circuit view's Run builds and simulates with (the bridge's board services); no Run without it. */
  boardDeps?: BoardCommandDeps;
}

/** One history of a session's transcript: a restart or a loaded session begins another. */
interface Transcript {
  /** The history's tool-call index, which every state of one history shares (see SessionState). */
  lineage: Map<string, number>;
  /** Its latest state. */
  state: SessionState;
  /** The entries already placed in the conversation. */
  placed: Set<number>;
}

/** What a late page replays: an event as it came, or an entry of a transcript, shown as it is now. */
type Remembered = { event: BridgeEvent } | { transcript: Transcript; entry: number };

export class PanelHub {
  private readonly remembered: Remembered[] = [];
  private transcript?: Transcript;
  private readonly terminalOutputAt = new Map<string, number>();
  private readonly clients = new Set<PanelClient>();
  /** Pages waiting for a port listing. */
  private readonly askingPorts = new Set<PanelClient>();
  private readonly answers = new Map<number, (optionId: string | undefined) => void>();
  private readonly forms = new Map<number, { pending: PendingElicitation; settle: (response: CreateElicitationResponse) => void }>();
  private readonly reviews: FileReviews;
  private readonly monitor?: SerialMonitor;
  private readonly circuit: CircuitRun;
  private session?: BridgeSession;
  private busy = false;
  private buffers: Record<string, string> = {};
  /** The page inside an IDE that applies the agent's writes through the IDE's editor. */
  private editor?: PanelClient;
  private readonly editorWrites = new Map<number, (applied: boolean) => void>();
  private nextWriteId = 1;
  /** The board chosen on the panel; the project's sessions read this same object. */
  readonly selection: BoardSelection;
  private context?: BoardContextView;
  private contextProblem?: string;
  private unavailable?: AgentUnavailable;
  private starting?: { agent: string; done: Promise<unknown> };
  private journalFile = '';
  private journalHeader = { type: 'session' as const, workspace: '', sessionId: '', agent: '', startedAt: new Date().toISOString() };

  constructor(private readonly options: HubOptions) {
    this.journalHeader.workspace = options.workspace;
    this.selection = new BoardSelection(options.selection);
    if (options.serial) this.monitor = new SerialMonitor(options.serial, (message) => this.broadcast(message));
    this.circuit = new CircuitRun(options.workspace, options.boardDeps, (message) => this.broadcast(message));
    this.reviews = new FileReviews(options.workspace, () => ({ file: this.journalFile, header: this.journalHeader }));
  }

  /** For BridgeSession's `ask`: the question waits for a page to answer it. */
  readonly ask: AskPerson = (pending, signal) =>
    new Promise((resolve) => {
      const settle = (optionId: string | undefined) => {
        this.answers.delete(pending.id);
        resolve(optionId);
      };
      this.answers.set(pending.id, settle);
      signal.addEventListener('abort', () => settle(undefined), { once: true });
    });

  /** For BridgeSession's `askElicitation`: the form waits for a page to fill it in. */
  readonly askElicitation: AskElicitation = (pending, signal) =>
    new Promise((resolve) => {
      const settle = (response: CreateElicitationResponse) => {
        this.forms.delete(pending.id);
        resolve(response);
      };
      this.forms.set(pending.id, { pending, settle });
      signal.addEventListener('abort', () => settle({ action: 'cancel' }), { once: true });
    });

  /** For BridgeSession's `onEvent`: kept for late pages and sent to every page now. */
  readonly onEvent = (event: BridgeEvent, state?: SessionState): void => {
    if (event.type === 'session_started') {
      this.journalFile = event.journal;
      this.journalHeader = { ...this.journalHeader, sessionId: event.sessionId, agent: event.agent.id };
    }
    this.remember(event, state);
    this.broadcast({ type: 'event', event });
  };

  get workspace(): string {
    return path.resolve(this.options.workspace);
  }

  /** The session now attached (none while no agent is ready). */
  get current(): BridgeSession | undefined {
    return this.session;
  }

  /**
   * Starts the agent through `options.startAgent` and attaches its session. When it cannot
   * start, the pages get `agent_unavailable` with the reason and the choices, and the error is
   * returned (never thrown): the panel stays up and the person starts one from there.
   */
  async startAgent(agent?: string): Promise<unknown> {
    const start = this.options.startAgent;
    if (!start) throw new Error('this panel cannot start agents');
    if (this.starting) return new Error(`${this.starting.agent} is already starting`);
    const title = agent ? (agentChoices().find((c) => c.id === agent)?.title ?? agent) : 'the agent';
    let failure: unknown;
    const done = (async () => {
      this.broadcast({ type: 'agent_starting', agent: title });
      try {
        const session = await start(agent);
        this.unavailable = undefined;
        this.attach(session);
        if (agent) this.broadcast({ type: 'agent_chosen', agent });
      } catch (error) {
        failure = error;
        this.unavailableBecause(error);
      }
    })();
    this.starting = { agent: title, done };
    await done;
    this.starting = undefined;
    return failure;
  }

  private unavailableBecause(error: unknown): void {
    const hint = error instanceof BridgeError ? error.hint : undefined;
    this.unavailable = { reason: errorMessage(error), ...(hint ? { hint } : {}), choices: agentChoices() };
    this.broadcast({ type: 'agent_unavailable', ...this.unavailable });
    // The Board tab works without an agent.
    if (!this.context && !this.contextProblem) void this.refreshContext();
  }

  attach(session: BridgeSession): void {
    this.session = session;
    session.setEditorWriter(this.editorWrite);
    this.circuit.follow(session.simulation);
    session.journal.onEntry((entry) => this.broadcast({ type: 'review', review: this.reviews.record(entry) }));
    void this.refreshContext();
  }

  /** `serve --follow`: the script and port the IDE recorded for this same folder. */
  async follow(selection: Selection): Promise<void> {
    this.selection.set({ ...this.selection.current, files: selection.files, port: selection.port ?? this.selection.current.port });
    await this.refreshContext();
  }

  /** A page connected: it gets the snapshot, then live messages. Returns what to call on its messages and on leaving. */
  connect(client: PanelClient): { receive(raw: string): Promise<void>; leave(): void } {
    this.clients.add(client);
    client.send({
      type: 'snapshot',
      workspace: this.options.workspace,
      events: this.conversation(),
      reviews: this.reviews.list(),
      busy: this.busy,
      context: this.context,
      contextProblem: this.contextProblem,
      ...(this.selection.current.port ? { port: this.selection.current.port } : {}),
      serial: this.monitor?.snapshot(),
      ...(this.unavailable ? { agentUnavailable: this.unavailable } : {}),
      ...(this.starting ? { agentStarting: this.starting.agent } : {}),
    });
    for (const message of this.circuit.snapshot()) client.send(message);
    return {
      receive: (raw) => this.receive(client, raw),
      leave: () => {
        this.clients.delete(client);
        if (client === this.editor) this.dropEditor();
        // A circuit run is for someone watching it.
        if (this.clients.size === 0) this.circuit.stop('no page is open');
      },
    };
  }

  // A form's fields arrive as typed; each is checked against its schema before the agent gets it.
  private answerForm(client: PanelClient, message: Extract<ClientMessage, { type: 'elicitation' }>): void {
    const form = this.forms.get(message.id);
    if (!form) return client.send({ type: 'problem', message: 'that form was already answered or withdrawn' });
    if (message.action !== 'accept') return form.settle({ action: message.action });
    const content: Record<string, ElicitationContentValue> = {};
    for (const field of form.pending.fields ?? []) {
      const answer = parseAnswer(field, message.content?.[field.name] ?? '');
      if ('error' in answer) return client.send({ type: 'problem', message: `${field.title}: ${answer.error}`, hint: 'correct it and send the form again' });
      if ('value' in answer) content[field.name] = answer.value;
    }
    form.settle({ action: 'accept', content });
  }

  // A page that asks again while its answer is on the way gets that one answer: a flood of
  // requests costs one listing (the hub shares it) and one reply per page.
  private async answerPorts(client: PanelClient): Promise<void> {
    if (this.askingPorts.has(client)) return;
    this.askingPorts.add(client);
    try {
      client.send({ type: 'serial_ports', ports: (await this.monitor?.ports()) ?? [] });
    } finally {
      this.askingPorts.delete(client);
    }
  }

  private async receive(client: PanelClient, raw: string): Promise<void> {
    const message = parseClientMessage(raw);
    if ('error' in message) return client.send({ type: 'problem', message: message.error });
    try {
      await this.handle(client, message);
    } catch (error) {
      const login = error instanceof AuthRequiredError && error.logins[0] ? commandLine(error.logins[0]) : undefined;
      client.send({ type: 'problem', message: errorMessage(error), hint: error instanceof BridgeError ? error.hint : undefined, login });
    }
  }

  private async handle(client: PanelClient, message: ClientMessage): Promise<void> {
    if (message.type === 'start_agent') {
      if (this.session) return client.send({ type: 'problem', message: 'an agent is already running here', hint: 'press Restart agent to start it again' });
      await this.startAgent(message.agent);
      return;
    }
    const session = this.session;
    if (!session && (message.type === 'prompt' || message.type === 'cancel' || message.type === 'mode' || message.type === 'restart')) {
      return client.send(
        this.unavailable
          ? { type: 'problem', message: 'no agent is running', hint: 'start one of the agents listed above' }
          : { type: 'problem', message: 'the agent is still starting', hint: 'try again in a moment' },
      );
    }
    switch (message.type) {
      case 'prompt':
        return this.prompt(client, session!, message.text);
      case 'cancel':
        return session!.cancel();
      case 'permission': {
        const answer = this.answers.get(message.id);
        if (!answer) return client.send({ type: 'problem', message: 'that permission request was already answered or withdrawn' });
        return answer(message.optionId);
      }
      case 'elicitation':
        return this.answerForm(client, message);
      case 'diff': {
        const diff = this.reviews.diff(message.path);
        if (!diff) return client.send({ type: 'problem', message: `the agent has not changed ${message.path} in this session` });
        return client.send({ type: 'diff', path: message.path, ...diff });
      }
      case 'open_file': {
        const file = await readWorkspaceFile(this.options.workspace, message.path, this.buffers);
        if ('error' in file) return client.send({ type: 'problem', message: file.error, hint: file.hint });
        return client.send({ type: 'file', path: file.path, requested: message.path, text: file.text });
      }
      case 'review': {
        const outcome = message.decision === 'accept' ? this.reviews.accept(message.path) : await this.reviews.reject(message.path);
        if ('error' in outcome) {
          client.send({ type: 'problem', message: outcome.error, hint: outcome.hint });
          const current = this.reviews.list().find((r) => r.path === message.path);
          if (current) this.broadcast({ type: 'review', review: current });
          return;
        }
        return this.broadcast({ type: 'review', review: outcome.review });
      }
      case 'mode':
        return session!.setMode(message.modeId);
      case 'restart':
        return this.restartAgent(session!);
      case 'selection': {
        if (this.selection.update({ board: message.board, port: message.port, arduinoIde: message.arduinoIde })) await this.refreshContext();
        return;
      }
      case 'editor':
        this.editor = client;
        return;
      case 'write_applied':
        return this.editorWrites.get(message.id)?.(message.ok);
      case 'buffers':
        this.buffers = message.buffers;
        this.session?.setBuffers(message.buffers);
        return;
      case 'serial_ports':
        return this.answerPorts(client);
      case 'serial_open':
        return this.needMonitor().open(message.path, message.baudRate);
      case 'serial_send':
        return this.needMonitor().send(message.text);
      case 'serial_close':
        return this.needMonitor().close();
      case 'circuit_start':
        return this.circuit.start();
      case 'circuit_stop':
        return this.circuit.stop();
      case 'circuit_control': {
        const problem = this.circuit.control(message.part, message.control, message.value);
        if (problem) client.send({ type: 'problem', message: problem });
        return;
      }
    }
  }

  /**
   * For BridgeSession: the agent's write to an existing file goes to the IDE's editor
   * (an edit its undo can take back, then a save). Without an IDE, or when it does not
   * answer in time, the bridge writes the file itself.
   */
  readonly editorWrite = (file: string, text: string): Promise<boolean> => {
    const editor = this.editor;
    if (!editor) return Promise.resolve(false);
    const id = this.nextWriteId++;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), EDITOR_WRITE_TIMEOUT_MS);
      const settle = (applied: boolean) => {
        clearTimeout(timer);
        this.editorWrites.delete(id);
        resolve(applied);
      };
      this.editorWrites.set(id, settle);
      editor.send({ type: 'apply_write', id, path: file, text });
    });
  };

  private dropEditor(): void {
    this.editor = undefined;
    for (const settle of [...this.editorWrites.values()]) settle(false);
  }

  /** Releases the monitor's port and ends the session (one still starting, once it has). */
  async close(): Promise<void> {
    this.circuit.stop('the panel closed');
    await this.monitor?.close();
    await this.starting?.done;
    await this.session?.close();
  }

  private needMonitor(): SerialMonitor {
    if (!this.monitor) throw new Error('this bridge has no serial hub');
    return this.monitor;
  }

  private async prompt(client: PanelClient, session: BridgeSession, text: string): Promise<void> {
    if (this.busy) return client.send({ type: 'problem', message: 'the agent is still working on the last message', hint: 'wait, or press Stop' });
    this.setBusy(true);
    try {
      // A session started with this hub's selection reads it already; one started otherwise is told.
      const result = await session.prompt(text, { selection: this.selection.current, buffers: this.buffers });
      if (result.error?.code === 'agent_exited') client.send({ type: 'problem', message: result.error.message, hint: 'press Restart agent' });
    } finally {
      this.setBusy(false);
    }
    await this.refreshContext();
  }

  // An agent that cannot start again (its login expired, it was uninstalled) leaves the choices.
  private async restartAgent(session: BridgeSession): Promise<void> {
    try {
      await session.restart();
    } catch (error) {
      if (!this.options.startAgent) throw error;
      this.session = undefined;
      await session.close();
      this.unavailableBecause(error);
    }
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    this.broadcast({ type: 'busy', busy });
  }

  private async refreshContext(): Promise<void> {
    if (!this.options.contexts) return;
    try {
      const loaded = await this.options.contexts.load(this.options.workspace, this.selection.current);
      this.context = loaded ? toContextView(loaded.context) : undefined;
      this.contextProblem = loaded ? undefined : 'no Arduino sketch, MPLAB X project or OpenMV script was found in this folder';
    } catch (error) {
      this.context = undefined;
      this.contextProblem = `the board context could not be built: ${errorMessage(error)}`;
    }
    this.broadcast({ type: 'context', context: this.context, problem: this.contextProblem, ...(this.selection.current.port ? { port: this.selection.current.port } : {}) });
  }

  // A message or a tool call is a place in the session's transcript, taken where it first
  // appeared and shown as the transcript has it at the time a page connects: the hub keeps no
  // reduction of its own.
  private remember(event: BridgeEvent, state: SessionState | undefined): void {
    if ((event.type === 'message_chunk' || event.type === 'tool_call') && state) {
      const entry = event.type === 'message_chunk' ? state.entries.length - 1 : findToolCall(state, event.toolCall.toolCallId)?.index;
      if (entry !== undefined) {
        const transcript = this.transcriptOf(state);
        if (!transcript.placed.has(entry)) {
          transcript.placed.add(entry);
          this.remembered.push({ transcript, entry });
        }
        return;
      }
    }
    // One entry per terminal holds its output so far, where it first appeared.
    if (event.type === 'terminal_output') {
      const at = this.terminalOutputAt.get(event.terminalId);
      const earlier = at === undefined ? undefined : this.remembered[at];
      if (earlier && 'event' in earlier && earlier.event.type === 'terminal_output') {
        earlier.event = { ...earlier.event, text: earlier.event.text + event.text, ...(event.truncated ? { truncated: true } : {}) };
        return;
      }
      this.terminalOutputAt.set(event.terminalId, this.remembered.length);
    }
    this.remembered.push({ event });
  }

  private transcriptOf(state: SessionState): Transcript {
    if (this.transcript?.lineage !== state.toolCallIndex) this.transcript = { lineage: state.toolCallIndex, state, placed: new Set() };
    this.transcript.state = state;
    return this.transcript;
  }

  /** The conversation so far, as a page that connects now replays it. */
  private conversation(): BridgeEvent[] {
    return this.remembered.map((item) => ('event' in item ? item.event : entryEvent(item.transcript.state.entries.get(item.entry)!)));
  }

  private broadcast(message: ServerMessage): void {
    for (const client of this.clients) client.send(message);
  }
}
