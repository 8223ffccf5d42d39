// `boardbridge sim <step>` and the MCP `sim_*` tools: the one interactive simulation of a session
// (its OperationContext's slot), steered step by step: start, run, serial-read, serial-write, pin,
// control, parts, restart, stop. Every step is bounded in simulated time, wall time and output,
// and none changes a device.
import { resolve } from 'node:path';
import { discoverPlatforms } from '../../platform/arduino/platforms.js';
import { diagramFor, diagramFqbn } from '../circuit/diagram-file.js';
import type { Diagram } from '../../platform/circuit/diagram.js';
import { LiveSimulation, type RunReport } from '../circuit/live-simulation.js';
import { circuitStill } from '../circuit/still/circuit-still.js';
import { buildNetlist, type Netlist } from '../../platform/circuit/netlist.js';
import { z } from 'zod';
import type { CommandIo, Outcome } from '../command.js';
import type { OperationContext } from '../operation-context.js';
import { simulatedBoard, type SimulatedBoard } from '../simulate/simulatable.js';
import { parseDuration, parseRegex, UsageError } from './arguments.js';
import { compileForCommand } from './compile-command.js';
import type { BoardCommandDeps } from './deps.js';
import { SIM_RUN_MAX_MS as MAX_RUN_MS, simInputs, type SimStartInput } from '../operation-inputs.js';
import { sketchTarget } from './sketch-target.js';
import { simulationBuildFolder } from '../toolchains/sketch.js';

/** Wall time one step may take. */
const WALL_LIMIT_MS = 60_000;
/** Serial text one step prints. */
const SERIAL_PRINTED = 8 * 1024;

type Step<S extends z.ZodRawShape, R> = { input: S; run(input: z.output<z.ZodObject<S>>, deps: OperationContext, io: CommandIo): Promise<Outcome<R>> };
const step = <S extends z.ZodRawShape, R>(s: Step<S, R>): Step<S, R> => s;

function need(deps: OperationContext): LiveSimulation {
  const live = deps.simulation.live;
  if (!live) throw new UsageError('no simulation is running: start one with `boardbridge sim start` (MCP: sim_start)');
  return live;
}


export interface SimStepData {
  /** Simulated seconds now. */
  atSeconds: number;
}

/** The steps of `boardbridge sim` (MCP `sim_*`), each an operation of its own in BOARD_OPERATIONS. */
export const SIM_STEPS = {
  start: step({
    input: simInputs.start,
    async run(input, deps, io): Promise<Outcome<SimStepData & { board: string; fqbn: string; parts: number; diagram?: string; notes: string[] }>> {
      const started = await startLiveSimulation(deps, io, input);
      if (!started) return { exitCode: 1 };
      const { board, fqbn, diagram, netlist } = started;
      deps.simulation.replace(started.live);
      io.write(`Started ${board.name} (${fqbn}) at 0 s${netlist ? ` with ${netlist.parts.length} parts from ${diagram!.file}` : ''}; paused. Next: boardbridge sim run --for 1s\n`);
      const notes = netlist?.notes ?? [];
      for (const note of notes) io.write(`Note: ${note}.\n`);
      return { exitCode: 0, data: { atSeconds: 0, board: board.name, fqbn, parts: netlist?.parts.length ?? 0, ...(diagram ? { diagram: diagram.file } : {}), notes } };
    },
  }),
  run: step({
    input: simInputs.run,
    async run(input, deps, io): Promise<Outcome<RunReport>> {
      const ms = parseDuration(input.for ?? (input.until ? `${MAX_RUN_MS}ms` : '1s'));
      if (ms <= 0 || ms > MAX_RUN_MS) throw new UsageError(`--for ${input.for}: give 1ms to ${MAX_RUN_MS / 1000}s per step`);
      const live = need(deps);
      const report = await live.runFor(ms / 1000, input.until === undefined ? undefined : parseRegex(input.until));
      io.write(formatRun(report));
      const diagram = live.netlist?.diagram;
      const looks = live.looks();
      return { exitCode: report.ended ? 1 : 0, data: report, ...(diagram ? { still: () => circuitStill(diagram, looks).png } : {}) };
    },
  }),
  'serial-read': step({
    input: simInputs['serial-read'],
    async run(_input, deps, io): Promise<Outcome<SimStepData & { text: string; dropped: number }>> {
      const live = need(deps);
      const { text, dropped } = live.readSerial();
      io.write(`${dropped > 0 ? `[${dropped} earlier characters dropped]\n` : ''}${bounded(text) || '(no new serial output)'}\n`);
      return { exitCode: 0, data: { atSeconds: live.seconds, text: bounded(text), dropped } };
    },
  }),
  'serial-write': step({
    input: simInputs['serial-write'],
    async run(input, deps, io): Promise<Outcome<SimStepData & { bytes: number }>> {
      const live = need(deps);
      const text = input.text.replace(/\\([nrt\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', '\\': '\\' })[c]!);
      live.writeSerial(text);
      io.write('Queued for the serial input; it is read as the simulation runs.\n');
      return { exitCode: 0, data: { atSeconds: live.seconds, bytes: Buffer.byteLength(text) } };
    },
  }),
  pin: step({
    input: simInputs.pin,
    async run(input, deps, io): Promise<Outcome<SimStepData & { level?: 0 | 1; problem?: string }>> {
      const live = need(deps);
      const level = live.pinLevel(input.part, input.pin);
      io.write(typeof level === 'string' ? `${level}\n` : `${input.part}:${input.pin} = ${level} at ${live.seconds.toFixed(3)} s\n`);
      return typeof level === 'string' ? { exitCode: 1, data: { atSeconds: live.seconds, problem: level } } : { exitCode: 0, data: { atSeconds: live.seconds, level } };
    },
  }),
  control: step({
    input: simInputs.control,
    async run(input, deps, io): Promise<Outcome<SimStepData & { problem?: string }>> {
      const live = need(deps);
      const problem = live.setControl(input.part, input.control, input.value);
      io.write(problem ? `${problem}\n` : `${input.part} ${input.control} = ${input.value} at ${live.seconds.toFixed(3)} s\n`);
      return { exitCode: problem ? 1 : 0, data: { atSeconds: live.seconds, ...(problem ? { problem } : {}) } };
    },
  }),
  parts: step({
    input: simInputs.parts,
    async run(_input, deps, io): Promise<Outcome<SimStepData & { parts: Array<{ id: string; type: string; state: string }> }>> {
      const live = need(deps);
      const parts = live.parts();
      io.write(parts.length === 0 ? 'No parts (or none sampled yet: run first).\n' : parts.map((p) => `${p.id} (${p.type}): ${p.state}`).join('\n') + '\n');
      return { exitCode: 0, data: { atSeconds: live.seconds, parts } };
    },
  }),
  restart: step({
    input: simInputs.restart,
    async run(_input, deps, io): Promise<Outcome<SimStepData>> {
      deps.simulation.replace(need(deps).restarted());
      io.write('Restarted at 0 s; paused.\n');
      return { exitCode: 0, data: { atSeconds: 0 } };
    },
  }),
  stop: step({
    input: simInputs.stop,
    async run(_input, deps, io): Promise<Outcome<SimStepData>> {
      const at = need(deps).seconds;
      deps.simulation.end();
      io.write('Stopped.\n');
      return { exitCode: 0, data: { atSeconds: at } };
    },
  }),
};

export interface StartedSimulation {
  live: LiveSimulation;
  board: SimulatedBoard;
  fqbn: string;
  diagram?: Diagram;
  netlist?: Netlist;
}

/**
 * Compiles the sketch (the one in `io.cwd` by default, built in its simulation cache folder) and
 * starts it paused with its diagram's parts: the run of `sim start` (which puts it in the
 * session's slot) and the panel's Run. Undefined when the build failed (its diagnostics went to
 * `io`); a usage or diagram problem throws.
 */
export async function startLiveSimulation(deps: BoardCommandDeps, io: CommandIo, options: SimStartInput = {}): Promise<StartedSimulation | undefined> {
  let diagram: Diagram | undefined;
  const diagramFile = options.diagram === undefined ? undefined : resolve(io.cwd, options.diagram);
  const target = await sketchTarget(io.cwd, options.sketch, options.fqbn, undefined, (dir) => diagramFqbn((diagram = diagramFor(dir, diagramFile))));
  diagram ??= diagramFor(target.sketch.dir, diagramFile);
  const board = simulatedBoard(target.fqbn, await (deps.arduinoPlatforms?.() ?? discoverPlatforms()));
  const netlist = diagram ? buildNetlist(diagram, board.naming) : undefined;
  const report = await compileForCommand(deps, target.sketch.dir, board.buildFqbn, io, false, simulationBuildFolder(target.sketch.dir, board.buildFqbn));
  if (!report.success || !report.image) return undefined;
  return { live: new LiveSimulation(report.image, board, netlist, WALL_LIMIT_MS), board, fqbn: target.fqbn, ...(diagram ? { diagram } : {}), ...(netlist ? { netlist } : {}) };
}

function bounded(text: string): string {
  return text.length <= SERIAL_PRINTED ? text : `[${text.length - SERIAL_PRINTED} characters left out]\n${text.slice(-SERIAL_PRINTED)}`;
}

function formatRun(report: RunReport): string {
  const lines = [`At ${report.atSeconds.toFixed(3)} s simulated: ${report.stop}.`];
  lines.push(report.serial ? `Serial:\n${bounded(report.serial).replace(/\n$/, '')}` : 'Serial: (nothing new)');
  if (report.parts.length > 0) lines.push('Parts:', ...report.parts.map((p) => `  ${p.id} (${p.type}): ${p.state}`));
  return lines.join('\n') + '\n';
}
