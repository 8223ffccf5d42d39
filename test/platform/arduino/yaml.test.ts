import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readSketch } from '../../../context-providers/arduino/sketch.js';
import { sketchDefaults } from '../../../boards/toolchains/sketch.js';
import { parseYaml } from '../../../platform/arduino/yaml.js';
import { TMP } from '../../context-providers/arduino/paths.js';

test('flow collections are read as lists and mappings, every scalar as a string, with the line of each value', () => {
  const text = ['# a comment', 'default_port: 1234', 'profiles:', '  uno:', '    fqbn: "arduino:avr:uno"   # quoted', '    libraries: [Servo (1.2.2), "Arduino_JSON (0.1.0)"]', '    options: {cpu: atmega328, speed: 16}', '  nano: {fqbn: arduino:avr:nano}', ''].join('\n');
  const parsed = parseYaml(text, 'sketch.yaml');
  expect(parsed.warnings).toEqual([]);
  expect(parsed.value).toEqual({
    default_port: '1234',
    profiles: {
      uno: { fqbn: 'arduino:avr:uno', libraries: ['Servo (1.2.2)', 'Arduino_JSON (0.1.0)'], options: { cpu: 'atmega328', speed: '16' } },
      nano: { fqbn: 'arduino:avr:nano' },
    },
  });
  expect(parsed.lineOf(['default_port'])).toBe(2);
  expect(parsed.lineOf(['profiles', 'uno', 'fqbn'])).toBe(5);
  expect(parsed.lineOf(['profiles', 'uno', 'libraries', 1])).toBe(6);
  expect(parsed.lineOf(['profiles', 'nano', 'fqbn'])).toBe(8);
  expect(parsed.lineOf(['profiles', 'mega'])).toBeUndefined();
});

test('a syntax error is a warning naming file:line, and what parses before it is still read', () => {
  const parsed = parseYaml('default_fqbn: arduino:avr:uno\nprofiles:\n  uno:\n    fqbn: [unclosed\n', '/s/sketch.yaml');
  expect(parsed.warnings.length).toBeGreaterThan(0);
  expect(parsed.warnings[0]).toMatchObject({ severity: 'warning', code: 'yaml-syntax', file: '/s/sketch.yaml' });
  expect(parsed.warnings[0].message).toMatch(/^\/s\/sketch\.yaml:\d+: /);
  expect(parsed.value).toMatchObject({ default_fqbn: 'arduino:avr:uno' });
});

test('a sketch.yaml profile written with flow sequences gives its libraries and the fqbn line, for the context and for compile/upload defaults', async () => {
  const dir = join(TMP, 'FlowYaml');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'FlowYaml.ino'), 'void setup() {}\nvoid loop() {}\n');
  writeFileSync(join(dir, 'sketch.yaml'), "profiles:\n  uno:\n    fqbn: arduino:avr:uno\n    platforms: [{platform: arduino:avr (1.8.6)}]\n    libraries: [Servo (1.2.2)]\ndefault_profile: uno\ndefault_fqbn: 'arduino:avr:nano'\ndefault_port: /dev/ttyACM0 # the Nano\n");
  const sketch = (await readSketch(dir))!;
  expect(sketch.warnings).toEqual([]);
  expect(sketch.yaml).toMatchObject({ defaultFqbn: 'arduino:avr:nano', defaultFqbnLine: 7, defaultPort: '/dev/ttyACM0', defaultProfile: 'uno' });
  expect(sketch.yaml?.profiles).toEqual([{ name: 'uno', fqbn: 'arduino:avr:uno', fqbnLine: 3, programmer: undefined, platforms: ['arduino:avr (1.8.6)'], libraries: ['Servo (1.2.2)'] }]);
  expect(await sketchDefaults(dir)).toEqual({ fqbn: 'arduino:avr:nano', port: '/dev/ttyACM0' });
});
