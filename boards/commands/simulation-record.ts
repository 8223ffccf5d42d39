// What one `boardbridge simulate` run reports to the session that asked for it (deps.ts's
// onSimulation) and in its --json output.
import type { CircuitReport } from '../circuit/circuit.js';
import type { ScenarioOutcome } from '../circuit/scenario-run.js';
import type { SimulationResult } from '../simulate/simulation.js';

export interface SimulationRecord extends SimulationResult {
  sketch: string;
  fqbn: string;
  board: string;
  vcd?: string;
  /** The diagram.json the run simulated the parts of. */
  diagram?: string;
  circuit?: CircuitReport;
  scenario?: ScenarioOutcome & { name: string; file: string; summary: string };
}
