// Times compiles with Debian's arduino-builder: a first build with an empty core cache, a rebuild
// with nothing changed, one after a sketch edit, and another sketch reusing the cached core.
// Prints figures only.
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from '../boards/compile.js';
import { ArduinoBuilder, debianLayout } from '../boards/toolchains/arduino-builder.js';

const root = mkdtempSync(join(tmpdir(), 'bb-compile-bench-'));
const sketch = join(root, 'Bench');
mkdirSync(sketch);
writeFileSync(join(sketch, 'Bench.ino'), 'void setup() { Serial.begin(115200); }\nvoid loop() { Serial.println(millis()); delay(100); }\n');

async function timed(label: string, builder: ArduinoBuilder): Promise<void> {
  const start = process.hrtime.bigint();
  const report = await compile({ sketch, fqbn: 'arduino:avr:uno', tool: builder });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(`  ${label.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  (${report.success ? `flash ${report.flash?.used} B` : 'FAILED'})`);
}

const coldCache = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout(join(root, 'sketchbook'), join(root, 'core-cache')));
console.log('compile bench: arduino:avr:uno with Debian arduino-builder');
await timed('first build, empty core cache', coldCache);
await timed('rebuild, nothing changed', coldCache);
appendFileSync(join(sketch, 'Bench.ino'), '// edited\n');
await timed('rebuild after a sketch edit', coldCache);
// A second sketch reuses the core the first build put into the cache.
const other = join(root, 'Other');
mkdirSync(other);
writeFileSync(join(other, 'Other.ino'), 'void setup() {}\nvoid loop() {}\n');
const otherStart = process.hrtime.bigint();
await compile({ sketch: other, fqbn: 'arduino:avr:uno', tool: coldCache });
console.log(`  ${'another sketch, core from the cache'.padEnd(34)} ${(Number(process.hrtime.bigint() - otherStart) / 1e6).toFixed(0).padStart(6)} ms`);
