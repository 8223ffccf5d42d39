// MCP tools that run the same in-process board commands as ACP terminals and the
// CLI (compile, upload, build, program, run_script ...): one implementation, and
// the commands' own consent checks apply whichever way they are called.
import { z } from 'zod';
import type { CommandTable } from '../../boards/command.js';
import type { SimulationRecord } from '../../boards/commands/simulate-command.js';
import { SIMULATION_LIMITS } from '../../boards/simulate/limits.js';
import { simulationJsonWithin } from '../hardware/simulation-event.js';
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
        'Compile the sketch and run it on a simulated ATmega328P or ATmega2560 board (Uno, Nano, Pro Mini, Mega 2560; avr8js) for a simulated time: returns the serial output (Serial1-3 too on the Mega), per-pin figures (rising edges, period, frequency, PWM duty) and a bounded trace of pin changes with simulated timestamps. With a Wokwi diagram.json beside the sketch its parts are simulated too (LEDs, buttons, potentiometers, servos, 74HC595, 7-segment, bar graph, RGB LED, buzzer) and their states over time are returned; a Wokwi scenario file (*.test.yaml: delay, wait-serial, write-serial, set-control, expect-pin) runs as a test and a failing step is named with its simulated time. Inputs can be scripted. Changes no device: use it to check behaviour before an upload.',
      input: {
        sketch,
        fqbn,
        for: z.string().optional().describe('simulated time, e.g. 5s or 500ms (default 5s)'),
        until: z.string().optional().describe('stop at the first serial line matching this regular expression'),
        serial_in: z.string().optional().describe('text fed to the serial input (\\n for a newline)'),
        pins: z.array(z.string()).optional().describe('scripted inputs: "2=low@1.5s" (a level from a time on), "A0=512" (analog reading 0-1023)'),
        trace_limit: z.number().int().min(0).max(SIMULATION_LIMITS.traceChanges).optional().describe('pin changes listed (default 200; the answer is cut to fit your context); the figures count them all'),
        scenario: z.string().optional().describe("a Wokwi automation scenario (.test.yaml) to run; the result says which step failed"),
        diagram: z.string().optional().describe('the diagram.json (default: the one beside the sketch)'),
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
            ...opt('--scenario', i.scenario),
            ...opt('--diagram', i.diagram),
            '--trace-limit',
            String(i.trace_limit ?? 200),
            '--json',
          ],
          signal,
        )),
    }),
    ...simTools((argv, signal) => run('sim', argv, signal), sketch, fqbn),
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

// The interactive simulation (`boardbridge sim …`): one per session, each step bounded; none
// changes a device, so none asks the person.
function simTools(sim: (argv: string[], signal: AbortSignal) => Promise<ToolOutput>, sketch: z.ZodOptional<z.ZodString>, fqbn: z.ZodOptional<z.ZodString>): HardwareTool[] {
  const part = z.string().describe('the part id in diagram.json, e.g. btn1 (or the board, e.g. uno)');
  return [
    defineTool({
      name: 'sim_start',
      title: 'Start an interactive simulation',
      description: "Compile the workspace's sketch and start it paused on a simulated board with the parts of its diagram.json; then step it with sim_run. One per session: starting again replaces it.",
      input: { sketch, fqbn, diagram: z.string().optional().describe('the diagram.json (default: beside the sketch)') },
      readOnly: false,
      run: (i, signal) => sim(['start', ...(i.sketch ? [i.sketch] : []), ...(i.fqbn ? ['--fqbn', i.fqbn] : []), ...(i.diagram ? ['--diagram', i.diagram] : [])], signal),
    }),
    defineTool({
      name: 'sim_run',
      title: 'Run the simulation on',
      description: 'Run the started simulation for a simulated time (at most 60 s a step) or until a serial line matches a regular expression; returns the serial text of the step and every part state.',
      input: { for: z.string().optional().describe('simulated time, e.g. 500ms (default 1s, or 60s with until)'), until: z.string().optional().describe('stop at the first serial line matching this') },
      readOnly: false,
      run: (i, signal) => sim(['run', ...(i.for ? ['--for', i.for] : []), ...(i.until ? ['--until', i.until] : [])], signal),
    }),
    defineTool({
      name: 'sim_serial_read',
      title: 'Read the simulated serial output',
      description: 'The serial text the simulated sketch printed since the last read (bounded).',
      input: {},
      readOnly: true,
      run: (_i, signal) => sim(['serial'], signal),
    }),
    defineTool({
      name: 'sim_serial_write',
      title: 'Write to the simulated serial input',
      description: 'Queue text for the sketch to read from Serial (\\n for a newline); it arrives as the simulation runs.',
      input: { text: z.string() },
      readOnly: false,
      run: (i, signal) => sim(['write', i.text], signal),
    }),
    defineTool({
      name: 'sim_pin',
      title: "Read a part's pin",
      description: "The digital level (0 or 1) of the net on a part's pin now, e.g. led1:A or uno:13.",
      input: { part, pin: z.string().describe('the pin name as diagram.json writes it, e.g. A, 1.l, 13') },
      readOnly: true,
      run: (i, signal) => sim(['pin', `${i.part}:${i.pin}`], signal),
    }),
    defineTool({
      name: 'sim_control',
      title: 'Set a part control',
      description: "Set a part's control now, as Wokwi's set-control: pushbutton pressed 1/0, potentiometer position 0.0–1.0, slide switch value 0/1.",
      input: { part, control: z.string(), value: z.number() },
      readOnly: false,
      run: (i, signal) => sim(['control', i.part, i.control, String(i.value)], signal),
    }),
    defineTool({
      name: 'sim_parts',
      title: 'Read the part states',
      description: 'What every part shows now: LED on/off or brightness, the 7-segment digits, servo angle, bar graph, RGB colour, buzzer frequency, button and switch positions.',
      input: {},
      readOnly: true,
      run: (_i, signal) => sim(['parts'], signal),
    }),
    defineTool({
      name: 'sim_restart',
      title: 'Restart the simulation',
      description: 'Start the same image and circuit again from reset, paused.',
      input: {},
      readOnly: false,
      run: (_i, signal) => sim(['restart'], signal),
    }),
    defineTool({
      name: 'sim_stop',
      title: 'Stop the simulation',
      description: 'End the interactive simulation.',
      input: {},
      readOnly: false,
      run: (_i, signal) => sim(['stop'], signal),
    }),
  ];
}
