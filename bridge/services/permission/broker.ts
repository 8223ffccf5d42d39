// Answers session/request_permission: the policy first, then the person (through
// the face), and never a request left hanging. Options are chosen by kind, never
// by id: every agent names its options differently.
import type {
  PermissionOption,
  PermissionOptionKind,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk';
import type { WorkspaceGuard } from '../fs/workspace-guard.js';
import { classify, DEVICE_META_KEY, ownToolCall, PROJECT_CODE_META_KEY, touchedPaths, type OwnTool, type PermissionCategory } from './classify.js';

export interface PermissionPolicy {
  reads: boolean;
  /** Edits whose every path lies inside the workspace. */
  edits: boolean;
  /** Commands, fetches and anything else that is not a device change. */
  all: boolean;
  /** Upload, program, erase: only with the person's explicit flag. */
  device: boolean;
}

export const ASK_EVERYTHING: PermissionPolicy = { reads: false, edits: false, all: false, device: false };

export function policyFromFlags(allow: string | undefined, allowDevice: boolean): PermissionPolicy {
  const level = allow ?? 'none';
  if (!['none', 'reads', 'edits', 'all'].includes(level)) {
    throw new Error(`--allow takes reads, edits or all (got "${level}")`);
  }
  return {
    reads: level !== 'none',
    edits: level === 'edits' || level === 'all',
    all: level === 'all',
    device: allowDevice,
  };
}

export interface PendingPermission {
  id: number;
  request: RequestPermissionRequest;
  category: PermissionCategory;
}

export type PermissionDecision =
  | { outcome: 'selected'; option: PermissionOption; by: 'policy' | 'person'; reason?: string }
  | { outcome: 'rejected'; option?: PermissionOption; by: 'policy' | 'timeout' | 'no-person'; reason: string }
  | { outcome: 'cancelled'; by: 'cancel' | 'person' };

/** The face's way to ask the person; resolves with an optionId, or undefined to cancel. */
export type AskPerson = (pending: PendingPermission, signal: AbortSignal) => Promise<string | undefined>;

export interface BrokerOptions {
  policy: PermissionPolicy;
  guard: WorkspaceGuard;
  ask?: AskPerson;
  /** How long a person has to answer before the request is rejected. */
  askTimeoutMs?: number;
  onDecision?: (pending: PendingPermission, decision: PermissionDecision) => void;
  onPending?: (pending: PendingPermission) => void;
  /** The tools boardbridge's own MCP server offers this session (none: no request is one of ours). */
  ownTools?: () => readonly OwnTool[];
}

/** Whether a `terminal/create` may run, and if not why. */
export type CommandVerdict = { allowed: true; by: 'policy' | 'grant' } | { allowed: false; reason: string };

/**
 * The command lines (normalised) a tool call the person allowed covers: its raw input's `command`
 * (a string, or argv as codex sends it) and its title without the backticks claude puts around a
 * Bash line; none for a call that does not say it runs something.
 */
export function grantedCommandLines(toolCall: RequestPermissionRequest['toolCall'], category: string): string[] {
  if (!['execute', 'device', 'other'].includes(category)) return [];
  // boardbridge's own questions cover the one operation asked about, never a terminal line that reads like them.
  if (toolCall._meta?.[DEVICE_META_KEY] || toolCall._meta?.[PROJECT_CODE_META_KEY]) return [];
  const { rawInput, title } = toolCall;
  const command = rawInput && typeof rawInput === 'object' ? (rawInput as Record<string, unknown>).command : undefined;
  const lines = [typeof command === 'string' ? command : Array.isArray(command) && command.every((c) => typeof c === 'string') ? command.join(' ') : undefined, title?.replace(/^`(.*)`$/s, '$1')];
  return lines.filter((line): line is string => Boolean(line && line.trim())).map(normalCommand);
}

export class PermissionBroker {
  private nextId = 1;
  private readonly pending = new Map<number, AbortController>();
  /** Command lines of tool calls the person allowed in this turn. */
  private readonly grants = new Set<string>();
  /** The person chose "always allow" for an execute call: the agent's tool runs every command from then on. */
  private commandsAlways = false;

  constructor(private readonly options: BrokerOptions) {}

  /** `agentSignal` aborts when the agent withdraws its request ($/cancel_request): the person's question goes too. */
  async decide(request: RequestPermissionRequest, agentSignal?: AbortSignal): Promise<RequestPermissionResponse> {
    const pending: PendingPermission = { id: this.nextId++, request, category: this.categoryOf(request) };
    this.options.onPending?.(pending);
    const decision = await this.resolve(pending, agentSignal);
    this.options.onDecision?.(pending, decision);
    if (decision.outcome === 'selected' && decision.by === 'person' && decision.option.kind.startsWith('allow')) this.remember(pending, decision.option.kind);
    if (decision.outcome === 'cancelled' || !decision.option) return { outcome: { outcome: 'cancelled' } };
    return { outcome: { outcome: 'selected', optionId: decision.option.optionId } };
  }

  /**
   * A terminal command runs when the policy alone would allow it (--allow all, and for a
   * device change --allow-device too), or when it is the command of a tool call
   * granted in this turn: the agent's own execute step that the person allowed
   * (claude-code-acp asks for Bash, then sends the same line to terminal/create), or any
   * non-device command once the person chose "always allow" for an execute step.
   */
  authorizeCommand(commandLine: string): CommandVerdict {
    const category = classify({ toolCallId: 'terminal', kind: 'execute', title: commandLine });
    const { policy } = this.options;
    if (policy.all && (category !== 'device' || policy.device)) return { allowed: true, by: 'policy' };
    if (this.grants.has(normalCommand(commandLine)) || (this.commandsAlways && category !== 'device')) return { allowed: true, by: 'grant' };
    const needs = category === 'device' ? '--allow all --allow-device' : '--allow all';
    return { allowed: false, reason: `the policy does not allow commands (${needs}) and no permission granted in this turn covers "${commandLine}"` };
  }

  // Only a consent-free call of a tool we offer is 'own-tool' (allowed unasked); the others are
  // judged as any request: upload as a device change, the rest by the policy or the person.
  private categoryOf(request: RequestPermissionRequest): PermissionCategory {
    const own = ownToolCall(request.toolCall, this.options.ownTools?.() ?? [], (p) => insideWorkspace(this.options.guard, p, 'read'));
    if (own && !own.needsConsent) return 'own-tool';
    return classify(request.toolCall);
  }

  /** The turn is over: what was granted for it no longer covers a command. */
  endTurn(): void {
    this.grants.clear();
  }

  // What the policy grants needs no record: authorizeCommand asks the policy itself.
  private remember(pending: PendingPermission, kind: PermissionOptionKind): void {
    for (const line of grantedCommandLines(pending.request.toolCall, pending.category)) this.grants.add(line);
    // Claude then runs its Bash tool without asking again: what the person chose covers those
    // commands too (never a device change, which needs its own grant or --allow-device).
    if (kind === 'allow_always' && pending.category === 'execute') this.commandsAlways = true;
  }

  /** On session/cancel every pending request is answered `cancelled` (ACP requires it). */
  cancelAll(): void {
    for (const controller of this.pending.values()) controller.abort();
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  private async resolve(pending: PendingPermission, agentSignal?: AbortSignal): Promise<PermissionDecision> {
    const options = pending.request.options;
    if (pending.category === 'own-tool') {
      const allow = pickOption(options, ['allow_once', 'allow_always']);
      if (allow) return { outcome: 'selected', option: allow, by: 'policy', reason: "boardbridge's own tool: it neither changes a device nor runs project code" };
    }
    if (this.policyAllows(pending)) {
      const allow = pickOption(options, ['allow_once', 'allow_always']);
      if (allow) return { outcome: 'selected', option: allow, by: 'policy' };
    }
    const reject = pickOption(options, ['reject_once', 'reject_always']);
    if (!this.options.ask) {
      return {
        outcome: 'rejected',
        option: reject,
        by: 'no-person',
        reason: `${pending.category} is not allowed by the policy and no person is there to ask${pending.category === 'device' ? ' (device changes need --allow-device)' : ''}`,
      };
    }
    const controller = new AbortController();
    this.pending.set(pending.id, controller);
    const onAgentCancel = () => controller.abort();
    agentSignal?.addEventListener('abort', onAgentCancel, { once: true });
    if (agentSignal?.aborted) controller.abort();
    let timedOut = false;
    const timer = this.options.askTimeoutMs
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, this.options.askTimeoutMs)
      : undefined;
    try {
      const answer = await raceAbort(this.options.ask(pending, controller.signal), controller.signal);
      const chosen = answer === undefined ? undefined : options.find((o) => o.optionId === answer);
      if (chosen) return { outcome: 'selected', option: chosen, by: 'person' };
      if (timedOut) return { outcome: 'rejected', option: reject, by: 'timeout', reason: `no answer within ${this.options.askTimeoutMs} ms` };
      return { outcome: 'cancelled', by: controller.signal.aborted ? 'cancel' : 'person' };
    } finally {
      if (timer) clearTimeout(timer);
      agentSignal?.removeEventListener('abort', onAgentCancel);
      this.pending.delete(pending.id);
    }
  }

  private policyAllows(pending: PendingPermission): boolean {
    const { policy, guard } = this.options;
    switch (pending.category) {
      case 'device':
        return policy.device;
      case 'read':
        return policy.reads;
      case 'edit': {
        if (policy.all) return true;
        if (!policy.edits) return false;
        const paths = touchedPaths(pending.request.toolCall);
        return paths.length > 0 && paths.every((p) => insideWorkspace(guard, p));
      }
      default:
        return policy.all;
    }
  }
}

export function pickOption(options: PermissionOption[], kinds: PermissionOptionKind[]): PermissionOption | undefined {
  for (const kind of kinds) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
}

const normalCommand = (line: string) => line.trim().replace(/\s+/g, ' ');

function insideWorkspace(guard: WorkspaceGuard, p: string, access: 'read' | 'write' = 'write'): boolean {
  try {
    guard.check(p, access);
    return true;
  } catch {
    return false;
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
