// One editor session as the proxy sees it: its folder and board selection, the
// board MCP server given to the agent, the context injector, and the bridge's own
// fs and terminal services for what the editor does not serve itself.
import type { ContentBlock, McpServer, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { CommandTable } from '../../boards/command.js';
import type { Selection } from '../../context-providers/types.js';
import type { ContextService, LoadedContext } from '../context/context-service.js';
import type { BridgeHardware, SessionOperations } from '../hardware/bridge-hardware.js';
import type { DeviceConsent } from '../mcp/hardware-tool.js';
import type { AcpMcpHost, AcpMcpServer } from '../mcp/acp-mcp-server.js';
import { startHardwareMcpServer, type HardwareMcpServer } from '../mcp/http-server.js';
import { mcpServerEntry, sessionTools } from '../mcp/session-tools.js';
import { FsService } from '../services/fs/fs-service.js';
import { WriteJournal } from '../services/fs/journal.js';
import { WorkspaceGuard } from '../services/fs/workspace-guard.js';
import { TerminalService } from '../services/terminal/terminal-service.js';
import { ContextInjector } from '../session/context-injection.js';
import { BridgeError, errorMessage } from '../session/errors.js';
import { additionalPlatformFolders, OwnEdits, ToolCallWatch } from '../session/own-edits.js';

export interface ProxySessionOptions {
  cwd: string;
  selection: Selection;
  /** --sketch: the project of the workspace, when it is not the workspace itself. */
  sketch?: string;
  agentId: string;
  env: NodeJS.ProcessEnv;
  contexts?: ContextService;
  hardware?: BridgeHardware;
  embeddedContext: boolean;
  mcpHttp: boolean;
  /** The agent takes MCP servers over ACP (`mcpCapabilities.acp`): the board server is served there, no port. */
  mcpAcp?: AcpMcpHost;
  missingFileAsEmpty: boolean;
  /** Asks the editor about one device change, for this session. */
  consent: (session: ProxySession) => DeviceConsent;
  log: (line: string) => void;
}

export class ProxySession {
  selection: Selection;
  readonly guard: WorkspaceGuard;
  readonly terminals: TerminalService;
  readonly boardCommands?: CommandTable;
  /** The context the agent was last told in full, for `/context`. */
  lastSent?: LoadedContext;
  private readonly injector: ContextInjector;
  private readonly operations?: SessionOperations;
  private mcp?: HardwareMcpServer | AcpMcpServer;
  private journal?: WriteJournal;
  /** Files the editor's prompts named or the agent read, most recent first: where the project is looked for. */
  private readonly recentFiles: string[] = [];
  /** Command lines of execute steps the editor allowed in the current turn. */
  private readonly grants = new Set<string>();
  private files?: FsService;
  private id?: string;
  private readonly ownEdits: OwnEdits;
  private readonly toolCalls: ToolCallWatch;

  private constructor(private readonly options: ProxySessionOptions) {
    this.selection = { ...options.selection };
    this.guard = new WorkspaceGuard([options.cwd]);
    this.ownEdits = new OwnEdits(options.cwd, this.guard);
    this.toolCalls = new ToolCallWatch(this.ownEdits);
    this.injector = new ContextInjector(options.embeddedContext);
    this.operations = options.hardware?.session({ consent: options.consent(this) });
    this.boardCommands = this.operations?.terminalCommands();
    // The editor is the person's voice: a command runs in the proxy's own terminals only when a
    // permission the editor granted in this turn covers it (the agent's own execute step).
    this.terminals = new TerminalService({
      guard: this.guard,
      commands: this.boardCommands,
      env: options.env,
      authorize: (commandLine) => (this.grants.has(commandLine.trim().replace(/\s+/g, ' ')) ? undefined : `the editor granted no permission in this turn that covers "${commandLine}"`),
    });
  }

  static async open(options: ProxySessionOptions): Promise<ProxySession> {
    const session = new ProxySession(options);
    const tools = sessionTools({
      workspace: options.cwd,
      sketch: options.sketch,
      contexts: options.contexts,
      board: () => session.selection.board,
      operations: session.operations,
      guard: session.guard,
      env: options.env,
    });
    if (tools.length) session.mcp = options.mcpAcp ? options.mcpAcp.register(tools, options.consent(session)) : await startHardwareMcpServer(tools, options.consent(session));
    return session;
  }

  get sessionId(): string | undefined {
    return this.id;
  }

  /**
   * The agent named the session (its answer to session/new, or the editor's load): the journal
   * is named after it, so it is made only now; a fs call before it has no session to name.
   */
  set sessionId(sessionId: string | undefined) {
    if (!sessionId || this.id === sessionId) return;
    this.id = sessionId;
    this.journal = new WriteJournal(this.options.cwd, sessionId, this.options.agentId, this.options.env);
    this.ownEdits.attach(this.journal);
    this.files = new FsService({
      guard: this.guard,
      journal: this.journal,
      missingFileAsEmpty: this.options.missingFileAsEmpty,
      priorText: (file, onDisk) => this.ownEdits.priorText(file, onDisk),
    });
  }

  /** A `session/update` the agent sent: its edit calls are watched for files it writes itself. */
  agentUpdate(update: unknown): void {
    this.toolCalls.update(update);
  }

  /** A write the agent asked of the client: what the editor writes is not the agent's own edit. */
  clientWrites(file: string, text: string): void {
    this.ownEdits.writtenByClient(file, text);
  }

  /** The tool call of a permission the agent asks (codex names its patch there first). */
  permissionAsked(toolCall: ToolCallUpdate): void {
    this.toolCalls.permission(toolCall);
  }

  get cwd(): string {
    return this.options.cwd;
  }

  /** The editor's MCP servers plus the board server. */
  mcpServers(fromEditor: McpServer[] | undefined): McpServer[] {
    const servers = [...(fromEditor ?? [])];
    // The acp entry is unstable ACP: not in the stable McpServer type.
    if (this.mcp) servers.push('declaration' in this.mcp ? (this.mcp.declaration as unknown as McpServer) : mcpServerEntry(this.mcp, this.options.mcpHttp));
    return servers;
  }

  /** The installed platform folders the context reads from (read-only for the agent), as `additionalDirectories`. */
  async readOnlyRoots(): Promise<string[]> {
    const loaded = await this.load();
    return loaded ? additionalPlatformFolders(loaded.context.readOnlyRoots, this.options.cwd) : [];
  }

  async load(): Promise<LoadedContext | undefined> {
    const { loaded, error } = await this.tryLoad();
    if (error) this.options.log(`the hardware context for ${this.options.cwd} could not be built: ${error} (the prompt goes without it; run: boardbridge context)`);
    return loaded;
  }

  /** The context for the current selection (`note`: which project, or why none), or why it cannot be built. */
  async tryLoad(): Promise<{ loaded?: LoadedContext; note?: string; error?: string }> {
    if (!this.options.contexts) return {};
    try {
      const files = [...this.recentFiles, ...(this.selection.files ?? [])];
      const found = await this.options.contexts.loadWorkspace(this.options.cwd, { ...this.selection, ...(files.length ? { files } : {}) }, this.options.sketch);
      if (found.loaded) this.guard.allowReadOnly(found.loaded.context.readOnlyRoots);
      return found;
    } catch (error) {
      return { error: errorMessage(error) };
    }
  }

  /** A file the editor has open (a prompt's resource) or the agent read: the project may be its. */
  noteFile(file: string): void {
    const at = this.recentFiles.indexOf(file);
    if (at >= 0) this.recentFiles.splice(at, 1);
    this.recentFiles.unshift(file);
    this.recentFiles.length = Math.min(this.recentFiles.length, 8);
  }

  /**
   * The context blocks that go before the person's prompt: in full when new or changed, or
   * once the line that says why there is none; `notice` is what the person is told of it.
   */
  async contextBlocks(): Promise<{ blocks: ContentBlock[]; notice?: string }> {
    const { loaded, note, error } = await this.tryLoad();
    if (error) this.options.log(`the hardware context for ${this.options.cwd} could not be built: ${error}`);
    const injected = this.injector.blocksFor(loaded, error ? `the hardware context could not be built: ${error.split('\n')[0]}` : note);
    if (injected.event?.full) this.lastSent = loaded;
    return { blocks: injected.blocks, notice: injected.missing ? `No hardware context: ${injected.missing}` : injected.event?.note };
  }

  /** The editor allowed this tool call: the commands it shows may run in the proxy's terminals this turn. */
  grant(lines: string[]): void {
    for (const line of lines) this.grants.add(line);
  }

  endTurn(): void {
    this.grants.clear();
  }

  /** The bridge's own fs answers (for editors without fs): workspace-confined, journalled. */
  fs(): FsService {
    if (!this.files) throw new BridgeError('protocol', 'the agent used fs before its session was open', 'the agent must wait for its session/new answer');
    return this.files;
  }

  async close(): Promise<void> {
    await this.terminals.releaseAll();
    await this.mcp?.close();
    await this.operations?.close();
  }
}
