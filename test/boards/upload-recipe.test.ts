import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadProblem } from '../../boards/upload/avrdude-output.js';
import { grantUpload, checkConsent } from '../../boards/upload/consent.js';
import { uploadRecipe, type RecipeInput } from '../../boards/upload/recipe.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../platform/arduino/platforms.js';
import { resolveFqbn } from '../../platform/arduino/resolve.js';
import { resolveUploadTool } from '../../context-providers/arduino/upload-tool.js';
import { splitCommandLine } from '../../context-providers/arduino/compile-flags.js';

const DEBIAN_AVR = '/usr/share/arduino/hardware/arduino/avr';
const UNO_ARGS = ['-patmega328p', '-carduino', '-P/dev/ttyACM0', '-b115200', '-D'];

// Third-party platforms beside Debian's arduino:avr, as a sketchbook's hardware/ folder holds them.
// Neither platform.txt defines tools.avrdude.*: the boards borrow arduino:avr's tool.
const ACME_PLATFORM = 'name=Acme AVR Boards\nversion=1.0.0\n';
const ACME_BOARDS = [
  // Adafruit's way: arduino's core, variant and uploader.
  'trinket.name=Acme Trinket',
  'trinket.upload.tool=arduino:avrdude',
  'trinket.upload.protocol=arduino',
  'trinket.upload.speed=115200',
  'trinket.build.mcu=atmega328p',
  'trinket.build.core=arduino:arduino',
  'trinket.build.variant=arduino:standard',
  // Its own core; only the uploader is arduino's.
  'owncore.name=Acme Own Core',
  'owncore.upload.tool=arduino:avrdude',
  'owncore.upload.protocol=stk500v1',
  'owncore.upload.speed=19200',
  'owncore.build.mcu=atmega8',
  'owncore.build.core=acme',
  'owncore.build.variant=acme8',
  'flashit.name=Acme Flashit',
  'flashit.upload.tool=arduino:flashit',
  'flashit.build.mcu=atmega328p',
  'flashit.build.core=arduino:arduino',
  'nobody.name=Acme Nobody',
  'nobody.upload.tool=nobody:avrdude',
  'nobody.build.mcu=atmega328p',
  'bare.name=Acme Bare',
  'bare.upload.tool=avrdude',
  'bare.build.mcu=atmega328p',
  'bare.build.core=acme',
  'mystery.name=Acme Mystery',
  'mystery.upload.tool=mytool',
  'mystery.build.core=acme',
].join('\n');
const ACME_MYTOOL = 'tools.mytool.upload.pattern=flash {mystery} {serial.port}\n';
// A core written for pluggable discovery: upload.tool.<protocol> keys, no plain upload.tool.
const NEWCO_PLATFORM = 'name=Newco AVR\nversion=2.0.0\npluggable_discovery.required.0=builtin:serial-discovery\ntools.newco_ota.upload.pattern=ota {upload.port.address}\n';
const NEWCO_BOARDS = [
  'duo.name=Newco Duo',
  'duo.upload.tool.default=arduino:avrdude',
  'duo.upload.tool.network=newco_ota',
  'duo.upload.protocol=arduino',
  'duo.upload.speed=57600',
  'duo.build.mcu=atmega328p',
  'duo.build.core=arduino:arduino',
  'duo.build.variant=arduino:standard',
].join('\n');

let scratch: string;
let installed: InstalledPlatforms;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'boardbridge-upload-recipe-'));
  const acme = join(scratch, 'sketchbook/hardware/acme/avr');
  const newco = join(scratch, 'sketchbook/hardware/newco/avr');
  mkdirSync(acme, { recursive: true });
  mkdirSync(newco, { recursive: true });
  writeFileSync(join(acme, 'platform.txt'), ACME_PLATFORM + ACME_MYTOOL);
  writeFileSync(join(acme, 'boards.txt'), `${ACME_BOARDS}\n`);
  writeFileSync(join(newco, 'platform.txt'), NEWCO_PLATFORM);
  writeFileSync(join(newco, 'boards.txt'), `${NEWCO_BOARDS}\n`);
  // Debian's /usr/share/arduino/hardware plus the sketchbook; no arduino-cli data dir.
  installed = await discoverPlatforms({ dataDirs: [], sketchbookDirs: [join(scratch, 'sketchbook')], home: scratch });
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function recipeFor(fqbn: string, overrides: Partial<RecipeInput> = {}) {
  return uploadRecipe({
    board: resolveFqbn(fqbn, installed),
    installed,
    port: '/dev/ttyACM0',
    buildPath: '/b',
    sketchName: 'S',
    verify: true,
    verbose: false,
    ...overrides,
  });
}

describe('upload recipe', () => {
  it('expands Debian’s tools.avrdude.upload.pattern for the Uno into an avrdude command', () => {
    const recipe = recipeFor('arduino:avr:uno', { buildPath: '/s/Blink/build/arduino.avr.uno', sketchName: 'Blink' });
    expect(recipe.tool).toBe('avrdude');
    expect(recipe.toolPlatform).toBe('arduino:avr');
    expect(recipe.use1200bpsTouch).toBe(false);
    expect(recipe.argv).toEqual([
      '/usr/bin/avrdude',
      '-C/etc/avrdude.conf',
      '-q',
      '-q',
      ...UNO_ARGS,
      '-Uflash:w:/s/Blink/build/arduino.avr.uno/Blink.ino.hex:i',
    ]);
  });

  it('asks for the 1200-bps touch and the port wait on a Leonardo, and skips verify when told', () => {
    const recipe = recipeFor('arduino:avr:leonardo', { verify: false, verbose: true });
    expect(recipe).toMatchObject({ use1200bpsTouch: true, waitForUploadPort: true });
    expect(recipe.argv).toContain('-V');
    expect(recipe.argv).toContain('-v');
    expect(recipe.argv).toContain('-cavr109');
  });

  it("takes upload.tool=arduino:avrdude from arduino:avr's platform.txt for a third-party board on arduino's core", () => {
    const recipe = recipeFor('acme:avr:trinket');
    expect(recipe.tool).toBe('avrdude');
    expect(recipe.toolPlatform).toBe('arduino:avr');
    expect(recipe.argv).toEqual(['/usr/bin/avrdude', '-C/etc/avrdude.conf', '-q', '-q', ...UNO_ARGS, '-Uflash:w:/b/S.ino.hex:i']);
  });

  it("takes arduino:avr's avrdude, path included, for a third-party board with its own core", () => {
    // Debian's global platform.txt says tools.avrdude.path={runtime.tools.avrdude.path}; it lies
    // beneath every platform, so Debian's arduino:avr (tools.avrdude.path=/usr) decides.
    const recipe = recipeFor('acme:avr:owncore', { verify: false });
    expect(recipe.toolPlatform).toBe('arduino:avr');
    expect(recipe.argv).toEqual([
      '/usr/bin/avrdude', '-C/etc/avrdude.conf', '-q', '-q', '-V',
      '-patmega8', '-cstk500v1', '-P/dev/ttyACM0', '-b19200', '-D', '-Uflash:w:/b/S.ino.hex:i',
    ]);
  });

  it('uses upload.tool.default for a serial port when a newer core names a tool per protocol', () => {
    const recipe = recipeFor('newco:avr:duo', { port: '/dev/ttyUSB3' });
    expect(recipe).toMatchObject({ tool: 'avrdude', toolPlatform: 'arduino:avr' });
    expect(recipe.argv).toContain('-P/dev/ttyUSB3');
    expect(recipe.argv).toContain('-b57600');
  });

  it('runs the tool the context provider resolves for each board, from the same platform', () => {
    for (const fqbn of ['arduino:avr:uno', 'acme:avr:trinket', 'acme:avr:owncore', 'newco:avr:duo']) {
      const resolved = resolveUploadTool(resolveFqbn(fqbn, installed), installed);
      const recipe = recipeFor(fqbn);
      expect({ tool: recipe.tool, platform: recipe.toolPlatform, program: recipe.argv[0] }, fqbn).toEqual({
        tool: resolved.toolId,
        platform: resolved.platform.id,
        program: `${resolved.properties.get('path')}/bin/avrdude`,
      });
    }
  });

  it('says which board, tool and platform.txt files when no platform defines the tool, and what to try', () => {
    let message = '';
    try {
      recipeFor('acme:avr:flashit');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('acme:avr:flashit: upload.tool=arduino:flashit');
    expect(message).toContain(`${join(scratch, 'sketchbook/hardware/acme/avr/boards.txt')}:`);
    expect(message).toContain('names tool "flashit", but no tools.flashit.upload.pattern is defined in');
    expect(message).toContain(`${DEBIAN_AVR}/platform.txt or ${join(scratch, 'sketchbook/hardware/acme/avr/platform.txt')}`);
    expect(message).toMatch(/Tools with an upload pattern there: .*avrdude/);
    expect(message).toContain('install a release of arduino:avr that provides "flashit"');
  });

  it('suggests a VENDOR:tool reference when a third-party board names a bare tool its platform lacks', () => {
    expect(() => recipeFor('acme:avr:bare')).toThrow(/acme:avr:bare: upload\.tool=avrdude .*no tools\.avrdude\.upload\.pattern is defined in .*acme\/avr\/platform\.txt .*name it as VENDOR:avrdude/);
  });

  it('names the platform to install when upload.tool refers to a vendor that is not installed', () => {
    expect(() => recipeFor('acme:avr:nobody')).toThrow(/needs platform nobody:avr, which is not installed \(arduino-cli core install nobody:avr\)/);
  });

  it('names the references a pattern leaves unresolved and where the pattern is', () => {
    expect(() => recipeFor('acme:avr:mystery')).toThrow(
      /acme:avr:mystery: tools\.mytool\.upload\.pattern \(.*acme\/avr\/platform\.txt:3\) still refers to \{mystery\} after expansion/,
    );
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
