// Simulated seconds per wall second on the simulated Uno (the bare ATmega328P) and Mega 2560
// (avr8js, 16 MHz; the Mega's configuration built from avr-libc's iom2560.h): Blink, which
// spends its time in delay(), and a sketch that prints as fast as 115200 baud goes.
// Prints figures only.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from '../boards/compile.js';
import { simulatedBoard } from '../boards/simulate/simulatable.js';
import { simulate } from '../boards/simulate/simulation.js';
import { ArduinoBuilder, debianLayout } from '../boards/toolchains/arduino-builder.js';
import { discoverPlatforms } from '../platform/arduino/platforms.js';

const SKETCHES = {
  Blink: 'void setup() { pinMode(13, OUTPUT); }\nvoid loop() { digitalWrite(13, HIGH); delay(500); digitalWrite(13, LOW); delay(500); }\n',
  SerialFlood: 'void setup() { Serial.begin(115200); }\nvoid loop() { Serial.println(millis()); }\n',
};
const SECONDS = 10;

const root = mkdtempSync(join(tmpdir(), 'bb-simulate-bench-'));
const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout(join(root, 'sketchbook')));
const installed = await discoverPlatforms({ home: join(root, 'home') });
for (const fqbn of ['arduino:avr:uno', 'arduino:avr:mega:cpu=atmega2560']) {
  const board = simulatedBoard(fqbn, installed);
  console.log(`simulate bench: ${board.name} (${fqbn}, ${board.mcu.mcu}) at ${board.clockHz / 1e6} MHz, ${SECONDS} simulated s each`);
  for (const [name, source] of Object.entries(SKETCHES)) {
    const dir = join(root, `${name}-${board.mcu.mcu}`, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.ino`), source);
    const report = await compile({ sketch: dir, fqbn: board.buildFqbn, tool: builder });
    if (!report.image) throw new Error(`${name} did not compile for ${fqbn}:\n${report.output}`);
    let serialBytes = 0;
    const result = await simulate({
      hex: report.image,
      clockHz: board.clockHz,
      mcu: board.mcu,
      pins: board.pins,
      forSeconds: SECONDS,
      wallLimitMs: 600_000,
      traceLimit: 1000,
      onSerial: (text) => (serialBytes += text.length),
    });
    const mips = result.cycles / result.wallSeconds / 1e6;
    console.log(
      `  ${name.padEnd(12)} ${(result.simulatedSeconds / result.wallSeconds).toFixed(2).padStart(6)} simulated s per wall s  (${result.wallSeconds.toFixed(2)} s wall, ${mips.toFixed(1)} M cycles/s, ${serialBytes} serial bytes, ${result.trace.changes.length + result.trace.dropped} pin changes)`,
    );
  }
}
