import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../boards/compile.js';
import { ArduinoBuilder, debianLayout } from '../../boards/toolchains/arduino-builder.js';
import { BROKEN, copyOfSketch, GREETER, sketchFolder, LOW_ON_RAM, WITH_LIBRARIES } from '../rig/sketches.js';

const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout('/nonexistent-sketchbook'));

describe('compile with Debian arduino-builder', () => {
  it('builds the Blink example into the sketch’s own build folder and reports flash and RAM against the Uno’s limits', async () => {
    const sketch = copyOfSketch(join(import.meta.dirname, '../../examples/Blink'));
    const progress: number[] = [];
    const report = await compile({ sketch, fqbn: 'arduino:avr:uno', tool: builder, onProgress: (p) => progress.push(p) });
    expect(report.success).toBe(true);
    expect(report.tool).toBe('arduino-builder');
    expect(report.buildPath).toBe(join(sketch, 'build', 'arduino.avr.uno'));
    expect(report.image).toBe(join(sketch, 'build', 'arduino.avr.uno', 'Blink.ino.hex'));
    expect(existsSync(report.image!)).toBe(true);
    expect(report.flash?.max).toBe(32256);
    expect(report.flash?.used).toBeGreaterThan(500);
    expect(report.ram?.max).toBe(2048);
    expect(report.diagnostics).toEqual([]);
    expect(report.findings).toEqual([]);
    expect(progress.at(-1)).toBe(100);
  });

  it('builds for a board whose FQBN leaves a menu out (arduino:avr:nano), with the first option of the menu as arduino-cli does', async () => {
    const sketch = copyOfSketch(join(import.meta.dirname, '../../examples/Blink'));
    const report = await compile({ sketch, fqbn: 'arduino:avr:nano', tool: builder });
    expect(report.success, report.output).toBe(true);
    expect(report.command).toContain('arduino:avr:nano:cpu=atmega328');
    // The first `cpu` of Debian's boards.txt is the ATmega328P (new bootloader): its 30 KB.
    expect(report.flash?.max).toBe(30720);
    expect((await builder.boardProperties('arduino:avr:nano'))['build.mcu']).toBe('atmega328p');
  });

  it('points a compile error at the sketch line and column', async () => {
    const sketch = sketchFolder('Broken', BROKEN);
    const report = await compile({ sketch, fqbn: 'arduino:avr:uno', tool: builder });
    expect(report.success).toBe(false);
    expect(report.image).toBeUndefined();
    expect(report.diagnostics).toHaveLength(1);
    expect(report.diagnostics[0]).toMatchObject({
      severity: 'ERROR',
      file: join(sketch, 'Broken.ino'),
      line: 6,
      col: 3,
      context: [{ message: "In function 'void loop()':", file: join(sketch, 'Broken.ino') }],
    });
    expect(report.diagnostics[0].message).toMatch(/^'undeclaredThing' was not declared in this scope/);
    expect(report.findings[0]).toMatchObject({ severity: 'error', line: 6, column: 3, code: 'compile-error' });
  });

  it('lists the libraries the sketch used, with versions and folders', async () => {
    const report = await compile({ sketch: sketchFolder('Libs', WITH_LIBRARIES), fqbn: 'arduino:avr:uno', tool: builder });
    expect(report.success).toBe(true);
    expect(report.libraries).toEqual([
      { name: 'Wire', version: '1.0', path: '/usr/share/arduino/hardware/arduino/avr/libraries/Wire' },
      { name: 'EEPROM', version: '2.0', path: '/usr/share/arduino/hardware/arduino/avr/libraries/EEPROM' },
    ]);
  });

  it('warns when globals take more than 75% of upload.maximum_data_size', async () => {
    const report = await compile({ sketch: sketchFolder('Hungry', LOW_ON_RAM), fqbn: 'arduino:avr:uno', tool: builder });
    expect(report.success).toBe(true);
    expect(report.ram?.used).toBeGreaterThan(1700);
    expect(report.findings).toEqual([expect.objectContaining({ severity: 'warning', code: 'ram-low' })]);
  });

  it('builds the same sketch for two boards side by side', async () => {
    const sketch = sketchFolder('Greeter', GREETER);
    const uno = await compile({ sketch, fqbn: 'arduino:avr:uno', tool: builder });
    const mega = await compile({ sketch, fqbn: 'arduino:avr:mega:cpu=atmega2560', tool: builder });
    expect(uno.buildPath).not.toBe(mega.buildPath);
    expect(mega.buildPath).toBe(join(sketch, 'build', 'arduino.avr.mega.cpu_atmega2560'));
    expect(mega.flash?.max).toBe(253952);
  });

  it('reads the resolved board properties with -dump-prefs', async () => {
    const properties = await builder.boardProperties('arduino:avr:uno');
    expect(properties['upload.maximum_size']).toBe('32256');
    expect(properties['upload.protocol']).toBe('arduino');
    expect(properties['tools.avrdude.upload.pattern']).toContain('-Uflash:w:');
  });

  it('says which sketch folder is missing its main file', async () => {
    const dir = sketchFolder('Named', GREETER);
    await expect(compile({ sketch: join(dir, '..'), fqbn: 'arduino:avr:uno', tool: builder })).rejects.toThrow(
      /a sketch folder holds a main file named after it/,
    );
  });
});
