// `simulate`: compile, then run the image on a simulated board (avr8js) with the parts of its
// diagram.json, and report the serial output, what every pin did and what the parts showed.
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { discoverPlatforms } from '../../platform/arduino/platforms.js';
import { Circuit } from '../circuit/circuit.js';
import type { Diagram } from '../../platform/circuit/diagram.js';
import { diagramFor, diagramFqbn } from '../circuit/diagram-file.js';
import { buildNetlist } from '../../platform/circuit/netlist.js';
import { formatCircuit } from '../circuit/report-text.js';
import { circuitStill } from '../circuit/still/circuit-still.js';
import { readScenario } from '../circuit/scenario.js';
import { ScenarioRun } from '../circuit/scenario-run.js';
import { z } from 'zod';
import type { CommandIo, Outcome } from '../command.js';
import type { OperationContext } from '../operation-context.js';
import { parsePinInput } from '../simulate/inputs.js';
import { SIMULATION_LIMITS } from '../simulate/limits.js';
import { formatSimulation } from '../simulate/report-text.js';
import { simulatedBoard } from '../simulate/simulatable.js';
import { simulate } from '../simulate/simulation.js';
import { VcdWriter } from '../simulate/vcd.js';
import { parseDuration, parseRegex, UsageError } from './arguments.js';
import { compileForCommand } from './compile-command.js';
import type { SimulationRecord } from './simulation-record.js';
import type { simulateInput } from '../operation-inputs.js';
import { sketchTarget } from './sketch-target.js';
import { simulationBuildFolder } from '../toolchains/sketch.js';

export type { SimulationRecord };

/** The typed result: the record when it simulated, what the compiler said when it did not. */
export type SimulateData = ({ ok: true } & SimulationRecord) | { ok: false; sketch: string; fqbn: string; compile: string };

export async function simulateRun(input: z.output<z.ZodObject<typeof simulateInput>>, deps: OperationContext, io: CommandIo): Promise<Outcome<SimulateData>> {
    let diagram: Diagram | undefined;
    let diagramRead = false;
    const loadDiagram = (dir: string) => {
      if (!diagramRead) diagram = diagramFor(dir, input.diagram === undefined ? undefined : resolve(io.cwd, input.diagram));
      diagramRead = true;
      return diagram;
    };
    const target = await sketchTarget(io.cwd, input.sketch, input.fqbn, undefined, (dir) => diagramFqbn(loadDiagram(dir)));
    loadDiagram(target.sketch.dir);
    const forMs = parseDuration(input.for ?? (input.scenario ? '30s' : '5s'));
    if (forMs <= 0 || forMs > SIMULATION_LIMITS.simulatedMs) throw new UsageError(`--for ${input.for}: give 1ms to ${SIMULATION_LIMITS.simulatedMs / 60_000}m of simulated time`);
    const wallMs = parseDuration(input.wall_limit ?? '60s');
    const traceLimit = input.trace_limit ?? SIMULATION_LIMITS.defaultTraceChanges;
    if (traceLimit > SIMULATION_LIMITS.traceChanges) {
      throw new UsageError(`--trace-limit ${input.trace_limit}: a result lists at most ${SIMULATION_LIMITS.traceChanges} pin changes (the figures count them all); write every change to a file with --vcd`);
    }
    const until = input.until === undefined ? undefined : parseRegex(input.until);

    const vcdFile = input.vcd === undefined ? undefined : resolve(io.cwd, input.vcd);
    if (vcdFile) checkWritable(vcdFile, `--vcd ${input.vcd}`, io);
    const installed = await (deps.arduinoPlatforms?.() ?? discoverPlatforms());
    const board = simulatedBoard(target.fqbn, installed);
    const inputs = (input.pins ?? []).map((spec) => parsePinInput(spec, board.naming, ''));
    const netlist = diagram ? buildNetlist(diagram, board.naming) : undefined;
    const scenario = input.scenario === undefined ? undefined : await readScenario(resolve(io.cwd, input.scenario), netlist);
    const circuit = netlist ? new Circuit(netlist, traceLimit) : undefined;
    const run = scenario ? new ScenarioRun(scenario, circuit) : undefined;

    let compileText = '';
    const compileIo: CommandIo = { ...io, write: (text) => ((compileText += text), io.write(text)) };
    const report = await compileForCommand(deps, target.sketch.dir, board.buildFqbn, compileIo, false, simulationBuildFolder(target.sketch.dir, board.buildFqbn));
    if (!report.success || !report.image) return { exitCode: 1, data: { ok: false, sketch: target.sketch.dir, fqbn: target.fqbn, compile: compileText } };
    let vcd: VcdWriter | undefined;
    io.write(`Simulating ${board.name} (${target.fqbn}) for ${forMs / 1000} s of simulated time; serial output:\n`);
    const result = await simulate({
      hex: report.image,
      clockHz: board.clockHz,
      mcu: board.mcu,
      pins: board.pins,
      forSeconds: forMs / 1000,
      ...(until ? { until } : {}),
      ...(input.serial_in !== undefined ? { serialIn: input.serial_in } : {}),
      inputs,
      wallLimitMs: wallMs,
      traceLimit,
      onSerial: (text: string) => io.write(text),
      ...(vcdFile ? { onTrace: (trace) => (vcd = new VcdWriter(vcdFile, trace, board.clockHz, board.fqbn)) } : {}),
      ...(run || circuit ? { outside: run ?? circuit } : {}),
      signal: io.signal,
    }).catch((error: unknown) => {
      (vcd as VcdWriter | undefined)?.abandon();
      throw error;
    });
    (vcd as VcdWriter | undefined)?.close(result.cycles);
    const circuitReport = circuit?.report(result.cycles);
    const outcome = run ? (run.outcome ?? run.unfinished(result.stop.detail)) : undefined;
    const record: SimulationRecord = {
      ...result,
      sketch: target.sketch.dir,
      fqbn: target.fqbn,
      board: board.name,
      ...(vcdFile ? { vcd: vcdFile } : {}),
      ...(diagram ? { diagram: diagram.file } : {}),
      ...(circuitReport ? { circuit: circuitReport } : {}),
      ...(run && outcome ? { scenario: { ...outcome, name: run.scenario.name, file: run.scenario.file, summary: run.describe() } } : {}),
    };
    deps.onSimulation?.(record);
    {
      if (result.serial.bytes > 0 && !result.serial.text.endsWith('\n')) io.write('\n');
      io.write(formatSimulation(result, `${board.name} (${target.fqbn})`));
      if (circuitReport) io.write(formatCircuit(circuitReport));
      if (run) io.write(`Scenario: ${run.describe()}.\n`);
      if (result.trace.dropped > 0) io.write(`Trace: ${result.trace.changes.length} changes kept, ${result.trace.dropped} more counted in the figures above.\n`);
      if (vcdFile) io.write(`VCD written to ${vcdFile}${(vcd as VcdWriter | undefined)?.truncated ? ' (cut short: too many changes)' : ''}\n`);
    }
    const data: SimulateData = { ok: true, ...record };
    const looks = circuit?.looks();
    const still = netlist && looks ? { still: () => circuitStill(netlist.diagram, looks).png } : {};
    if (outcome && !outcome.passed) return { exitCode: 1, data, ...still };
    return { exitCode: result.stop.reason === 'wall-limit' || result.stop.reason === 'aborted' ? 1 : 0, data, ...still };
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

// Said before the compile and the run, not as an open() error after them.
function checkWritable(file: string, what: string, io: CommandIo): void {
  if (io.mayWrite && !io.mayWrite(file)) throw new UsageError(`${what}: ${file} is outside what this session may write; give a file in the workspace`);
  const folder = dirname(file);
  const stat = statSync(folder, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) throw new UsageError(`${what}: the folder ${folder} does not exist; give a file in an existing folder`);
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new UsageError(`${what}: ${file} is a folder; give a file name, e.g. ${file}/trace.vcd`);
  // As the fs service refuses them: writing would block on a FIFO nobody reads, or feed a device.
  if (existing && !existing.isFile()) throw new UsageError(`${what}: ${file} is ${kindOf(existing)}, not a regular file; give a new file name or a regular file to replace`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new UsageError(`${what}: ${folder} is not writable here; give a file in a folder you can write`);
  }
}
