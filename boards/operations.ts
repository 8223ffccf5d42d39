// Every board operation once: its name (the command `boardbridge <name>` in terminals and on the
// command line; the MCP tool is the same name in snake_case), its help, its input schema (from
// which the CLI's options, a terminal's argv parsing and the MCP inputSchema are all generated:
// boards/operation-faces.ts, bridge/cli/board.ts, bridge/mcp/command-tools.ts), what it does to
// the world (so every face asks the person by one rule), and its typed run.
import type { z } from 'zod';
import type { CommandIo, Outcome } from './command.js';
import { shownText } from './consent-text.js';
import type { ConsentKind, ConsentRequest, OperationContext } from './operation-context.js';
import {
  buildInput,
  cameraInfoInput,
  compileInput,
  monitorInput,
  portsInput,
  projectInput,
  runScriptInput,
  serialExpectInput,
  serialMonitorInput,
  serialWriteInput,
  simInputs,
  simulateInput,
  stopScriptInput,
  uploadInput,
} from './operation-inputs.js';

// The runs load the board code they need when first called: the table itself (names, help,
// schemas) is what `--help` and the CLI's list read.
const compile = () => import('./commands/compile-command.js');
const upload = () => import('./commands/upload-command.js');
const monitor = () => import('./commands/monitor-command.js');
const ports = () => import('./commands/ports-command.js');
const simulate = () => import('./commands/simulate-command.js');
const sim = () => import('./commands/sim-command.js');
const serial = () => import('./commands/serial-cursor-commands.js');
const micropython = () => import('./micropython/commands.js');
const mplabx = () => import('./mplabx/commands.js');

// Kept beside the context (which asks them) so the runs' modules need not import the table.
export type { ConsentKind, ConsentRequest };

export type OperationInput<S extends z.ZodRawShape> = z.output<z.ZodObject<S>>;

export interface BoardOperation<S extends z.ZodRawShape = z.ZodRawShape, R = unknown> {
  /** `compile`, `run-script`, `sim start`: the command's words; the MCP tool is `toolName(name)`. */
  name: string;
  /** Which faces offer it (default both): `monitor` streams for a person; the serial cursors are the agent's. */
  faces?: { command?: false; mcp?: false };
  /** A short title (MCP's `title`). */
  title: string;
  /** The one-line help (`--help`, the CLI's list); MCP's description is `help` and `details`. */
  help: string;
  /** What an agent should know beyond `help`. */
  details?: string;
  input: S;
  /** The input keys a command line gives as positional arguments, in order. */
  args?: ReadonlyArray<keyof S & string>;
  /** One-letter flags: `{ port: 'p' }` is `-p`. */
  short?: Partial<Record<keyof S & string, string>>;
  /** A flag spelled other than its key: `{ pins: 'pin' }` is `--pin A0=512 --pin 2=low`. */
  flags?: Partial<Record<keyof S & string, string>>;
  /** Reads only (ports, serial output, what a board or a simulation says about itself): runs without a grant. */
  readOnly: boolean;
  /**
   * Writes a device or runs code on it (flash, a script on a camera): asked as a device change
   * (--allow-device or the person). `'when it can run code'`: only bytes that reach a REPL.
   */
  changesDevice: boolean | 'when it can run code';
  /** Runs code the project defines on this machine (its Makefile, its CMake files): asked as a terminal `make` is (--allow all or the person). */
  runsProjectCode: boolean;
  /**
   * The run asks the person itself, with the exact target it resolved (the image and the board
   * it found only after building); otherwise every face asks `consent(input)` before it runs.
   */
  asksItself?: true;
  /** The question asked before this call runs, or undefined when it needs none. */
  consent?(input: OperationInput<S>, context: OperationContext): Promise<ConsentRequest | undefined> | ConsentRequest | undefined;
  run(input: OperationInput<S>, context: OperationContext, io: CommandIo): Promise<Outcome<R>>;
}

// The table holds operations of many input and result types; each is checked where it is written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = BoardOperation<any, any>;

function op<S extends z.ZodRawShape, R>(o: Omit<BoardOperation<S, R>, 'readOnly' | 'changesDevice' | 'runsProjectCode'> & Partial<Pick<BoardOperation<S, R>, 'readOnly' | 'changesDevice' | 'runsProjectCode'>>): AnyOperation {
  return { readOnly: false, changesDevice: false, runsProjectCode: false, ...o };
}

const sketchArgs = ['sketch'] as const;

export const BOARD_OPERATIONS: readonly AnyOperation[] = [
  op({
    name: 'compile',
    title: 'Compile the sketch',
    help: 'compile a sketch for its board: diagnostics as file:line:column, flash and RAM use against the board limits',
    input: compileInput,
    args: sketchArgs,
    run: async (input, context, io) => (await compile()).compileRun(input, context, io),
  }),
  op({
    name: 'upload',
    title: 'Upload the sketch to the board',
    help: 'compile and upload the sketch to the board on a serial port',
    details: 'Changes the device: the person is asked first. A monitor on the port pauses meanwhile.',
    input: uploadInput,
    args: sketchArgs,
    short: { port: 'p', fqbn: 'b' },
    changesDevice: true,
    asksItself: true,
    run: async (input, context, io) => (await upload()).uploadRun(input, context, io),
  }),
  op({
    name: 'monitor',
    faces: { mcp: false },
    title: 'Serial monitor',
    help: 'serial monitor: what the board prints, until --for or --until',
    input: monitorInput,
    short: { port: 'p', baud: 'b' },
    readOnly: true,
    run: async (input, context, io) => (await monitor()).monitorRun(input, context, io),
  }),
  op({
    name: 'ports',
    title: 'List serial ports',
    help: 'list serial ports, their USB ids and the boards they identify as',
    input: portsInput,
    readOnly: true,
    run: async (input, context, io) => (await ports()).portsRun(input, context, io),
  }),
  op({
    name: 'simulate',
    title: 'Run the sketch on a simulated board',
    help: 'run the sketch on a simulated board (avr8js: Uno, Nano, Pro Mini, Mega 2560), with the parts of its Wokwi diagram.json, for a simulated time',
    details:
      'Returns the serial output (Serial1-3 too on the Mega), per-pin figures (rising edges, period, frequency, PWM duty) and a bounded trace of pin changes with simulated timestamps. With a Wokwi diagram.json beside the sketch its parts are simulated too (LEDs, buttons, potentiometers, servos, 74HC595, 7-segment, bar graph, RGB LED, buzzer) and their states over time are returned; a Wokwi scenario file (*.test.yaml: delay, wait-serial, write-serial, set-control, expect-pin) runs as a test and a failing step is named with its simulated time. Changes no device: use it to check behaviour before an upload.',
    input: simulateInput,
    args: sketchArgs,
    flags: { pins: 'pin' },
    run: async (input, context, io) => (await simulate()).simulateRun(input, context, io),
  }),
  ...simSteps(),
  op({
    name: 'build',
    title: 'Build the MPLAB project',
    help: 'build an MPLAB project: an MPLAB X project (.X) with make, an MPLAB for VS Code project with its CMake files',
    details: "Diagnostics as file:line, and the image path. make and cmake run the project's own build files: the person is asked first.",
    input: buildInput,
    args: ['project', 'variables'],
    short: { conf: 'c' },
    runsProjectCode: true,
    consent: (input) => ({
      question: `build ${input.project && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(input.project) ? shownText(input.project) : 'the project in the workspace'} with its own build files (make runs its Makefile, cmake its CMake files and presets)?`,
      kind: 'project-code',
    }),
    run: async (input, context, io) => (await mplabx()).buildRun(input, context, io),
  }),
  op({
    name: 'program',
    title: 'Program the device (MPLAB IPE)',
    help: 'program the device of an MPLAB project with ipecmd, with the project\'s own device and tool',
    details: 'Says which tools it cannot drive. Changes the device: the person is asked first.',
    input: projectInput,
    args: ['project'],
    short: { conf: 'c' },
    changesDevice: true,
    asksItself: true,
    run: async (input, context, io) => (await mplabx()).programRun(input, context, io),
  }),
  op({
    name: 'run-script',
    title: 'Run a MicroPython script on the camera',
    help: 'run a MicroPython script on an OpenMV camera or MicroPython board over its serial REPL',
    details: 'Returns its output; tracebacks point at script lines. Replaces what runs there: the person is asked first.',
    input: runScriptInput,
    args: ['file'],
    short: { port: 'p' },
    changesDevice: true,
    consent: (input) => ({ question: `run ${shownText(input.file)} on the camera on ${shownText(input.port)} (it replaces what runs there)?`, kind: 'device' }),
    run: async (input, context, io) => (await micropython()).runScriptRun(input, context, io),
  }),
  op({ name: 'stop-script', title: 'Stop the running script', help: 'stop the script running on the camera (Ctrl-C)', input: stopScriptInput, short: { port: 'p' }, run: async (input, context, io) => (await micropython()).stopScriptRun(input, context, io) }),
  op({
    name: 'camera-info',
    title: 'Camera information',
    help: 'firmware version, board arch string and sensor of a connected OpenMV camera or MicroPython board',
    input: cameraInfoInput,
    short: { port: 'p' },
    readOnly: true,
    run: async (input, context, io) => (await micropython()).cameraInfoRun(input, context, io),
  }),
  op({
    name: 'serial-monitor',
    faces: { command: false },
    title: 'Read the serial port',
    help: 'read what the board printed, from a cursor',
    details: 'Returns text since the cursor (or everything buffered, without one) and a cursor to read on from. Waits up to waitMs for data.',
    input: serialMonitorInput,
    readOnly: true,
    run: async (input, context, io) => (await serial()).serialMonitorRun(input, context, io),
  }),
  op({
    name: 'serial-expect',
    faces: { command: false },
    title: 'Wait for serial output',
    help: 'wait for serial output matching a regular expression',
    details: 'From the start of the buffered output, or from a cursor; or time out.',
    input: serialExpectInput,
    readOnly: true,
    run: async (input, context, io) => (await serial()).serialExpectRun(input, context, io),
  }),
  op({
    name: 'serial-write',
    faces: { command: false },
    title: 'Write to the serial port',
    help: 'send text to the board, with an optional line ending',
    details: 'Bytes that a MicroPython REPL would run (Ctrl-A to Ctrl-E, or any text to a port known as a MicroPython board) change the device: the person is asked first.',
    input: serialWriteInput,
    changesDevice: 'when it can run code',
    consent: async (input, context) => {
      const { serialWriteRunsCode, sentText } = await serial();
      const why = await serialWriteRunsCode(input, context);
      return why ? { question: `send ${sentText(input.data)} to ${shownText(input.port)}, where they can run as code (${why})?`, kind: 'device' } : undefined;
    },
    run: async (input, context, io) => (await serial()).serialWriteRun(input, context, io),
  }),
];

// The interactive simulation: one per session, each step bounded; none changes a device, so none asks.
function simSteps(): AnyOperation[] {
  const s = simInputs;
  type Steps = Awaited<ReturnType<typeof sim>>['SIM_STEPS'];
  const step = <K extends keyof Steps>(k: K) => async (input: never, context: OperationContext, io: CommandIo) => (await sim()).SIM_STEPS[k].run(input, context, io);
  return [
    op({ name: 'sim start', title: 'Start an interactive simulation', help: "compile the sketch and start it paused on a simulated board with the parts of its diagram.json", details: 'Then step it with sim run. One per session: starting again replaces it.', input: s.start, args: sketchArgs, run: step('start') }),
    op({ name: 'sim run', title: 'Run the simulation on', help: 'run the started simulation for a simulated time or until a serial line matches', details: 'Returns the serial text of the step and every part state.', input: s.run, run: step('run') }),
    op({ name: 'sim serial-read', title: 'Read the simulated serial output', help: 'the serial text the simulated sketch printed since the last read (bounded)', input: s['serial-read'], readOnly: true, run: step('serial-read') }),
    op({ name: 'sim serial-write', title: 'Write to the simulated serial input', help: 'queue text for the sketch to read from Serial; it arrives as the simulation runs', input: s['serial-write'], args: ['text'], run: step('serial-write') }),
    op({ name: 'sim pin', title: "Read a part's pin", help: "the digital level (0 or 1) of the net on a part's pin now, e.g. led1 A or uno 13", input: s.pin, args: ['part', 'pin'], readOnly: true, run: step('pin') }),
    op({ name: 'sim control', title: 'Set a part control', help: "set a part's control now, as Wokwi's set-control: pushbutton pressed 1/0, potentiometer position 0.0-1.0, slide switch value 0/1", input: s.control, args: ['part', 'control', 'value'], run: step('control') }),
    op({ name: 'sim parts', title: 'Read the part states', help: 'what every part shows now: LED on/off or brightness, 7-segment digits, servo angle, bar graph, RGB colour, buzzer frequency, buttons and switches', input: s.parts, readOnly: true, run: step('parts') }),
    op({ name: 'sim restart', title: 'Restart the simulation', help: 'start the same image and circuit again from reset, paused', input: s.restart, run: step('restart') }),
    op({ name: 'sim stop', title: 'Stop the simulation', help: 'end the interactive simulation', input: s.stop, run: step('stop') }),
  ];
}

/** The MCP tool of an operation: its name in snake_case (`run-script` → `run_script`, `sim start` → `sim_start`). */
export function toolName(operation: Pick<BoardOperation, 'name'>): string {
  return operation.name.replace(/[- ]/g, '_');
}

/** Whether a face offers the operation. */
export function offers(operation: AnyOperation, face: 'command' | 'mcp'): boolean {
  return operation.faces?.[face] !== false;
}

/** The operation a terminal or the CLI runs as `boardbridge <words…>` (`sim start` before `sim`), with the words it took. */
export function operationOfWords(words: readonly string[]): { operation: AnyOperation; taken: number } | undefined {
  for (const operation of BOARD_OPERATIONS) {
    if (!offers(operation, 'command')) continue;
    const name = operation.name.split(' ');
    if (name.every((word, i) => words[i] === word)) return { operation, taken: name.length };
  }
  return undefined;
}

/** The first words of the commands (`sim` for every `sim …` step), in table order. */
export function commandWords(): string[] {
  return [...new Set(BOARD_OPERATIONS.filter((o) => offers(o, 'command')).map((o) => o.name.split(' ')[0]))];
}

export function operationOfTool(tool: string): AnyOperation | undefined {
  return BOARD_OPERATIONS.find((o) => offers(o, 'mcp') && toolName(o) === tool);
}

/** The consent a run of `operation` needs as a kind, before it starts; undefined when none (or the run asks itself). */
export function consentBefore(operation: AnyOperation): ConsentKind | undefined {
  if (operation.asksItself) return undefined;
  if (operation.changesDevice === true) return 'device';
  if (operation.runsProjectCode) return 'project-code';
  return undefined;
}

/** Whether a call can need a question before it runs (a device change or the project's code, unless the run asks itself). */
export function asksBefore(operation: AnyOperation): boolean {
  return !operation.asksItself && (operation.changesDevice !== false || operation.runsProjectCode);
}

/** The question this call needs answered before it runs: its own, or one from its flags. */
export async function consentFor(operation: AnyOperation, input: unknown, context: OperationContext): Promise<ConsentRequest | undefined> {
  if (!asksBefore(operation)) return undefined;
  if (operation.consent) return operation.consent(input as never, context);
  const kind = consentBefore(operation);
  return kind ? { question: `run boardbridge ${operation.name}?`, kind } : undefined;
}
