// The panel's circuit: the workspace's diagram.json as the page draws it, and a simulation the
// person starts from the panel that runs at the pace of the wall clock (as a circuit on the desk
// would), with what each part shows sent as it changes and the person's button presses and
// knob turns set as controls on the run. Bounded: one run per project, at most
// LIVE_MAX_SECONDS of simulated time, and at most one update per part per step.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PartLook } from '../../boards/circuit/circuit.js';
import { diagramFor } from '../../boards/circuit/diagram-file.js';
import type { Diagram } from '../../platform/circuit/diagram.js';
import type { LiveSimulation } from '../../boards/circuit/live-simulation.js';
import type { SimulationSlot } from '../../boards/operation-context.js';
import { startLiveSimulation } from '../../boards/commands/sim-command.js';
import type { BoardCommandDeps } from '../../boards/commands/deps.js';
import { errorMessage } from '../errors.js';
import type { CircuitLayout, ServerMessage } from './protocol.js';

/** Simulated time between two updates of the page: at most 20 per part per second, the last state of each step wins. */
export const CIRCUIT_STEP_SECONDS = 0.05;
/** Compiler output and serial text kept for the page. */
const TEXT_KEPT = 4096;
/** Part changes waiting for the next steps. */
const MAX_QUEUED_CONTROLS = 64;

type CircuitMessage = Extract<ServerMessage, { type: 'circuit' }>;

export class CircuitRun {
  private live?: LiveSimulation;
  private starting = false;
  private state: CircuitMessage = { type: 'circuit', running: false, atSeconds: 0 };
  /** Each part's last look sent, as JSON, so only changes go out. */
  private readonly sent = new Map<string, string>();
  private looks: PartLook[] = [];
  private serial = '';
  /** Controls the person set, applied at step starts: one per part a step, so a quick click is a press the sketch sees, then a release. */
  private controls: Array<{ part: string; control: string; value: number }> = [];
  /** The agent's simulation shown now (its session's slot), and how to stop following it and the slot. */
  private agentRun?: { live: LiveSimulation; unwatch: () => void };
  private unwatchSlot?: () => void;

  constructor(
    private readonly workspace: string,
    private readonly deps: BoardCommandDeps | undefined,
    private readonly broadcast: (message: ServerMessage) => void,
  ) {
    this.state = { ...this.state, ...this.layoutOrProblem() };
  }

  /** What a page that connects now is sent: the layout and run state, then the parts as they are. */
  snapshot(): ServerMessage[] {
    // A diagram.json written since (by the person or the agent) is drawn on the next page load.
    if (!this.live && !this.starting && !this.agentRun) this.state = { ...this.state, layout: undefined, problem: undefined, ...this.layoutOrProblem() };
    const messages: ServerMessage[] = [{ ...this.state, layout: this.state.layout }];
    if (this.looks.length > 0) messages.push({ type: 'parts', atSeconds: this.state.atSeconds, parts: this.looks, serial: this.serial });
    return messages;
  }

  /** Compiles the sketch and runs it with its parts until stopped, the page leaves or the time limit. */
  async start(): Promise<void> {
    if (!this.deps) return this.update({ problem: 'this panel cannot simulate (no board services)' });
    if (this.starting) return;
    this.stop();
    this.agentRun?.unwatch();
    this.agentRun = undefined;
    this.starting = true;
    let output = '';
    const abort = new AbortController();
    this.update({ running: false, starting: true, atSeconds: 0, problem: undefined, output: undefined, agent: undefined, ...this.layoutOrProblem() });
    try {
      const started = await startLiveSimulation(this.deps, {
        write: (text) => (output = (output + text).slice(-TEXT_KEPT)),
        signal: abort.signal,
        cwd: this.workspace,
        env: { ...process.env } as Record<string, string>,
      });
      if (!started) return this.update({ starting: false, problem: 'the sketch did not compile', output });
      if (!started.netlist) {
        started.live.stop();
        return this.update({ starting: false, problem: `there is no diagram.json beside the sketch in ${this.workspace}, so there is no circuit to show` });
      }
      this.sent.clear();
      this.serial = '';
      this.live = started.live;
      this.update({ starting: false, running: true, board: `${started.board.name} (${started.fqbn})`, layout: layoutOf(started.netlist.diagram), notes: started.netlist.notes });
      void this.pace(started.live);
    } catch (error) {
      this.update({ starting: false, problem: errorMessage(error), output: output || undefined });
    } finally {
      this.starting = false;
    }
  }

  /**
   * Shows the simulations the agent runs in its session (`sim_start` …): each step's part looks
   * go to the pages as the panel's own run's do. A run the person starts takes the view back.
   */
  follow(slot: SimulationSlot | undefined): void {
    this.unwatchSlot?.();
    this.unwatchSlot = slot?.watch((live) => this.showAgentRun(live));
    if (slot?.live) this.showAgentRun(slot.live);
  }

  private showAgentRun(live: LiveSimulation | undefined): void {
    const was = this.agentRun;
    this.agentRun?.unwatch();
    this.agentRun = undefined;
    if (!live || !live.netlist) {
      if (was && !this.live) this.update({ running: false, stopped: 'the agent stopped its simulation', agent: true });
      return;
    }
    this.stop('the agent started its own simulation');
    this.sent.clear();
    this.serial = '';
    const unwatch = live.onStep((report) => {
      if (this.agentRun?.live !== live) return;
      this.serial = (this.serial + report.serial).slice(-TEXT_KEPT);
      this.publish(live, report.serial);
      if (report.ended) this.update({ running: false, stopped: report.stop });
    });
    this.agentRun = { live, unwatch };
    this.update({ starting: false, running: true, agent: true, atSeconds: live.seconds, board: live.board.name, layout: layoutOf(live.netlist.diagram), notes: live.netlist.notes, problem: undefined, stopped: undefined });
  }

  /** The person pressed, released, turned or slid a part: its control is set on the run now. */
  control(part: string, control: string, value: number): string | undefined {
    if (!this.live) return this.agentRun ? "this is the agent's simulation: it sets the controls; press Run for your own" : 'no circuit simulation is running: press Run first';
    if (!this.live.netlist?.parts.some((p) => p.id === part)) return `the diagram has no part "${part}" the simulator models`;
    if (this.controls.length >= MAX_QUEUED_CONTROLS) return 'too many part changes at once; wait for the simulation to take them';
    this.controls.push({ part, control, value });
    return undefined;
  }

  /** The first queued control of each part, set on the run now; an error text goes to the pages. */
  private applyControls(live: LiveSimulation): void {
    const moved = new Set<string>();
    this.controls = this.controls.filter((c) => {
      if (moved.has(c.part)) return true;
      moved.add(c.part);
      const problem = live.setControl(c.part, c.control, c.value);
      if (problem) this.broadcast({ type: 'problem', message: problem });
      return false;
    });
  }

  stop(why = 'stopped'): void {
    const live = this.live;
    if (!live) return;
    this.live = undefined;
    this.controls = [];
    live.stop();
    this.update({ running: false, stopped: why });
  }

  // Runs a step, sends what changed, then waits until the wall clock catches up with the
  // simulated time (a slower simulation simply runs on, yielding between steps).
  private async pace(live: LiveSimulation): Promise<void> {
    const wallStart = performance.now();
    while (this.live === live) {
      this.applyControls(live);
      const report = await live.runFor(CIRCUIT_STEP_SECONDS);
      if (this.live !== live) return;
      this.serial = (this.serial + report.serial).slice(-TEXT_KEPT);
      this.publish(live, report.serial);
      if (report.ended) {
        this.live = undefined;
        return this.update({ running: false, stopped: report.stop });
      }
      const ahead = live.seconds * 1000 - (performance.now() - wallStart);
      await new Promise((resolve) => (ahead > 1 ? setTimeout(resolve, ahead) : setImmediate(resolve)));
    }
  }

  private publish(live: LiveSimulation, serial = ''): void {
    this.looks = live.looks();
    const changed = this.looks.filter((look) => {
      const json = JSON.stringify([look.state, look.view]);
      if (this.sent.get(look.id) === json) return false;
      this.sent.set(look.id, json);
      return true;
    });
    this.state = { ...this.state, atSeconds: live.seconds };
    if (changed.length > 0 || serial) this.broadcast({ type: 'parts', atSeconds: live.seconds, parts: changed, ...(serial ? { serial } : {}) });
  }

  private update(change: Partial<CircuitMessage>): void {
    this.state = { ...this.state, ...change };
    for (const key of Object.keys(this.state) as Array<keyof CircuitMessage>) if (this.state[key] === undefined) delete this.state[key];
    this.broadcast(this.state);
  }

  private layoutOrProblem(): { layout?: CircuitLayout; problem?: string } {
    const beside = path.join(this.workspace, 'diagram.json');
    if (!existsSync(beside)) return {};
    try {
      const diagram = diagramFor(this.workspace, beside);
      return diagram ? { layout: layoutOf(diagram) } : {};
    } catch (error) {
      return { problem: errorMessage(error) };
    }
  }
}

export function layoutOf(diagram: Diagram): CircuitLayout {
  return {
    file: diagram.file,
    parts: diagram.parts.map((part) => ({ id: part.id, type: part.type, top: part.top ?? 0, left: part.left ?? 0, rotate: part.rotate ?? 0, attrs: part.attrs })),
    wires: diagram.wires.map((wire) => ({ from: `${wire.from.part}:${wire.from.pin}`, to: `${wire.to.part}:${wire.to.pin}`, ...(wire.color ? { color: wire.color } : {}) })),
  };
}
