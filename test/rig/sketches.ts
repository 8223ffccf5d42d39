// Sketch folders written fresh into a temp dir per test, so builds never litter the repo.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export function sketchFolder(name: string, source: string, root = mkdtempSync(join(tmpdir(), 'bb-sketch-'))): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.ino`), source);
  return dir;
}

/** A copy of a sketch from the repo (e.g. examples/Blink) in a temp dir. */
export function copyOfSketch(dir: string): string {
  const target = join(mkdtempSync(join(tmpdir(), 'bb-sketch-')), basename(dir));
  cpSync(dir, target, { recursive: true });
  return target;
}

/** Prints a greeting once, then a counter every 100 ms: what the monitor tests look for. */
export const GREETER = `void setup() {
  Serial.begin(115200);
  Serial.println("hello from the emulated uno");
}

void loop() {
  static unsigned int count = 0;
  Serial.print("tick ");
  Serial.println(count++);
  delay(100);
}
`;

/** A typo on line 6, column 3: the compile-error test expects exactly there. */
export const BROKEN = `void setup() {
  Serial.begin(9600);
}

void loop() {
  undeclaredThing = 3;
}
`;

export const WITH_LIBRARIES = `#include <Wire.h>
#include <EEPROM.h>

void setup() {
  Wire.begin();
  EEPROM.write(0, 42);
}

void loop() {}
`;

/** 1700 of the Uno's 2048 bytes of RAM in globals: past Arduino's 75% warning line. */
export const LOW_ON_RAM = `volatile char buffer[1700];

void setup() { buffer[0] = 1; }
void loop() { buffer[1] = buffer[0]; }
`;
