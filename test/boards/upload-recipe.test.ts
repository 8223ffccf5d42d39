import { describe, expect, it } from 'vitest';
import { uploadProblem } from '../../boards/upload/avrdude-output.js';
import { grantUpload, checkConsent } from '../../boards/upload/consent.js';
import { uploadRecipe } from '../../boards/upload/recipe.js';
import { splitCommandLine } from '../../context-providers/arduino/variant-header.js';
import { ArduinoBuilder, debianLayout } from '../../boards/toolchains/arduino-builder.js';

describe('upload recipe', () => {
  it('expands Debian’s resolved tools.avrdude.upload.pattern for the Uno into an avrdude command', async () => {
    const properties = await new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout('/nonexistent')).boardProperties('arduino:avr:uno');
    const recipe = uploadRecipe({ properties, port: '/dev/ttyACM0', buildPath: '/s/Blink/build/arduino.avr.uno', sketchName: 'Blink', verify: true, verbose: false });
    expect(recipe.tool).toBe('avrdude');
    expect(recipe.use1200bpsTouch).toBe(false);
    expect(recipe.argv).toEqual([
      '/usr/bin/avrdude',
      '-C/etc/avrdude.conf',
      '-q',
      '-q',
      '-patmega328p',
      '-carduino',
      '-P/dev/ttyACM0',
      '-b115200',
      '-D',
      '-Uflash:w:/s/Blink/build/arduino.avr.uno/Blink.ino.hex:i',
    ]);
  });

  it('asks for the 1200-bps touch and the port wait on a Leonardo, and skips verify when told', async () => {
    const properties = await new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout('/nonexistent')).boardProperties('arduino:avr:leonardo');
    const recipe = uploadRecipe({ properties, port: '/dev/ttyACM0', buildPath: '/b', sketchName: 'S', verify: false, verbose: true });
    expect(recipe).toMatchObject({ use1200bpsTouch: true, waitForUploadPort: true });
    expect(recipe.argv).toContain('-V');
    expect(recipe.argv).toContain('-v');
    expect(recipe.argv).toContain('-cavr109');
  });

  it('names the references a pattern leaves unresolved', () => {
    expect(() =>
      uploadRecipe({
        properties: { 'upload.tool': 'mytool', 'tools.mytool.upload.pattern': 'flash {mystery} {serial.port}' },
        port: '/dev/ttyUSB0', buildPath: '/b', sketchName: 'S', verify: true, verbose: false,
      }),
    ).toThrow(/still refers to \{mystery\}/);
  });

  it('splits a recipe on whitespace, keeping quoted paths with spaces whole', () => {
    expect(splitCommandLine('"/opt/My Tools/avrdude" "-C/etc/a b.conf"  -v')).toEqual(['/opt/My Tools/avrdude', '-C/etc/a b.conf', '-v']);
  });
});

describe('upload problems', () => {
  it('surfaces a verify mismatch with the byte where the flash differs', () => {
    const output = 'avrdude: verifying ...\navrdude: verification error, first mismatch at byte 0x0042\n         0x0c != 0xff\navrdude: verification error; content mismatch';
    expect(uploadProblem(output, '/dev/ttyACM0')).toMatch(/^verify failed: flash differs from the image at byte 0x0042/);
  });

  it('explains a bootloader that never answered in terms of the port', () => {
    expect(uploadProblem('avrdude: stk500_recv(): programmer is not responding', '/dev/ttyACM0')).toMatch(
      /no bootloader answered on \/dev\/ttyACM0: check the port and board selection/,
    );
  });
});

describe('upload consent', () => {
  it('accepts only a token granted for the same image, board and port', () => {
    const target = { image: '/s/build/S.ino.hex', fqbn: 'arduino:avr:uno', port: '/dev/ttyACM0' };
    expect(() => checkConsent(grantUpload(target, 'person'), target)).not.toThrow();
    expect(() => checkConsent({ target } as never, target)).toThrow(/no consent token; the permission broker must ask first/);
    expect(() => checkConsent(grantUpload({ ...target, fqbn: 'arduino:avr:mega' }, 'person'), target)).toThrow(/consent was for/);
  });
});
