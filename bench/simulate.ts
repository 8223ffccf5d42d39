// Simulated seconds per second on the simulated Uno (the bare ATmega328P) and Mega 2560 (avr8js,
// 16 MHz; the Mega's configuration built from avr-libc's iom2560.h), bare and with ten parts
// around it (bench/sketches/MegaParts: LEDs, buttons, a potentiometer, a 74HC595 and 7-segment,
// a servo, a buzzer and a bar graph, from its diagram.json), each built by Debian's
// arduino-builder. The runs alternate in one process, so every figure of a round was measured
// under the same load; the figure that counts on a shared machine is simulated seconds per CPU
// second of this process (user + system), wall seconds beside it.
// `node dist/bench/simulate.js [simulated seconds per run, default 5] [rounds, default 3]`
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from '../boards/compile.js';
import { Circuit } from '../boards/circuit/circuit.js';
import { diagramFor } from '../boards/circuit/diagram-file.js';
import { buildNetlist } from '../platform/circuit/netlist.js';
import { simulatedBoard, type SimulatedBoard } from '../boards/simulate/simulatable.js';
import { simulate, type SimulationResult } from '../boards/simulate/simulation.js';
import { ArduinoBuilder, debianLayout } from '../boards/toolchains/arduino-builder.js';
import { discoverPlatforms } from '../platform/arduino/platforms.js';
import { fixture } from '../test/support/fixtures.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PARTS = join(repo, 'bench', 'sketches', 'MegaParts');
const BLINK = 'void setup() { pinMode(13, OUTPUT); }\nvoid loop() { digitalWrite(13, HIGH); delay(500); digitalWrite(13, LOW); delay(500); }\n';
const SERIAL_FLOOD = 'void setup() { Serial.begin(115200); }\nvoid loop() { Serial.println(millis()); }\n';
const SECONDS = Number(process.argv[2] ?? 5);
const ROUNDS = Number(process.argv[3] ?? 3);

const root = mkdtempSync(join(tmpdir(), 'bb-simulate-bench-'));
// The shared sketchbook holds the Servo library (Debian ships none).
const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout(join(fixture('arduino'), 'sketchbook')));
const installed = await discoverPlatforms({ home: join(root, 'home') });
const uno = simulatedBoard('arduino:avr:uno', installed);
const mega = simulatedBoard('arduino:avr:mega:cpu=atmega2560', installed);

async function build(name: string, board: SimulatedBoard, source: string | { dir: string }): Promise<string> {
  let dir: string;
  if (typeof source === 'string') {
    dir = join(root, `${name}-${board.mcu.mcu}`, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.ino`), source);
  } else {
    // Built in a copy: the build writes its folder beside the sketch.
    dir = join(root, name);
    cpSync(source.dir, dir, { recursive: true });
  }
  const report = await compile({ sketch: dir, fqbn: board.buildFqbn, tool: builder });
  if (!report.image) throw new Error(`${name} did not compile for ${board.fqbn}:\n${report.output}`);
  return report.image;
}

interface Case {
  label: string;
  board: SimulatedBoard;
  hex: string;
  diagram?: boolean;
}
const cases: Case[] = [
  { label: 'Uno bare, Blink', board: uno, hex: await build('Blink', uno, BLINK) },
  { label: 'Uno bare, serial flood', board: uno, hex: await build('SerialFlood', uno, SERIAL_FLOOD) },
  { label: 'Mega bare, Blink', board: mega, hex: await build('Blink', mega, BLINK) },
  { label: 'Mega bare, serial flood', board: mega, hex: await build('SerialFlood', mega, SERIAL_FLOOD) },
  { label: 'Mega, ten-part sketch, no diagram', board: mega, hex: await build('MegaParts', mega, { dir: PARTS }) },
];
cases.push({ ...cases[4], label: 'Mega ten parts (diagram.json)', diagram: true });
const diagram = diagramFor(PARTS, undefined);
if (!diagram) throw new Error(`no diagram.json in ${PARTS}`);

interface Figure {
  cpu: number[];
  wall: number[];
  last?: SimulationResult;
  partStates?: string;
}
const figures = cases.map((): Figure => ({ cpu: [], wall: [] }));

async function run(c: Case, figure: Figure, seconds = SECONDS): Promise<void> {
  const circuit = c.diagram ? new Circuit(buildNetlist(diagram!, c.board.naming), 1000) : undefined;
  const cpuBefore = process.cpuUsage();
  const result = await simulate({
    hex: c.hex,
    clockHz: c.board.clockHz,
    mcu: c.board.mcu,
    pins: c.board.pins,
    forSeconds: seconds,
    wallLimitMs: 600_000,
    traceLimit: 1000,
    onSerial: () => undefined,
    ...(circuit ? { outside: circuit } : {}),
  });
  const cpu = process.cpuUsage(cpuBefore);
  figure.cpu.push(result.simulatedSeconds / ((cpu.user + cpu.system) / 1e6));
  figure.wall.push(result.simulatedSeconds / result.wallSeconds);
  figure.last = result;
  if (circuit) {
    const report = circuit.report(result.cycles);
    figure.partStates = report.parts.map((part) => `${part.id} ${part.state} (${part.changes} changes)`).join('; ');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`simulate bench: ${uno.name} (${uno.mcu.mcu}) and ${mega.name} (${mega.mcu.mcu}) at ${uno.clockHz / 1e6} MHz, ${SECONDS} simulated s per run, ${ROUNDS} rounds alternating (node ${process.version})`);
// One short warm-up of each, so the first round does not carry V8's compilation of the loop.
for (const c of cases) await run(c, { cpu: [], wall: [] }, 0.5);
for (let round = 0; round < ROUNDS; round++) for (const [i, c] of cases.entries()) await run(c, figures[i]);
for (const [i, c] of cases.entries()) {
  const { cpu, wall, last } = figures[i];
  const changes = last ? last.trace.changes.length + last.trace.dropped : 0;
  console.log(
    `  ${c.label.padEnd(34)} ${median(cpu).toFixed(2).padStart(6)} simulated s per CPU s (rounds ${cpu.map((v) => v.toFixed(2)).join(', ')}), ${median(wall).toFixed(2)} per wall s; ${changes} pin changes, ${last?.serial.bytes ?? 0} serial bytes`,
  );
  if (figures[i].partStates) console.log(`    parts at the end: ${figures[i].partStates}`);
}
const megaParts = median(figures[5].cpu);
console.log(`RESULT Mega ten parts, simulated s per CPU s ${megaParts.toFixed(2)} (goal ≥ 1.0)`);
console.log(`RESULT Mega ten parts / Uno bare Blink, speed ${(megaParts / median(figures[0].cpu)).toFixed(2)}`);
console.log(`  (load average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
