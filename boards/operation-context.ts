// What a board operation runs with: one per session (the session makes it once and every face —
// its MCP tools, its terminals — runs operations through it), one per CLI run. It holds the
// things a session has one of: the serial hub, the agent's serial cursors, the scripts running,
// the one live simulation, and the voice that asks the person.
import type { LiveSimulation } from './circuit/live-simulation.js';
import type { BoardCommandDeps } from './commands/deps.js';
import type { ByteLink } from './micropython/link.js';
import { RunningScripts } from './micropython/run-script.js';
import type { ProgramConsent, ProgramTarget } from './mplabx/program-consent.js';
import type { PortReader } from './serial/reader.js';

/** Which consent an operation needs: a device change, or code of the project's own run here. */
export type ConsentKind = 'device' | 'project-code';

/** The question asked before one call runs, and which consent it is. */
export interface ConsentRequest {
  question: string;
  kind: ConsentKind;
}

/** Asks the person about one operation: a device change (--allow-device) or the project's own code run here (--allow all). */
export type OperationConsent = (operation: string, question: string, kind: ConsentKind) => Promise<{ granted: boolean; reason?: string }>;

/** The agent's serial leases and cursors (bridge/mcp's AgentSerial), closed with the session. */
export interface AgentSerialPorts {
  reader(port: string, baud: number, cursor?: string): Promise<{ id: string; reader: PortReader }>;
  /** Why writing `data` to `port` can run code on the board (a device change), or undefined. */
  runsCode(port: string, data: string): Promise<string | undefined>;
  write(port: string, baud: number, data: string): Promise<void>;
}

/** The one interactive simulation of a session: `sim start` in a terminal and `sim_run` over MCP step the same one. */
export class SimulationSlot {
  live: LiveSimulation | undefined;
  private readonly watchers = new Set<(live: LiveSimulation | undefined) => void>();

  /** Replaces the running one (stopped first); the watchers hear of the new one. */
  replace(next: LiveSimulation | undefined): void {
    if (this.live === next) return;
    this.live?.stop();
    this.live = next;
    for (const watcher of this.watchers) watcher(next);
  }

  /** Ends it with the session. */
  end(): void {
    this.replace(undefined);
  }

  /** Hears each simulation that starts here (and undefined when it ends); returns the unwatch. */
  watch(watcher: (live: LiveSimulation | undefined) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }
}

export interface OperationContext extends BoardCommandDeps {
  /** Asks before operations whose entry says so (BOARD_OPERATIONS); absent: they are refused. */
  consent?: OperationConsent;
  /** `program` asks with the exact device it resolved; absent: through `consent`. */
  requestProgramConsent?(target: ProgramTarget, question: string): Promise<ProgramConsent | undefined>;
  /** ipecmd and prjMakefilesGenerator locations, when not in a standard MPLAB X install. */
  ipecmd?: string;
  generator?: string;
  /** How MicroPython ports are opened; the bridge passes its serial hub. Default: the tty directly. */
  openLink?: (path: string) => Promise<ByteLink>;
  answerTimeoutMs?: number;
  /** Shared so stop-script reaches a run started by any face. */
  running: RunningScripts;
  simulation: SimulationSlot;
  /** The agent's serial cursors (the MCP serial tools); absent: those operations say so. */
  serial?: AgentSerialPorts;
}

export type OperationContextParts = Omit<OperationContext, 'running' | 'simulation'> & Partial<Pick<OperationContext, 'running' | 'simulation'>>;

/** One context; the session calls this once and hands the same object to every face. */
export function operationContext(parts: OperationContextParts): OperationContext {
  return { ...parts, running: parts.running ?? new RunningScripts(), simulation: parts.simulation ?? new SimulationSlot() };
}

/** The same context (same slot, hub, cursors, scripts, consent) as one face names itself as a port holder. */
export function asFace(context: OperationContext, owner: string): OperationContext {
  return { ...context, owner };
}
