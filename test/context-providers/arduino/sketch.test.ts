import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readSketch } from '../../../context-providers/arduino/sketch.js';
import { FIXTURES, OWN_FIXTURES, TMP } from './paths.js';

test("arduino-cli's sketch.yaml profiles are read with fqbn, programmer, platforms and libraries", async () => {
  const dir = join(TMP, 'ProfileRead');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src/util'), { recursive: true });
  writeFileSync(join(dir, 'ProfileRead.ino'), 'void setup() {}\nvoid loop() {}\n');
  writeFileSync(join(dir, 'helper.cpp'), '');
  writeFileSync(join(dir, 'src/util/deep.h'), '');
  writeFileSync(join(dir, 'notes.txt'), '');
  cpSync(join(FIXTURES, 'sketch_with_profile/sketch.yaml'), join(dir, 'sketch.yaml'));
  const sketch = (await readSketch(dir))!;
  expect(sketch.files).toEqual([join(dir, 'ProfileRead.ino'), join(dir, 'helper.cpp'), join(dir, 'src/util/deep.h')]);
  expect(sketch.warnings).toEqual([]);
  expect(sketch.yaml?.profiles).toEqual([
    { name: 'avr1', fqbn: 'arduino:avr:uno', fqbnLine: 3, programmer: undefined, platforms: ['arduino:avr (1.8.5)'], libraries: [] },
    { name: 'avr2', fqbn: 'arduino:avr:uno', fqbnLine: 8, programmer: 'atmel_ice', platforms: ['arduino:avr (1.8.5)'], libraries: ['Arduino_JSON (0.1.0)'] },
    { name: 'samd', fqbn: 'arduino:samd:mkr1000', fqbnLine: 16, programmer: 'atmel_ice', platforms: ['arduino:samd (1.8.13)'], libraries: ['Arduino_JSON (0.1.0)'] },
  ]);
});

test('default_fqbn and default_port are read from sketch.yaml, and a folder without <name>.ino is no sketch', async () => {
  const sketch = (await readSketch(join(OWN_FIXTURES, 'sketches/WithYaml')))!;
  expect(sketch.yaml).toMatchObject({ defaultFqbn: 'arduino:avr:nano:cpu=atmega328old', defaultFqbnLine: 2, defaultPort: '/dev/ttyUSB0', defaultProfile: 'uno' });
  expect(await readSketch(join(OWN_FIXTURES, 'sketches'))).toBeUndefined();
});
