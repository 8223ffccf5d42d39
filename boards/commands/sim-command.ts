// `boardbridge sim <step>`: one interactive simulation per command table (so per session),
// steered step by step: start, run, serial, write, pin, control, parts, restart, stop.
// Every step is bounded in simulated time, wall time and output, and none changes a device.
import { resolve } from 'node:path';
import { discoverPlatforms } from '../../platform/arduino/platforms.js';
import { diagramFor, diagramFqbn } from '../circuit/diagram-file.js';
import type { Diagram } from '../../platform/circuit/diagram.js';
import { LiveSimulation, type RunReport } from '../circuit/live-simulation.js';
import { buildNetlist, type Netlist } from '../../platform/circuit/netlist.js';
import type { CommandIo, InProcessCommand } from '../command.js';
import { simulatedBoard, type SimulatedBoard } from '../simulate/simulatable.js';
import { parseCommand, parseDuration, parseRegex, UsageError } from './arguments.js';
import { compileForCommand } from './compile-command.js';
import type { BoardCommandDeps } from './deps.js';
import { sketchTarget } from './sketch-target.js';
import { simulationBuildFolder } from '../toolchains/sketch.js';

const USAGE = [
  'boardbridge sim start [sketch] [--fqbn F] [--diagram FILE]',
  'boardbridge sim run [--for 1s] [--until REGEX]',
  'boardbridge sim serial | write TEXT | pin PART:PIN | control PART CONTROL VALUE | parts | restart | stop',
].join('\n       ');

/** Simulated time one `sim run` may take; more is more steps. */
const MAX_RUN_MS = 60_000;
/** Wall time one step may take. */
const WALL_LIMIT_MS = 60_000;
/** Serial text one step prints. */
const SERIAL_PRINTED = 8 * 1024;

export function simCommand(deps: BoardCommandDeps): InProcessCommand {
  let live: LiveSimulation | undefined;
  const need = (): LiveSimulation => {
    if (!live) throw new UsageError('no simulation is running: start one with `boardbridge sim start`', USAGE);
    return live;
  };
  return async (argv, io) => {
    const [step, ...rest] = argv;
    switch (step) {
      case 'start': {
        const { values, positionals } = parseCommand({ args: rest, allowPositionals: true, options: { fqbn: { type: 'string' }, diagram: { type: 'string' } } }, USAGE);
        const started = await startLiveSimulation(deps, io, { sketch: positionals[0], fqbn: values.fqbn, diagram: values.diagram });
        if (!started) return 1;
        live?.stop();
        live = started.live;
        const { board, fqbn, diagram, netlist } = started;
        io.write(`Started ${board.name} (${fqbn}) at 0 s${netlist ? ` with ${netlist.parts.length} parts from ${diagram!.file}` : ''}; paused. Next: boardbridge sim run --for 1s\n`);
        for (const note of netlist?.notes ?? []) io.write(`Note: ${note}.\n`);
        return 0;
      }
      case 'run': {
        const { values } = parseCommand({ args: rest, options: { for: { type: 'string' }, until: { type: 'string' } } }, USAGE);
        const ms = parseDuration(values.for ?? (values.until ? `${MAX_RUN_MS}ms` : '1s'), USAGE);
        if (ms <= 0 || ms > MAX_RUN_MS) throw new UsageError(`--for ${values.for}: give 1ms to ${MAX_RUN_MS / 1000}s per step`, USAGE);
        const report = await need().runFor(ms / 1000, values.until === undefined ? undefined : parseRegex(values.until, USAGE));
        io.write(formatRun(report));
        return report.ended ? 1 : 0;
      }
      case 'serial': {
        const { text, dropped } = need().readSerial();
        io.write(`${dropped > 0 ? `[${dropped} earlier characters dropped]\n` : ''}${bounded(text) || '(no new serial output)'}\n`);
        return 0;
      }
      case 'write': {
        if (rest.length === 0) throw new UsageError('sim write: give the text to send (\\n for a newline)', USAGE);
        need().writeSerial(rest.join(' ').replace(/\\([nrt\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', '\\': '\\' })[c]!));
        io.write('Queued for the serial input; it is read as the simulation runs.\n');
        return 0;
      }
      case 'pin': {
        const [part, pin] = (rest[0] ?? '').split(':');
        if (!part || !pin) throw new UsageError('sim pin: give PART:PIN, e.g. led1:A or uno:13', USAGE);
        const level = need().pinLevel(part, pin);
        io.write(typeof level === 'string' ? `${level}\n` : `${part}:${pin} = ${level} at ${need().seconds.toFixed(3)} s\n`);
        return typeof level === 'string' ? 1 : 0;
      }
      case 'control': {
        const [part, control, value] = rest;
        if (!part || !control || value === undefined || !Number.isFinite(Number(value))) throw new UsageError('sim control: give PART CONTROL VALUE, e.g. btn1 pressed 1', USAGE);
        const problem = need().setControl(part, control, Number(value));
        io.write(problem ? `${problem}\n` : `${part} ${control} = ${value} at ${need().seconds.toFixed(3)} s\n`);
        return problem ? 1 : 0;
      }
      case 'parts': {
        const parts = need().parts();
        io.write(parts.length === 0 ? 'No parts (or none sampled yet: run first).\n' : parts.map((p) => `${p.id} (${p.type}): ${p.state}`).join('\n') + '\n');
        return 0;
      }
      case 'restart': {
        live = need().restarted();
        io.write('Restarted at 0 s; paused.\n');
        return 0;
      }
      case 'stop': {
        need().stop();
        live = undefined;
        io.write('Stopped.\n');
        return 0;
      }
      default:
        throw new UsageError(step ? `sim: unknown step "${step}"` : 'sim: give a step', USAGE);
    }
  };
}

export interface StartedSimulation {
  live: LiveSimulation;
  board: SimulatedBoard;
  fqbn: string;
  diagram?: Diagram;
  netlist?: Netlist;
}

/**
 * Compiles the sketch (the one in `io.cwd` by default) and starts it paused with its diagram's
 * parts: what `sim start` and the panel's Run both do. Undefined when the build failed (its
 * diagnostics went to `io`); a usage or diagram problem throws.
 */
export async function startLiveSimulation(
  deps: BoardCommandDeps,
  io: CommandIo,
  options: { sketch?: string; fqbn?: string; diagram?: string } = {},
): Promise<StartedSimulation | undefined> {
  let diagram: Diagram | undefined;
  const diagramFile = options.diagram && resolve(io.cwd, options.diagram);
  const target = sketchTarget(io.cwd, options.sketch, options.fqbn, USAGE, (dir) => diagramFqbn((diagram = diagramFor(dir, diagramFile))));
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
