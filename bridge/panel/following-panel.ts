// `serve --follow`: the panel's pages stay on one URL while the project under them
// follows the IDE. Each project has its own BridgeSession and PanelHub. A switch
// waits for a running turn to end (the pages are told it will), starts the new
// project, moves every page to its hub (a `project` line, then the new snapshot)
// and then closes the old session; its journal stays, so `boardbridge undo` works.
// Switches run one at a time, so a project never has two agents at once.
import path from 'node:path';
import type { Selection } from '../../context-providers/types.js';
import { errorMessage } from '../errors.js';
import type { Followed } from './ide-follow.js';
import type { PanelClient, PanelHub } from './panel-hub.js';
import type { ServerMessage } from './protocol.js';

/** A project's hub; it owns the project's session (closing the hub ends it). */
export interface ServedProject {
  hub: PanelHub;
}

export interface FollowingPanelOptions {
  /** The IDE's name for the pages: `MPLAB X`. */
  ide: string;
  /** Starts a session and hub for a project; throws when the agent cannot start there. */
  start(workspace: string, selection: Selection): Promise<ServedProject>;
  /** One line for the terminal `serve` runs in. */
  log(line: string): void;
}

type Connection = ReturnType<PanelHub['connect']>;
type ProjectNote = Extract<ServerMessage, { type: 'project' }>;

export class FollowingPanel {
  private readonly pages = new Set<{ client: PanelClient; connection: Connection }>();
  private observer?: Connection;
  private busy = false;
  private idle: (() => void)[] = [];
  private wanted?: Followed;
  private running?: Promise<void>;
  private moving?: string;
  private note?: ProjectNote;
  private closed = false;

  constructor(
    private current: ServedProject,
    private readonly options: FollowingPanelOptions,
  ) {
    this.observe(current.hub);
  }

  get workspace(): string {
    return this.current.hub.workspace;
  }

  /** For the panel server: a page joins the current project's hub and moves with it. */
  connect(client: PanelClient): Connection {
    if (this.note) client.send(this.note);
    const page = { client, connection: this.current.hub.connect(client) };
    this.pages.add(page);
    return {
      receive: async (raw) => {
        if (this.moving && isPrompt(raw)) return client.send({ type: 'problem', message: `the panel is moving to ${this.moving}`, hint: 'send it again once it shows there' });
        return page.connection.receive(raw);
      },
      leave: () => {
        page.connection.leave();
        this.pages.delete(page);
      },
    };
  }

  /** The IDE's project changed: the latest change wins if several come during a turn. */
  follow(followed: Followed): void {
    if (this.closed) return;
    this.wanted = followed;
    this.running ??= this.run().finally(() => (this.running = undefined));
  }

  /** Says something about following to every page (and the terminal). */
  tell(reason: string, extra: { workspace?: string; pending?: boolean } = {}): void {
    this.note = { type: 'project', ide: this.options.ide, workspace: extra.workspace ?? this.workspace, reason, ...(extra.pending ? { pending: true } : {}) };
    for (const page of this.pages) page.client.send(this.note);
    this.options.log(reason);
  }

  /** A problem with following (the settings file went missing): a passing message on the pages. */
  problem(message: string): void {
    for (const page of this.pages) page.client.send({ type: 'problem', message });
    this.options.log(message);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeIdle();
    await this.running;
    this.observer?.leave();
    await this.current.hub.close();
  }

  private async run(): Promise<void> {
    let toldPending: Followed | undefined;
    while (this.wanted && !this.closed) {
      const next = this.wanted;
      const here = path.basename(this.workspace);
      if (next.kind === 'none') {
        this.wanted = undefined;
        this.tell(`${next.reason} — the panel stays on ${here}`);
        continue;
      }
      if (path.resolve(next.workspace) === path.resolve(this.workspace)) {
        this.wanted = undefined;
        await this.current.hub.follow(next.selection);
        this.tell(`${this.options.ide} has ${next.name} open — the panel follows it${next.detail ? ` (${next.detail})` : ''}`);
        continue;
      }
      this.moving = next.name;
      if (this.busy) {
        if (toldPending !== next) this.tell(`${this.options.ide} switched to ${next.name} — the panel follows it when the agent has finished this turn`, { workspace: next.workspace, pending: true });
        toldPending = next;
        await this.whenIdle();
        continue;
      }
      this.wanted = undefined;
      await this.switchTo(next);
    }
    this.moving = undefined;
  }

  private async switchTo(next: Extract<Followed, { kind: 'project' }>): Promise<void> {
    const old = this.current;
    let fresh: ServedProject;
    try {
      fresh = await this.options.start(next.workspace, next.selection);
    } catch (error) {
      this.moving = undefined;
      this.tell(`${this.options.ide} switched to ${next.name}, but the agent could not start there (${errorMessage(error)}) — the panel stays on ${path.basename(old.hub.workspace)}`);
      return;
    }
    if (this.closed) {
      await fresh.hub.close();
      return;
    }
    this.current = fresh;
    this.observe(fresh.hub);
    this.moving = undefined;
    this.note = {
      type: 'project',
      ide: this.options.ide,
      workspace: fresh.hub.workspace,
      reason: `${this.options.ide} switched to ${next.name} — the panel follows it${next.detail ? ` (${next.detail})` : ''}`,
    };
    for (const page of this.pages) {
      page.connection.leave();
      page.client.send(this.note);
      page.connection = fresh.hub.connect(page.client);
    }
    this.options.log(`${this.note.reason}: now serving ${fresh.hub.workspace} (same URL)`);
    await old.hub.close();
  }

  // The panel listens to its hub like a page does, to know when a turn is running.
  private observe(hub: PanelHub): void {
    this.observer?.leave();
    this.setBusy(false);
    this.observer = hub.connect({
      send: (message) => {
        if (message.type === 'snapshot' || message.type === 'busy') this.setBusy(message.busy);
      },
    });
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    if (!busy) this.wakeIdle();
  }

  private whenIdle(): Promise<void> {
    return this.busy && !this.closed ? new Promise((resolve) => this.idle.push(resolve)) : Promise.resolve();
  }

  private wakeIdle(): void {
    for (const resolve of this.idle.splice(0)) resolve();
  }
}

function isPrompt(raw: string): boolean {
  try {
    return (JSON.parse(raw) as { type?: unknown }).type === 'prompt';
  } catch {
    return false;
  }
}
