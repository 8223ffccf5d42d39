// One editor session as the proxy sees it: the session kit (guard, journal, fs, terminals,
// context, board MCP server, consent) with the editor as the person's voice, plus what only
// a relay needs: the files the editor named, the commands the editor allowed this turn,
// and the agent's tool calls watched for the files it writes itself.
import type { ContentBlock, McpServer, RequestPermissionRequest, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { CommandTable } from '../../boards/command.js';
import type { Selection } from '../../context-providers/types.js';
import type { ContextService, LoadedContext } from '../context/context-service.js';
import type { BridgeHardware } from '../hardware/bridge-hardware.js';
import type { AcpMcpHost } from '../mcp/acp-mcp-server.js';
import type { FsService } from '../services/fs/fs-service.js';
import type { TerminalService } from '../services/terminal/terminal-service.js';
import type { AgentCapabilities } from '../session/agent-capabilities.js';
import { BoardSelection } from '../session/board-selection.js';
import type { ConsentVoice } from '../session/consent-request.js';
import { ToolCallWatch } from '../session/own-edits.js';
import { permissionAnswer } from '../session/permission-answer.js';
import { grantedCommandLines } from '../services/permission/broker.js';
import { classify } from '../services/permission/classify.js';
import { refusalUpdate, refusedCallUpdate } from './refused-call.js';
import { SessionKit } from '../session/session-kit.js';
import { cliCommand } from '../cli-entry.js';

export interface ProxySessionOptions {
  cwd: string;
  selection: Selection;
  /** --sketch: the project of the workspace, when it is not the workspace itself. */
  sketch?: string;
  agentId: string;
  env: NodeJS.ProcessEnv;
  contexts?: ContextService;
  hardware?: BridgeHardware;
  caps: AgentCapabilities;
  /** The agent takes MCP servers over ACP: the board server is served there, no port. */
  mcpAcp?: AcpMcpHost;
  /** The editor's permission UI. */
  voice: ConsentVoice;
  log: (line: string) => void;
}

export class ProxySession {
  /** The board the editor's session works with (`/board` changes it). */
  readonly selection: BoardSelection;
  readonly kit: SessionKit;
  /** The context the agent was last told in full, for `/context`. */
  lastSent?: LoadedContext;
  /** Files the editor's prompts named or the agent read, most recent first: where the project is looked for. */
  private readonly recentFiles: string[] = [];
  /** Command lines of execute steps the editor allowed in the current turn. */
  private readonly grants = new Set<string>();
  private readonly toolCalls: ToolCallWatch;
  private cancelled = false;

  private constructor(private readonly options: ProxySessionOptions) {
    this.selection = new BoardSelection(options.selection);
    // The editor is the person's voice: a command runs in the proxy's own terminals only when a
    // permission the editor granted in this turn covers it (the agent's own execute step).
    this.kit = new SessionKit({
      workspace: options.cwd,
      agentId: options.agentId,
      env: options.env,
      contexts: options.contexts,
      sketch: options.sketch,
      hardware: options.hardware,
      board: () => this.selection.board,
      voice: options.voice,
      authorize: (commandLine) => (this.grants.has(commandLine.trim().replace(/\s+/g, ' ')) ? undefined : `the editor granted no permission in this turn that covers "${commandLine}"`),
    });
    this.toolCalls = new ToolCallWatch(this.kit.ownEdits);
  }

  static async open(options: ProxySessionOptions): Promise<ProxySession> {
    const session = new ProxySession(options);
    await session.kit.boardServer(options.caps, options.mcpAcp);
    return session;
  }

  get sessionId(): string | undefined {
    return this.kit.sessionId;
  }

  /** The agent named the session (its answer to session/new, or the editor's load). */
  set sessionId(sessionId: string | undefined) {
    if (sessionId && this.kit.sessionId !== sessionId) this.kit.open(sessionId, this.options.caps);
  }

  get cwd(): string {
    return this.options.cwd;
  }

  get terminals(): TerminalService {
    return this.kit.terminals;
  }

  get boardCommands(): CommandTable | undefined {
    return this.kit.boardCommands;
  }

  /** A `session/update` the agent sent: its edit calls are watched for files it writes itself. */
  agentUpdate(update: unknown): void {
    this.toolCalls.update(update);
  }

  /** A write the agent asked of the client: what the editor writes is not the agent's own edit. */
  clientWrites(file: string, text: string): void {
    this.kit.ownEdits.writtenByClient(file, text);
  }

  /** The tool call of a permission the agent asks (codex names its patch there first). */
  permissionAsked(toolCall: ToolCallUpdate): void {
    this.toolCalls.permission(toolCall);
  }

  /**
   * The editor answered the agent's permission request: what it allowed may run in the proxy's
   * terminals this turn (every command for an editor without terminals, the board commands the
   * proxy runs itself for one with them); a refusal is recorded, and the update that tells the
   * editor so is returned.
   */
  permissionAnswered(request: RequestPermissionRequest, result: unknown): ToolCallUpdate | undefined {
    const answer = permissionAnswer(request.options, result);
    if (answer === 'allowed') this.grant(grantedCommandLines(request.toolCall, classify(request.toolCall)));
    if (answer !== 'refused') return undefined;
    const call = this.toolCalls.refuse(request.toolCall.toolCallId);
    return call ? refusalUpdate(call) : undefined;
  }

  /** A tool call update of the agent's, as the editor gets it: a refused call says so. */
  toEditor<U extends ToolCallUpdate>(update: U): U {
    return this.toolCalls.get(update.toolCallId)?.refused ? refusedCallUpdate(update) : update;
  }

  /** Names the session in its journal (the agent's name and the person's first prompt), once. */
  name(agentName: string, firstPrompt: string): void {
    if (firstPrompt.trim()) this.kit.writes?.name({ agentName, firstPrompt });
  }

  /** The editor's MCP servers plus the board server. */
  async mcpServers(fromEditor: McpServer[] | undefined): Promise<McpServer[]> {
    const board = await this.kit.boardServer(this.options.caps, this.options.mcpAcp);
    return [...(fromEditor ?? []), ...(board ? [board] : [])];
  }

  /** The installed platform folders the context reads from (read-only for the agent), as `additionalDirectories`. */
  async readOnlyRoots(): Promise<string[]> {
    const { folders, error } = await this.kit.platformFolders(this.options.caps, this.contextSelection());
    if (error) this.options.log(`the hardware context for ${this.options.cwd} could not be built: ${error} (the prompt goes without it; run: ${cliCommand('context')})`);
    return folders;
  }

  /** The context for the current selection (`note`: which project, or why none), or why it cannot be built. */
  tryLoad(): Promise<{ loaded?: LoadedContext; note?: string; error?: string }> {
    return this.kit.loadContext(this.contextSelection());
  }

  private contextSelection(): Selection {
    const files = [...this.recentFiles, ...(this.selection.current.files ?? [])];
    return { ...this.selection.current, ...(files.length ? { files } : {}) };
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
    const injected = await this.kit.promptContext(this.contextSelection());
    if (injected.error) this.options.log(`the hardware context for ${this.options.cwd} could not be built: ${injected.error}`);
    if (injected.event?.full) this.lastSent = injected.loaded;
    return { blocks: injected.blocks, notice: injected.missing ? `No hardware context: ${injected.missing}` : injected.event?.note };
  }

  private grant(lines: string[]): void {
    for (const line of lines) this.grants.add(line);
  }

  /** The editor cancelled the turn (session/cancel): its end releases the proxy's terminals. */
  cancel(): void {
    this.cancelled = true;
  }

  /** The turn ended: what the editor allowed ends with it, and a cancelled turn leaves no terminal. */
  async endTurn(stopReason: unknown): Promise<void> {
    this.grants.clear();
    const cancelled = this.cancelled || stopReason === 'cancelled';
    this.cancelled = false;
    await this.kit.endTurn(cancelled);
  }

  /** The bridge's own fs answers (for editors without fs): workspace-confined, journalled. */
  fs(): FsService {
    return this.kit.fs();
  }

  close(): Promise<void> {
    return this.kit.close();
  }
}
