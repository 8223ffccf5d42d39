import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { boardCommands, SerialHub, ArduinoBuilder, debianLayout } from '../../../boards/index.js';
import type { SimulationRecord } from '../../../boards/commands/simulate-command.js';
import { operationContext } from '../../../boards/operation-context.js';
import { operationTools } from '../../../bridge/mcp/command-tools.js';
import { recordedIo } from '../../rig/command-io.js';
import { copyOfSketch, sketchFolder } from '../../rig/sketches.js';
import { ANALOG_ECHO, EXITS, INTERRUPT_COUNTER, MEGA_ECHO, PWM_QUARTER, SERIAL_TEXT, SHOUTER } from '../../rig/simulate-sketches.js';

const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout('/nonexistent-sketchbook'));
const records: SimulationRecord[] = [];
const context = operationContext({
  hub: new SerialHub(),
  tool: builder,
  requestUploadConsent: async () => undefined,
  onSimulation: (record) => records.push(record),
});
const commands = boardCommands(context);

async function simulateJson(argv: string[]): Promise<SimulationRecord & { ok: boolean }> {
  const io = recordedIo();
  const code = await commands.get('simulate')!([...argv, '--json'], io);
  expect(code, io.output()).toBe(0);
  return JSON.parse(io.output());
}

describe('boardbridge simulate (Debian arduino-builder + avr8js)', () => {
  it('runs Blink on the Uno: D13 toggles with a period of 1.000 s and a 50 % duty', async () => {
    const sketch = copyOfSketch(join(import.meta.dirname, '../../../examples/Blink'));
    const io = recordedIo();
    expect(await commands.get('simulate')!([sketch, '--fqbn', 'arduino:avr:uno', '--for', '3.2s'], io)).toBe(0);
    const text = io.output();
    expect(text).toContain('Blink ready');
    expect(text).toMatch(/D13: 4 rising edges, period 1\.000 s \(1\.000 Hz\), duty 50 %, ends high/);
    expect(text).toMatch(/3\.200 s simulated in [\d.]+ s wall/);
    const record = records.at(-1)!;
    const d13 = record.pins.find((pin) => pin.pin === 'D13')!;
    expect(Math.abs(d13.periodSeconds! - 1) / 1).toBeLessThan(0.001);
    expect(record.clockHz).toBe(16_000_000);
    expect(record.stop.reason).toBe('time');
  });

  it('prints the serial text exactly as the sketch sent it, at the baud it set', async () => {
    const result = await simulateJson([sketchFolder('Hello', SERIAL_TEXT), '--fqbn', 'arduino:avr:uno', '--for', '200ms']);
    expect(result.serial.text).toBe('hello from the simulated uno\r\n2 + 3 = 5\r\n');
    expect(result.serial.baud).toBeGreaterThan(9500);
    expect(result.serial.baud).toBeLessThan(9700);
  });

  it('feeds --serial-in to the sketch’s serial input', async () => {
    const result = await simulateJson([sketchFolder('Shouter', SHOUTER), '--fqbn', 'arduino:avr:uno', '--serial-in', 'hello\\nagain\\n', '--until', '^AGAIN', '--for', '3s']);
    expect(result.serial.text).toBe('HELLO\r\nAGAIN\r\n');
    expect(result.stop.reason).toBe('until');
  });

  it('reads a scripted analog value on A0 and stops on the line that matches --until', async () => {
    const result = await simulateJson([sketchFolder('Analog', ANALOG_ECHO), '--fqbn', 'arduino:avr:uno', '--pin', 'A0=512', '--until', '^A0=', '--for', '2s']);
    expect(result.serial.text).toBe('A0=512\r\n');
    expect(result.stop.reason).toBe('until');
    expect(result.simulatedSeconds).toBeLessThan(0.1);
  });

  it('changes a scripted analog value over time: A0=100, then A0=900 from 250 ms', async () => {
    const sampler = 'void setup() { Serial.begin(115200); }\nvoid loop() { Serial.println(analogRead(A0)); delay(100); }\n';
    const result = await simulateJson([sketchFolder('Sampler', sampler), '--fqbn', 'arduino:avr:uno', '--pin', 'A0=100', '--pin', 'A0=900@250ms', '--for', '450ms']);
    expect(result.serial.text).toBe('100\r\n100\r\n100\r\n900\r\n900\r\n');
  });

  it('keeps what the sketch writes to EEPROM; an unwritten byte reads as erased (255)', async () => {
    const eeprom = '#include <EEPROM.h>\nvoid setup() {\n  Serial.begin(115200);\n  EEPROM.write(5, 42);\n  Serial.println(EEPROM.read(5));\n  Serial.println(EEPROM.read(6));\n}\nvoid loop() {}\n';
    const result = await simulateJson([sketchFolder('Eeprom', eeprom), '--fqbn', 'arduino:avr:uno', '--for', '100ms']);
    expect(result.serial.text).toBe('42\r\n255\r\n');
  });

  it('fires attachInterrupt on D2 when a scripted level change pulls it low', async () => {
    const result = await simulateJson([
      sketchFolder('Interrupt', INTERRUPT_COUNTER),
      '--fqbn',
      'arduino:avr:uno',
      '--pin',
      '2=low@200ms',
      '--pin',
      '2=high@300ms',
      '--pin',
      '2=low@400ms',
      '--for',
      '600ms',
    ]);
    expect(result.serial.text).toBe('falls=1\r\nfalls=2\r\n');
    expect(result.pins.find((pin) => pin.pin === 'D2')).toMatchObject({ fallingEdges: 2, risingEdges: 1, level: 0 });
  });

  it('says when a scripted level lands on a pin the sketch drives as an output, where it has no effect', async () => {
    const sketch = copyOfSketch(join(import.meta.dirname, '../../../examples/Blink'));
    const io = recordedIo();
    expect(await commands.get('simulate')!([sketch, '--fqbn', 'arduino:avr:uno', '--for', '1.2s', '--pin', '13=low@200ms', '--pin', '2=low@100ms'], io)).toBe(0);
    const note = '--pin D13=low@0.2s: the sketch drives D13 high as an output then, so the scripted level has no effect while it stays an output';
    expect(io.output()).toContain(`Note: ${note}.`);
    const record = records.at(-1)!;
    expect(record.notes).toEqual([note]);
    // The sketch's own blinking is what the trace shows; D2, an input, takes its scripted level.
    expect(record.pins.find((pin) => pin.pin === 'D13')).toMatchObject({ risingEdges: 2, level: 1 });
    expect(record.pins.find((pin) => pin.pin === 'D2')).toMatchObject({ level: 0 });
  });

  it('measures analogWrite(9, 64) as a 25 % duty at the Uno’s 490 Hz PWM', async () => {
    const result = await simulateJson([sketchFolder('Pwm', PWM_QUARTER), '--fqbn', 'arduino:avr:uno', '--for', '200ms', '--trace-limit', '10']);
    const d9 = result.pins.find((pin) => pin.pin === 'D9')!;
    expect(d9.dutyPercent).toBeCloseTo((65 / 256) * 100, 0);
    expect(d9.frequencyHz).toBeCloseTo(16e6 / 64 / 510, 0);
    expect(result.trace.changes).toHaveLength(10);
    expect(result.trace.dropped).toBeGreaterThan(100);
  });

  it('prints PWM as period, frequency and duty in the pin summary, and says when --serial-in found no receiver', async () => {
    const io = recordedIo();
    expect(await commands.get('simulate')!([sketchFolder('Pwm', PWM_QUARTER), '--fqbn', 'arduino:avr:uno', '--for', '100ms', '--serial-in', 'on\\n'], io)).toBe(0);
    expect(io.output()).toMatch(/^ {2}D9: \d+ rising edges, period 2\.040 ms \(490\.2 Hz\), duty 25 %, ends (high|low)$/m);
    expect(io.output()).toContain('Note: 3 of the 3 bytes of --serial-in were not sent: the sketch never turned the serial receiver on (Serial.begin).');
  });

  it('takes the clock from build.f_cpu: the 8 MHz Pro Mini blinks at the same 1 Hz', async () => {
    const sketch = copyOfSketch(join(import.meta.dirname, '../../../examples/Blink'));
    const result = await simulateJson([sketch, '--fqbn', 'arduino:avr:pro:cpu=8MHzatmega328', '--for', '2.2s']);
    expect(result.clockHz).toBe(8_000_000);
    expect(result.pins.find((pin) => pin.pin === 'D13')!.periodSeconds).toBeCloseTo(1, 2);
  });

  it('takes the first Processor option for a Nano FQBN without cpu=, as arduino-cli does, and compiles with it written out', async () => {
    const io = recordedIo();
    expect(await commands.get('simulate')!([sketchFolder('Hello', SERIAL_TEXT), '--fqbn', 'arduino:avr:nano', '--for', '200ms'], io), io.output()).toBe(0);
    expect(io.output()).toContain('for arduino:avr:nano:cpu=atmega328 with arduino-builder');
    expect(records.at(-1)).toMatchObject({ fqbn: 'arduino:avr:nano', board: 'Arduino Nano', serial: { text: 'hello from the simulated uno\r\n2 + 3 = 5\r\n' } });
  });

  it('ends the run when the sketch halts (exit), well before --for', async () => {
    const result = await simulateJson([sketchFolder('Exits', EXITS), '--fqbn', 'arduino:avr:nano:cpu=atmega328', '--for', '5s']);
    expect(result.serial.text).toBe('bye\r\n');
    expect(result.stop.reason).toBe('halted');
    expect(result.simulatedSeconds).toBeLessThan(1);
  });

  it('stops a run at the wall-clock limit and says so', async () => {
    const io = recordedIo();
    const sketch = copyOfSketch(join(import.meta.dirname, '../../../examples/Blink'));
    expect(await commands.get('simulate')!([sketch, '--fqbn', 'arduino:avr:uno', '--for', '10m', '--wall-limit', '300ms'], io)).toBe(1);
    expect(io.output()).toContain('Stopped: the wall-clock limit of 0.3 s ran out.');
  });

  it('refuses the Mega 1280 as not simulatable and lists the boards that are, the Mega 2560 among them', async () => {
    const io = recordedIo();
    const run = commands.get('simulate')!([sketchFolder('Hello', SERIAL_TEXT), '--fqbn', 'arduino:avr:mega:cpu=atmega1280'], io);
    expect(await run).toBe(1);
    expect(io.output()).toMatch(/^not simulatable: Arduino Mega or Mega 2560 \(arduino:avr:mega:cpu=atmega1280\) has build\.mcu=atmega1280\..*arduino:avr:uno.*arduino:avr:nano:cpu=atmega328.*arduino:avr:mega:cpu=atmega2560.*arduino:avr:pro:cpu=8MHzatmega328/);
  });

  it('runs a sketch on the Mega 2560: its pin numbers for --pin and the trace, A8 read through MUX5, Serial1 kept apart', async () => {
    const io = recordedIo();
    const sketch = sketchFolder('MegaEcho', MEGA_ECHO);
    const code = await commands.get('simulate')!([sketch, '--fqbn', 'arduino:avr:mega:cpu=atmega2560', '--for', '300ms', '--pin', 'A8=700', '--pin', '30=low@100ms', '--json'], io);
    expect(code).toBe(0);
    const result = JSON.parse(io.output());
    expect(result.mcu).toBe('atmega2560');
    expect(result.serial.text).toBe('A8=700 D30=1\r\nD30=0\r\n');
    expect(result.otherSerial).toMatchObject([{ name: 'Serial1', text: 'to serial1\r\n', bytes: 12, truncated: false }]);
    expect(Math.abs(result.otherSerial[0].baud - 9600) / 9600).toBeLessThan(0.01);
    const d53 = result.pins.find((pin: { pin: string }) => pin.pin === 'D53');
    expect(d53).toMatchObject({ number: 53, risingEdges: 1, level: 1 });
    expect(result.pins.find((pin: { pin: string }) => pin.pin === 'A15')).toMatchObject({ number: 69, level: 1 });
  });

  it('the MCP simulate tool answers the agent the same: not simulatable, with the boards that are', async () => {
    const tool = operationTools(context, { cwd: process.cwd(), env: {} }).find((t) => t.name === 'simulate')!;
    const answer = await tool.run({ sketch: sketchFolder('Hello', SERIAL_TEXT), fqbn: 'arduino:avr:leonardo' }, new AbortController().signal);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^not simulatable: Arduino Leonardo \(arduino:avr:leonardo\) has build\.mcu=atmega32u4\. The simulator \(avr8js\) runs ATmega328P and ATmega2560 boards; installed ones: arduino:avr:uno, .*arduino:avr:pro:cpu=8MHzatmega328/);
    expect(answer.text).not.toContain('leonardo, ');
  });

  it('refuses a --vcd file in a folder that does not exist before it compiles anything', async () => {
    const io = recordedIo();
    const sketch = sketchFolder('Hello', SERIAL_TEXT);
    const run = commands.get('simulate')!([sketch, '--fqbn', 'arduino:avr:uno', '--vcd', join(sketch, 'no-such-folder', 'out.vcd')], io);
    expect(await run).toBe(2);
    expect(io.output()).toContain(`--vcd ${join(sketch, 'no-such-folder', 'out.vcd')}: the folder ${join(sketch, 'no-such-folder')} does not exist; give a file in an existing folder`);
    expect(io.output()).not.toContain('Compiling');
  });

  it('says which --pin it cannot read and what it takes', async () => {
    const io = recordedIo();
    const run = commands.get('simulate')!([sketchFolder('Hello', SERIAL_TEXT), '--fqbn', 'arduino:avr:uno', '--pin', 'A9=3'], io);
    expect(await run).toBe(2);
    expect(io.output()).toMatch(/--pin "A9=3": this board has no pin A9 \(pins 0–19, A0, A1, A2, A3, A4, A5, A6, A7\)/);
  });

  it('writes a VCD trace that names every pin and has D13’s edges at their simulated times', async () => {
    const sketch = copyOfSketch(join(import.meta.dirname, '../../../examples/Blink'));
    const vcd = join(sketch, 'out.vcd');
    await simulateJson([sketch, '--fqbn', 'arduino:avr:uno', '--for', '1.1s', '--vcd', vcd]);
    const text = readFileSync(vcd, 'utf8');
    expect(text).toContain('$timescale 1ns $end');
    expect(text).toMatch(/\$var wire 1 \S+ D13 \$end/);
    expect(text.trimEnd().endsWith('#1100000000')).toBe(true);
    // libsigrok's VCD reader is what PulseView opens files with; it re-dumps the file at 1 MHz.
    const { stdout } = await promisify(execFile)('sigrok-cli', ['-i', vcd, '-I', 'vcd:downsample=1000', '-O', 'vcd']);
    const id = /\$var wire 1 (\S+) D13 \$end/.exec(stdout)![1];
    const edges = [...stdout.matchAll(new RegExp(`#(\\d+) ([^#]*)`, 'g'))].flatMap((m) => (m[2].split(/\s+/).includes(`1${id}`) ? [Number(m[1])] : []));
    expect(edges).toHaveLength(2);
    expect(edges[1] - edges[0]).toBeGreaterThan(999_000);
    expect(edges[1] - edges[0]).toBeLessThan(1_001_000);
  });
});
