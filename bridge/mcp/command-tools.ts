// MCP tools that run the same in-process board commands as ACP terminals and the
// CLI (compile, upload, build, program, run_script ...): one implementation, and
// the commands' own consent checks apply whichever way they are called.
import { z } from 'zod';
import type { CommandTable } from '../../boards/command.js';
import type { SimulationRecord } from '../../boards/commands/simulate-command.js';
import { SIMULATION_LIMITS } from '../../boards/simulate/limits.js';
import { simulationJsonWithin } from '../session/simulation-event.js';
import { defineTool, MAX_TOOL_TEXT, operationTool, type HardwareTool, type ToolOutput } from './hardware-tool.js';

/** `mayShow`: the files the agent may read (its fs guard); compiler output quotes no other (sessionTools always gives it). */
export function commandTools(commands: CommandTable, cwd: string, env: Record<string, string>, mayShow?: (file: string) => boolean): HardwareTool[] {
  const run = async (name: string, argv: string[], signal: AbortSignal): Promise<ToolOutput> => {
    const command = commands.get(name);
    if (!command) return { text: `boardbridge has no ${name} command here`, isError: true };
    let text = '';
    const exitCode = await command(argv, { write: (t) => (text += t), signal, cwd, env, ...(mayShow ? { mayShow } : {}) }).catch((error: unknown) => {
      text += `${error instanceof Error ? error.message : String(error)}\n`;
      return 1;
    });
    return { text: text || `(no output; exit ${exitCode})`, isError: exitCode !== 0 };
  };
  const opt = (flag: string, value: string | number | undefined) => (value === undefined ? [] : [flag, String(value)]);
  const sketch = z.string().optional().describe('sketch folder or .ino (default: the workspace)');
  const fqbn = z.string().optional().describe('board FQBN, e.g. arduino:avr:uno (default: sketch.yaml)');
  const port = z.string().describe('serial port, e.g. /dev/ttyACM0');

  return [
    defineTool({
      ...operationTool('compile'),
      title: 'Compile the sketch',
      description: 'Compile an Arduino sketch for the selected board: diagnostics as file:line:column, flash and RAM use against the board limits.',
      input: { sketch, fqbn },
      run: (i, signal) => run('compile', [...(i.sketch ? [i.sketch] : []), ...opt('--fqbn', i.fqbn)], signal),
    }),
    defineTool({
      ...operationTool('upload'),
      title: 'Upload the sketch to the board',
      description: 'Compile and upload the sketch to the board on a serial port. Changes the device: the person is asked first. A monitor on the port pauses meanwhile.',
      input: { sketch, fqbn, port: port.optional() },
      run: (i, signal) => run('upload', [...(i.sketch ? [i.sketch] : []), ...opt('--fqbn', i.fqbn), ...opt('--port', i.port)], signal),
    }),
    defineTool({
      ...operationTool('simulate'),
      title: 'Run the sketch on a simulated board',
      description:
        'Compile the sketch and run it on a simulated ATmega328P or ATmega2560 board (Uno, Nano, Pro Mini, Mega 2560; avr8js) for a simulated time: returns the serial output (Serial1-3 too on the Mega), per-pin figures (rising edges, period, frequency, PWM duty) and a bounded trace of pin changes with simulated timestamps. Inputs can be scripted. Changes no device: use it to check behaviour before an upload.',
      input: {
        sketch,
        fqbn,
        for: z.string().optional().describe('simulated time, e.g. 5s or 500ms (default 5s)'),
        until: z.string().optional().describe('stop at the first serial line matching this regular expression'),
        serial_in: z.string().optional().describe('text fed to the serial input (\\n for a newline)'),
        pins: z.array(z.string()).optional().describe('scripted inputs: "2=low@1.5s" (a level from a time on), "A0=512" (analog reading 0-1023)'),
        trace_limit: z.number().int().min(0).max(SIMULATION_LIMITS.traceChanges).optional().describe('pin changes listed (default 200; the answer is cut to fit your context); the figures count them all'),
      },
      run: async (i, signal) =>
        forAgent(await run(
          'simulate',
          [
            ...(i.sketch ? [i.sketch] : []),
            ...opt('--fqbn', i.fqbn),
            ...opt('--for', i.for),
            ...opt('--until', i.until),
            ...opt('--serial-in', i.serial_in),
            ...(i.pins ?? []).flatMap((pin) => ['--pin', pin]),
            '--trace-limit',
            String(i.trace_limit ?? 200),
            '--json',
          ],
          signal,
        )),
    }),
    defineTool({
      ...operationTool('list_ports'),
      title: 'List serial ports',
      description: 'Serial ports with their USB ids and the boards they identify as.',
      input: {},
      run: (_i, signal) => run('ports', [], signal),
    }),
    defineTool({
      ...operationTool('build'),
      title: 'Build the MPLAB project',
      description:
        "Build an MPLAB project for a configuration: an MPLAB X project (.X) with make, an MPLAB for VS Code project (.vscode/*.mplab.json) with the CMake files its extension generated (cmake --preset, cmake --build). Diagnostics as file:line, and the image path. make and cmake run the project's own build files: the person is asked first.",
      input: {
        project: z.string().optional().describe('the .X folder or the VS Code project folder (default: the workspace)'),
        conf: z.string().optional(),
        production: z.boolean().optional().describe('MPLAB for VS Code: build the <conf>.production CMake variant'),
      },
      run: (i, signal) => run('build', [...(i.project ? [i.project] : []), ...opt('--conf', i.conf), ...(i.production ? ['--production'] : [])], signal),
    }),
    defineTool({
      ...operationTool('program'),
      title: 'Program the device (MPLAB IPE)',
      description:
        "Program the project's device with ipecmd, using the project's own device and tool (MPLAB X platformTool, or the .mplab.json configuration's tool; says which tools it cannot drive). Changes the device: the person is asked first.",
      input: { project: z.string().optional(), conf: z.string().optional(), production: z.boolean().optional().describe('MPLAB for VS Code: program the <conf>.production image') },
      run: (i, signal) => run('program', [...(i.project ? [i.project] : []), ...opt('--conf', i.conf), ...(i.production ? ['--production'] : [])], signal),
    }),
    defineTool({
      ...operationTool('run_script'),
      title: 'Run a MicroPython script on the camera',
      description: 'Run a script on an OpenMV camera or MicroPython board over its serial REPL and return its output; tracebacks point at script lines. Replaces what runs there: the person is asked first.',
      input: { file: z.string().describe('the .py script'), port, timeout: z.number().int().min(1).max(600).optional().describe('seconds') },
      run: (i, signal) => run('run-script', [i.file, '--port', i.port, ...opt('--timeout', i.timeout)], signal),
    }),
    defineTool({
      ...operationTool('stop_script'),
      title: 'Stop the running script',
      description: 'Stop the script running on the camera (Ctrl-C).',
      input: { port },
      run: (i, signal) => run('stop-script', ['--port', i.port], signal),
    }),
    defineTool({
      ...operationTool('camera_info'),
      title: 'Camera information',
      description: 'Firmware version, board arch string and sensor of a connected OpenMV camera or MicroPython board.',
      input: { port },
      run: (i, signal) => run('camera-info', ['--port', i.port], signal),
    }),
  ];
}

// The command's JSON carries up to 64 KiB of serial text; the agent gets valid JSON that fits its limit.
function forAgent(output: ToolOutput): ToolOutput {
  let record: (SimulationRecord & { ok?: boolean }) | undefined;
  try {
    record = JSON.parse(output.text.trim().split('\n').at(-1) ?? '') as SimulationRecord & { ok?: boolean };
  } catch {
    return output;
  }
  if (!record?.ok) return output;
  return { text: simulationJsonWithin(record, MAX_TOOL_TEXT - 256), isError: output.isError ?? false };
}
