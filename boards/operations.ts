// Every board operation once: the command a terminal and the CLI run (`boardbridge <command>`),
// the MCP tool that offers it, its one-line help, and what it does to the world. Every face (MCP,
// terminals, the CLI) decides from these flags whether the person is asked first, so one rule
// holds whichever way an operation is reached. It imports only the consent text quoting: the CLI
// reads this table before it loads any command (issue 23 moves the input schemas and the runs here too).
import { shownText } from './consent-text.js';

/** Which consent an operation needs: a device change, or code of the project's own run here. */
export type ConsentKind = 'device' | 'project-code';

export interface BoardOperation {
  /** `boardbridge <command> ...` in terminals and on the command line; absent: an MCP tool only. */
  command?: string;
  /** The MCP tool's name; absent: no MCP tool. */
  tool?: string;
  help: string;
  /** Reads only (ports, serial output, what a board says about itself): runs without a grant. */
  readOnly: boolean;
  /**
   * Writes a device or runs code on it (flash, a script on a camera): asked as a device change
   * (--allow-device or the person). `'when it can run code'`: only bytes that reach a REPL.
   */
  changesDevice: boolean | 'when it can run code';
  /** Runs code the project defines on this machine (its Makefile, its CMake files): asked as a terminal `make` is (--allow all or the person). */
  runsProjectCode: boolean;
  /**
   * The command asks the person itself, with the exact target it resolved (the image and the
   * board it found only after building); otherwise every face asks `question(argv)` before it runs.
   */
  asksItself?: true;
  /** The consent question, from the command's arguments (the run-time target is not known yet). */
  question?: (argv: readonly string[]) => string;
}

const op = (o: Partial<BoardOperation> & Pick<BoardOperation, 'help'>): BoardOperation => ({ readOnly: false, changesDevice: false, runsProjectCode: false, ...o });

export const BOARD_OPERATIONS: readonly BoardOperation[] = [
  op({ command: 'compile', tool: 'compile', help: 'compile a sketch: boardbridge compile [sketch] [--fqbn F]' }),
  op({ command: 'upload', tool: 'upload', help: 'compile and upload: boardbridge upload [sketch] [--port P] [--fqbn F]', changesDevice: true, asksItself: true }),
  op({ command: 'monitor', help: 'serial monitor: boardbridge monitor --port P [--baud B] [--for 5s] [--until REGEX] [--timestamps]', readOnly: true }),
  op({ command: 'ports', tool: 'list_ports', help: 'list serial ports and the boards they identify as', readOnly: true }),
  op({
    command: 'simulate',
    tool: 'simulate',
    help: 'run the sketch on a simulated board (avr8js), with the parts of its diagram.json: boardbridge simulate [sketch] [--fqbn F] [--for 5s] [--pin A0=512] [--scenario FILE.test.yaml] [--diagram FILE] [--vcd out.vcd] [--json]',
  }),
  op({
    command: 'sim',
    help: 'a simulation steered step by step: boardbridge sim start [sketch] | run [--for 1s] [--until REGEX] | serial | write TEXT | pin PART:PIN | control PART CONTROL VALUE | parts | restart | stop',
  }),
  op({
    command: 'build',
    tool: 'build',
    help: 'build an MPLAB project: boardbridge build [project.X | VS Code project folder] [--conf C] [--production]',
    runsProjectCode: true,
    question: (argv) => `build ${projectOf(argv)} with its own build files (make runs its Makefile, cmake its CMake files and presets)?`,
  }),
  op({ command: 'program', tool: 'program', help: 'program the device of an MPLAB project with ipecmd', changesDevice: true, asksItself: true }),
  op({
    command: 'run-script',
    tool: 'run_script',
    help: 'run a MicroPython script on a camera: boardbridge run-script FILE --port P',
    changesDevice: true,
    question: (argv) => `run ${argv[0] === undefined ? 'a script' : shownText(argv[0])} on the camera${portOf(argv)} (it replaces what runs there)?`,
  }),
  op({ command: 'stop-script', tool: 'stop_script', help: 'stop the running script: boardbridge stop-script --port P' }),
  op({ command: 'camera-info', tool: 'camera_info', help: 'firmware, arch and sensor of a camera: boardbridge camera-info --port P', readOnly: true }),
  op({ tool: 'serial_monitor', help: 'read what the board printed, from a cursor', readOnly: true }),
  op({ tool: 'serial_expect', help: 'wait for serial output matching a regular expression', readOnly: true }),
  op({
    tool: 'serial_write',
    help: 'send text to the board',
    changesDevice: 'when it can run code',
    // argv: the port, what is sent, why it can run as code there.
    question: (argv) => `send ${argv[1] ?? 'bytes'} to ${argv[0] === undefined ? 'the port' : shownText(argv[0])}, where they can run as code (${argv[2] ?? 'a MicroPython REPL'})?`,
  }),
];

/** The operation a terminal or the CLI runs as `boardbridge <command>`. */
export function operationOfCommand(command: string): BoardOperation | undefined {
  return BOARD_OPERATIONS.find((o) => o.command === command);
}

export function operationOfTool(tool: string): BoardOperation | undefined {
  return BOARD_OPERATIONS.find((o) => o.tool === tool);
}

/** The consent a run of `operation` needs before it starts; undefined when none (or the command asks itself). */
export function consentBefore(operation: BoardOperation): ConsentKind | undefined {
  if (operation.asksItself) return undefined;
  if (operation.changesDevice === true) return 'device';
  if (operation.runsProjectCode) return 'project-code';
  return undefined;
}

function portOf(argv: readonly string[]): string {
  const i = argv.findIndex((a) => a === '--port' || a === '-p');
  return i >= 0 && argv[i + 1] ? ` on ${shownText(argv[i + 1])}` : '';
}

function projectOf(argv: readonly string[]): string {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--conf' || argv[i] === '-c') i++;
    else if (!argv[i].startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i])) return shownText(argv[i]);
  }
  return 'the project in the workspace';
}
