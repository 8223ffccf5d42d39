// `boardbridge simulate [sketch] [--fqbn F] [--for 5s] [--until REGEX] [--serial-in TEXT]
//  [--pin A0=512] [--pin 2=low@1.5s] [--vcd out.vcd] [--json]`: compile, then run the image
// on a simulated board (avr8js) and report the serial output and what every pin did.
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { discoverPlatforms } from '../../platform/arduino/platforms.js';
import { Circuit } from '../circuit/circuit.js';
import type { Diagram } from '../../platform/circuit/diagram.js';
import { diagramFor, diagramFqbn } from '../circuit/diagram-file.js';
import { buildNetlist } from '../../platform/circuit/netlist.js';
import { formatCircuit } from '../circuit/report-text.js';
import { readScenario } from '../circuit/scenario.js';
import { ScenarioRun } from '../circuit/scenario-run.js';
import type { CommandIo, InProcessCommand } from '../command.js';
import { parsePinInput } from '../simulate/inputs.js';
import { SIMULATION_LIMITS } from '../simulate/limits.js';
import { formatSimulation } from '../simulate/report-text.js';
import { simulatedBoard } from '../simulate/simulatable.js';
import { simulate } from '../simulate/simulation.js';
import { VcdWriter } from '../simulate/vcd.js';
import { parseCommand, parseDuration, parseRegex, UsageError } from './arguments.js';
import { compileForCommand } from './compile-command.js';
import type { BoardCommandDeps } from './deps.js';
import type { SimulationRecord } from './simulation-record.js';
import { sketchTarget } from './sketch-target.js';
import { simulationBuildFolder } from '../toolchains/sketch.js';

const USAGE =
  'boardbridge simulate [sketch] [--fqbn F] [--for 5s] [--until REGEX] [--serial-in TEXT] [--pin A0=512] [--pin 2=low@1.5s] [--diagram diagram.json] [--scenario FILE.test.yaml] [--vcd out.vcd] [--json] [--trace-limit N] [--wall-limit 60s]';


export type { SimulationRecord };

export function simulateCommand(deps: BoardCommandDeps): InProcessCommand {
  return async (argv, io) => {
    const { values, positionals } = parseCommand(
      {
        args: argv,
        allowPositionals: true,
        options: {
          fqbn: { type: 'string' },
          for: { type: 'string' },
          until: { type: 'string' },
          'serial-in': { type: 'string' },
          pin: { type: 'string', multiple: true },
          vcd: { type: 'string' },
          json: { type: 'boolean' },
          diagram: { type: 'string' },
          scenario: { type: 'string' },
          'trace-limit': { type: 'string' },
          'wall-limit': { type: 'string' },
        },
      },
      USAGE,
    );
    let diagram: Diagram | undefined;
    let diagramRead = false;
    const loadDiagram = (dir: string) => {
      if (!diagramRead) diagram = diagramFor(dir, values.diagram === undefined ? undefined : resolve(io.cwd, values.diagram));
      diagramRead = true;
      return diagram;
    };
    const target = sketchTarget(io.cwd, positionals[0], values.fqbn, USAGE, (dir) => diagramFqbn(loadDiagram(dir)));
    loadDiagram(target.sketch.dir);
    const forMs = parseDuration(values.for ?? (values.scenario ? '30s' : '5s'), USAGE);
    if (forMs <= 0 || forMs > SIMULATION_LIMITS.simulatedMs) throw new UsageError(`--for ${values.for}: give 1ms to ${SIMULATION_LIMITS.simulatedMs / 60_000}m of simulated time`, USAGE);
    const wallMs = parseDuration(values['wall-limit'] ?? '60s', USAGE);
    const traceLimit = Number(values['trace-limit'] ?? SIMULATION_LIMITS.defaultTraceChanges);
    if (!Number.isInteger(traceLimit) || traceLimit < 0) throw new UsageError(`--trace-limit ${values['trace-limit']}: give a whole number of changes`, USAGE);
    if (traceLimit > SIMULATION_LIMITS.traceChanges) {
      throw new UsageError(`--trace-limit ${values['trace-limit']}: a result lists at most ${SIMULATION_LIMITS.traceChanges} pin changes (the figures count them all); write every change to a file with --vcd`, USAGE);
    }
    const until = values.until === undefined ? undefined : parseRegex(values.until, USAGE);

    const vcdFile = values.vcd === undefined ? undefined : resolve(io.cwd, values.vcd);
    if (vcdFile) checkWritable(vcdFile, `--vcd ${values.vcd}`);
    const installed = await (deps.arduinoPlatforms?.() ?? discoverPlatforms());
    const board = simulatedBoard(target.fqbn, installed);
    const inputs = (values.pin ?? []).map((spec) => parsePinInput(spec, board.naming, USAGE));
    const netlist = diagram ? buildNetlist(diagram, board.naming) : undefined;
    const scenario = values.scenario === undefined ? undefined : readScenario(resolve(io.cwd, values.scenario), netlist);
    const circuit = netlist ? new Circuit(netlist, traceLimit) : undefined;
    const run = scenario ? new ScenarioRun(scenario, circuit) : undefined;

    const json = values.json === true;
    let compileText = '';
    const compileIo: CommandIo = json ? { ...io, write: (text) => (compileText += text) } : io;
    const report = await compileForCommand(deps, target.sketch.dir, board.buildFqbn, compileIo, false, simulationBuildFolder(target.sketch.dir, board.buildFqbn));
    if (!report.success || !report.image) {
      if (json) io.write(JSON.stringify({ ok: false, sketch: target.sketch.dir, fqbn: target.fqbn, compile: compileText }) + '\n');
      return 1;
    }
    let vcd: VcdWriter | undefined;
    if (!json) io.write(`Simulating ${board.name} (${target.fqbn}) for ${forMs / 1000} s of simulated time; serial output:\n`);
    const result = await simulate({
      hex: report.image,
      clockHz: board.clockHz,
      mcu: board.mcu,
      pins: board.pins,
      forSeconds: forMs / 1000,
      ...(until ? { until } : {}),
      ...(values['serial-in'] !== undefined ? { serialIn: values['serial-in'] } : {}),
      inputs,
      wallLimitMs: wallMs,
      traceLimit,
      ...(json ? {} : { onSerial: (text: string) => io.write(text) }),
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
    if (json) {
      io.write(JSON.stringify({ ok: true, ...record }) + '\n');
    } else {
      if (result.serial.bytes > 0 && !result.serial.text.endsWith('\n')) io.write('\n');
      io.write(formatSimulation(result, `${board.name} (${target.fqbn})`));
      if (circuitReport) io.write(formatCircuit(circuitReport));
      if (run) io.write(`Scenario: ${run.describe()}.\n`);
      if (result.trace.dropped > 0) io.write(`Trace: ${result.trace.changes.length} changes kept, ${result.trace.dropped} more counted in the figures above.\n`);
      if (vcdFile) io.write(`VCD written to ${vcdFile}${(vcd as VcdWriter | undefined)?.truncated ? ' (cut short: too many changes)' : ''}\n`);
    }
    if (outcome && !outcome.passed) return 1;
    return result.stop.reason === 'wall-limit' || result.stop.reason === 'aborted' ? 1 : 0;
  };
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

// Said before the compile and the run, not as an open() error after them.
function checkWritable(file: string, what: string): void {
  const folder = dirname(file);
  const stat = statSync(folder, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) throw new UsageError(`${what}: the folder ${folder} does not exist; give a file in an existing folder`, USAGE);
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new UsageError(`${what}: ${file} is a folder; give a file name, e.g. ${file}/trace.vcd`, USAGE);
  // As the fs service refuses them: writing would block on a FIFO nobody reads, or feed a device.
  if (existing && !existing.isFile()) throw new UsageError(`${what}: ${file} is ${kindOf(existing)}, not a regular file; give a new file name or a regular file to replace`, USAGE);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new UsageError(`${what}: ${folder} is not writable here; give a file in a folder you can write`, USAGE);
  }
}
