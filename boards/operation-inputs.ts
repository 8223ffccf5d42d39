// The input schemas of the board operations, one per operation (BOARD_OPERATIONS names them):
// the CLI's options, a terminal's argv parsing and the MCP inputSchema are generated from these.
// Kept apart from the runs so that `--help` and the table load without the board code.
import { z } from 'zod';
import { SIMULATION_LIMITS } from './simulate/limits.js';

/** Simulated time one `sim run` may take; more is more steps. */
export const SIM_RUN_MAX_MS = 60_000;

export const sketchInput = z.string().optional().describe('sketch folder or .ino (default: the workspace)');
export const fqbnInput = z.string().optional().describe('board FQBN, e.g. arduino:avr:uno (default: sketch.yaml)');

export const compileInput = {
  sketch: sketchInput,
  fqbn: fqbnInput,
  verbose: z.boolean().optional().describe('show the build tool\'s output'),
};

export const uploadInput = {
  sketch: sketchInput,
  fqbn: fqbnInput,
  port: z.string().optional().describe('serial port, e.g. /dev/ttyACM0 (default: sketch.yaml, or the one port that identifies as the board)'),
  verbose: z.boolean().optional().describe("show the build and upload tools' output"),
};

export const monitorInput = {
  port: z.string().min(1).describe('serial port, e.g. /dev/ttyACM0'),
  baud: z.number().int().positive().optional().describe('baud rate (default 9600)'),
  for: z.string().optional().describe('stop after this long, e.g. 5s'),
  until: z.string().optional().describe('stop at the first output matching this regular expression'),
  timestamps: z.boolean().optional().describe('each line starts with the UTC time of day'),
};

export const portsInput = {};

export const simulateInput = {
  sketch: sketchInput,
  fqbn: fqbnInput,
  for: z.string().optional().describe('simulated time, e.g. 5s or 500ms (default 5s; 30s with a scenario)'),
  until: z.string().optional().describe('stop at the first serial line matching this regular expression'),
  serial_in: z.string().optional().describe('text fed to the serial input'),
  pins: z.array(z.string()).optional().describe('scripted inputs: "2=low@1.5s" (a level from a time on), "A0=512" (analog reading 0-1023)'),
  trace_limit: z.number().int().min(0).optional().describe(`pin changes listed (default ${SIMULATION_LIMITS.defaultTraceChanges}, at most ${SIMULATION_LIMITS.traceChanges}); the figures count them all`),
  scenario: z.string().optional().describe('a Wokwi automation scenario (.test.yaml) to run; the result says which step failed'),
  diagram: z.string().optional().describe('the diagram.json (default: the one beside the sketch)'),
  vcd: z.string().optional().describe('write every pin change to this VCD file'),
  wall_limit: z.string().optional().describe('wall time the run may take (default 60s)'),
};

const port = z.string().min(1).describe('serial port, e.g. /dev/ttyACM0');
const baud = z.number().int().positive().default(9600).describe('baud rate (default 9600)');

export const serialMonitorInput = {
  port,
  baud,
  cursor: z.string().optional().describe('cursor from the previous call'),
  waitMs: z.number().int().min(0).max(30_000).default(2000).describe('how long to wait for data (ms)'),
};

export const serialWriteInput = { port, baud, data: z.string(), lineEnding: z.enum(['none', 'lf', 'crlf']).default('lf') };

export const serialExpectInput = {
  port,
  baud,
  pattern: z.string().min(1).describe('JavaScript regular expression'),
  timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
  cursor: z.string().optional(),
};

export const runScriptInput = {
  file: z.string().min(1).describe('the .py script'),
  port,
  timeout: z.number().positive().max(600).optional().describe('seconds the script may run'),
  no_raw_paste: z.boolean().optional().describe("send the script the slow way (older firmware without the raw REPL's paste mode)"),
};

export const stopScriptInput = { port };

export const cameraInfoInput = {
  port,
  usbdbg: z.boolean().optional().describe("ask OpenMV's debug protocol (USBDBG) instead of the REPL"),
  slow: z.boolean().optional().describe('USBDBG at the slow baud rate'),
};

export const MAKE_VARIABLE = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

export const projectInput = {
  project: z.string().optional().describe('the .X folder or the VS Code project folder (default: the workspace)'),
  conf: z.string().min(1).optional().describe('the configuration (default: the project\'s active one)'),
  production: z.boolean().optional().describe('MPLAB for VS Code: the <conf>.production CMake variant'),
};

export const buildInput = {
  ...projectInput,
  variables: z.array(z.string().regex(MAKE_VARIABLE, 'NAME=value')).optional().describe('NAME=value, passed to make (MP_CC=/opt/.../xc8-cc) or to cmake as -DNAME=value'),
};

const part = z.string().min(1).describe('the part id in diagram.json, e.g. btn1 (or the board, e.g. uno)');

/** The steps of `boardbridge sim` (MCP `sim_*`). */
export const simInputs = {
  start: { sketch: sketchInput, fqbn: fqbnInput, diagram: z.string().optional().describe('the diagram.json (default: beside the sketch)') },
  run: {
    for: z.string().optional().describe(`simulated time, e.g. 500ms (default 1s, or ${SIM_RUN_MAX_MS / 1000}s with until; at most ${SIM_RUN_MAX_MS / 1000}s a step)`),
    until: z.string().optional().describe('stop at the first serial line matching this regular expression'),
  },
  'serial-read': {},
  'serial-write': { text: z.string().min(1).describe('the text to send (\\n for a newline)') },
  pin: { part, pin: z.string().min(1).describe('the pin name as diagram.json writes it, e.g. A, 1.l, 13') },
  control: { part, control: z.string().min(1).describe('pressed (pushbutton), position (potentiometers), value (slide switch)'), value: z.number().describe('1/0, or a position 0.0-1.0') },
  parts: {},
  restart: {},
  stop: {},
};

/** What `sim start` (and the panel's Run) starts: the sketch, its board, its diagram. */
export type SimStartInput = z.output<z.ZodObject<typeof simInputs.start>>;
