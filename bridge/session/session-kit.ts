// What a session of the bridge is made of, whichever face drives it: the workspace guard,
// the journal and fs, the terminals, the hardware context and its read-only roots, the
// board MCP server and serial leases, the consent question, and the agent's own edits.
// `BridgeSession` (chat, run, serve, panel) and `ProxySession` (`boardbridge acp`) each
// mount one; they differ only in the voice that asks the person and in who drives the turn.
import type { McpServer } from '@agentclientprotocol/sdk';
import type { CommandTable } from '../../boards/command.js';
import type { SimulationRecord } from '../../boards/commands/simulate-command.js';
import type { Selection } from '../../context-providers/types.js';
import type { ContextService, LoadedContext } from '../context/context-service.js';
import type { BridgeHardware, SessionOperations } from '../hardware/bridge-hardware.js';
import type { AcpMcpHost, AcpMcpServer } from '../mcp/acp-mcp-server.js';
import { asksConsent, type DeviceConsent } from '../mcp/hardware-tool.js';
import type { HardwareMcpServer } from '../mcp/http-server.js';
import { mcpServerEntry, sessionTools } from '../mcp/session-tools.js';
import { FsService, type EditorWrite } from '../services/fs/fs-service.js';
import { WriteJournal, type JournalEntry } from '../services/fs/journal.js';
import { WorkspaceGuard } from '../services/fs/workspace-guard.js';
import type { OwnTool } from '../services/permission/classify.js';
import { TerminalService, type TerminalEvent } from '../services/terminal/terminal-service.js';
import type { AgentCapabilities } from './agent-capabilities.js';
import { sessionConsent, type ConsentVoice } from './consent-request.js';
import { ContextInjector, type ContextBlocks } from './context-injection.js';
import { BridgeError, errorMessage } from '../errors.js';
import { additionalPlatformFolders, OwnEdits } from './own-edits.js';
import { inTurns } from './in-turns.js';
import { httpServerParts, loadHttpServer } from '../mcp/http-server-load.js';

export interface SessionKitOptions {
  workspace: string;
  /** The agent's id, for the journal's header. */
  agentId: string;
  env: NodeJS.ProcessEnv;
  contexts?: ContextService;
  /** --sketch: which project of the workspace the context is about, when it is not the workspace itself. */
  sketch?: string;
  hardware?: BridgeHardware;
  /** The board the face has selected, read each time a tool needs it (it can change mid-session). */
  board: () => string | undefined;
  /** How the face asks the person about a device change or the project's own code. */
  voice: ConsentVoice;
  /** Why the agent's terminal command may not run (undefined: it may); read-only board commands are never asked. */
  authorize: (commandLine: string) => string | undefined;
  onTerminal?: (event: TerminalEvent) => void;
  onSimulation?: (record: SimulationRecord) => void;
  /** Unsaved editor contents by absolute path: the agent reads these instead of the disk. */
  buffers?: () => ReadonlyMap<string, string>;
  editorWrite?: EditorWrite;
}

/** The context for a prompt: the blocks to put before it, what they hold, or why there is none. */
export interface PromptContext extends ContextBlocks {
  loaded?: LoadedContext;
  /** The context could not be built (the prompt goes without it). */
  error?: string;
}

export class SessionKit {
  readonly workspace: string;
  readonly guard: WorkspaceGuard;
  readonly ownEdits: OwnEdits;
  /** Every device change (MCP tool or terminal command) asks here, with the exact question. */
  readonly consent: DeviceConsent;
  readonly boardCommands?: CommandTable;
  readonly terminals: TerminalService;
  /** What the board MCP server offers, as a permission policy judges a call of it. */
  ownTools: OwnTool[] = [];
  private id?: string;
  private journal?: WriteJournal;
  private files?: FsService;
  private injector = new ContextInjector(false);
  /** The session's one operation context (its hub, cursors, scripts, simulation): terminals and MCP tools share it. */
  readonly operations?: SessionOperations;
  private mcp?: Promise<HardwareMcpServer | AcpMcpServer | undefined>;
  private readonly journalListeners: ((entry: JournalEntry) => void)[] = [];

  constructor(private readonly options: SessionKitOptions) {
    this.workspace = options.workspace;
    this.guard = new WorkspaceGuard([options.workspace]);
    this.ownEdits = new OwnEdits(options.workspace, this.guard);
    this.consent = sessionConsent(() => this.id, options.voice);
    // Made once: the session's terminals and MCP tools run board operations in this one context.
    this.operations = options.hardware?.session({ consent: this.consent, ...(options.onSimulation ? { onSimulation: options.onSimulation } : {}) });
    this.boardCommands = this.operations?.terminalCommands();
    this.terminals = new TerminalService({ guard: this.guard, commands: this.boardCommands, env: options.env, authorize: options.authorize, onEvent: options.onTerminal });
  }

  get sessionId(): string | undefined {
    return this.id;
  }

  /**
   * The agent named the session (its answer to session/new, or a load): consent questions are
   * asked in it, and the journal is named after the first id (kept when a restart gets a new one;
   * its file is written with the first write). The fs and the context injector are the agent
   * process's: a new process after a restart is sent the full context again.
   */
  open(sessionId: string, caps: AgentCapabilities): void {
    this.id = sessionId;
    if (!this.journal) {
      this.journal = new WriteJournal(this.workspace, sessionId, this.options.agentId, this.options.env);
      this.ownEdits.attach(this.journal);
      for (const listener of this.journalListeners) this.journal.onEntry(listener);
    }
    this.injector = new ContextInjector(caps.embeddedContext);
    this.files = new FsService({
      guard: this.guard,
      journal: this.journal,
      buffers: this.options.buffers,
      missingFileAsEmpty: caps.missingFileAsEmpty,
      editorWrite: this.options.editorWrite,
      priorText: (file, onDisk) => this.ownEdits.priorText(file, onDisk),
    });
  }

  /** The session's journal, once it is open (its file exists once something was written). */
  get writes(): WriteJournal | undefined {
    return this.journal;
  }

  /** Hears each journalled write (fs/write_text_file or the agent's own edit). */
  onJournalEntry(listener: (entry: JournalEntry) => void): void {
    this.journalListeners.push(listener);
    this.journal?.onEntry(listener);
  }

  /** The bridge's fs answers: workspace-confined, journalled. */
  fs(): FsService {
    if (!this.files) throw new BridgeError('protocol', 'the agent used fs before its session was open', 'the agent must wait for its session/new answer');
    return this.files;
  }

  /**
   * The board MCP server's entry for session/new (started once, on the first call; none when the
   * session has no board tools): over ACP for an agent that takes MCP there, HTTP with a bearer
   * token where it takes HTTP, else a stdio relay it starts itself.
   */
  async boardServer(caps: AgentCapabilities, acpHost?: AcpMcpHost): Promise<McpServer | undefined> {
    this.mcp ??= this.startBoardServer(caps, acpHost);
    const server = await this.mcp;
    if (!server) return undefined;
    // The acp entry is unstable ACP: not in the stable McpServer type.
    return 'declaration' in server ? (server.declaration as unknown as McpServer) : mcpServerEntry(server, caps.mcp.http);
  }

  private async startBoardServer(caps: AgentCapabilities, acpHost: AcpMcpHost | undefined): Promise<HardwareMcpServer | AcpMcpServer | undefined> {
    const tools = sessionTools({
      workspace: this.workspace,
      sketch: this.options.sketch,
      contexts: this.options.contexts,
      board: this.options.board,
      operations: this.operations,
      guard: this.guard,
      env: this.options.env,
      images: caps.images,
    });
    if (!tools.length) return undefined;
    this.ownTools = tools.map((t) => ({ name: t.name, readOnly: t.readOnly, needsConsent: asksConsent(t) }));
    return acpHost ? acpHost.register(tools, this.consent) : (await loadHttpServer()).startHardwareMcpServer(tools, this.consent);
  }

  /** The context for `selection` (`note`: which project, or why none), or why it cannot be built; its platform folders become readable. */
  async loadContext(selection: Selection): Promise<{ loaded?: LoadedContext; note?: string; error?: string }> {
    if (!this.options.contexts) return {};
    try {
      const found = await this.options.contexts.loadWorkspace(this.workspace, selection, this.options.sketch);
      if (found.loaded) this.guard.allowReadOnly(found.loaded.context.readOnlyRoots);
      return found;
    } catch (error) {
      return { error: errorMessage(error) };
    }
  }

  /**
   * The installed platform folders the context reads (cores, variants, libraries), for
   * `additionalDirectories` where the agent takes them: it may then look there itself. The
   * guard serves them read-only whoever asks. `error`: the context could not be built.
   */
  async platformFolders(caps: AgentCapabilities, selection: Selection): Promise<{ folders: string[]; error?: string }> {
    if (!caps.additionalDirectories) return { folders: [] };
    const { loaded, error } = await this.loadContext(selection);
    return { folders: loaded ? additionalPlatformFolders(loaded.context.readOnlyRoots, this.workspace) : [], ...(error ? { error } : {}) };
  }

  /** The blocks that go before the person's prompt: the context in full when new or changed, or once the line that says why there is none. */
  async promptContext(selection: Selection): Promise<PromptContext> {
    if (!this.options.contexts) return { blocks: [] };
    const { loaded, note, error } = await this.loadContext(selection);
    const injected = this.injector.blocksFor(loaded, error ? `the hardware context could not be built: ${error.split('\n')[0]}` : note);
    return { ...injected, ...(loaded ? { loaded } : {}), ...(error ? { error } : {}) };
  }

  /** A cancelled turn leaves no terminal behind (whatever the agent did not release); one that ended otherwise keeps the agent's. */
  async endTurn(cancelled: boolean): Promise<void> {
    if (cancelled) await this.terminals.releaseAll();
  }

  /** Stops the board MCP server (a session that failed to start); the next boardServer() starts it again. */
  async stopBoardServer(): Promise<void> {
    const server = await this.mcp?.catch(() => undefined);
    this.mcp = undefined;
    await server?.close();
  }

  async close(): Promise<void> {
    await this.terminals.releaseAll();
    await this.stopBoardServer();
    await this.operations?.close();
  }
}

let preloading: Promise<void> | undefined;

/**
 * Starts loading the board MCP server's modules without waiting for them. A face calls it as it
 * asks its agent to initialize: while the agent answers, the bridge has nothing else to do, and a
 * session's boardServer() then finds them loaded instead of loading them between session/new and
 * the agent's answer to it. They load a part at a time (inTurns): an agent that answers initialize
 * before they are all loaded has its answer relayed after the part then loading, not after them
 * all. A failed load is reported by boardServer(), which loads again.
 */
export function preloadBoardServer(): void {
  preloading ??= inTurns(httpServerParts).catch(() => undefined);
}
