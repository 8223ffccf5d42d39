// The Arduino IDE's own view of the build (vscode-arduino-api board details and compile
// summary, as the extension passes them on) joins the context built from the files:
// its values win where they differ, its last compile is checked against the board's
// limits, and its data folder is where the platforms are found.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { arduinoContextSchema } from '../../../context-providers/arduino/context-schema.js';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import { createArduinoProvider } from '../../../context-providers/arduino/provider.js';
import { resolveFqbn } from '../../../platform/arduino/resolve.js';
import type { ArduinoIdeState, HardwareContext, Selection } from '../../../context-providers/types.js';
import { DEBIAN_AVR, OWN_FIXTURES, TMP } from './paths.js';

const BLINK = join(OWN_FIXTURES, 'sketches', 'Blink');

/** The Uno's expanded build properties from the installed files: what `board details` gives the IDE for the same platform. */
async function unoProperties(): Promise<Record<string, string>> {
  const board = resolveFqbn('arduino:avr:uno', await discoverPlatforms({ dataDirs: [], sketchbookDirs: [], home: TMP }));
  return Object.fromEntries([...board.properties.keys()].map((key) => [key, board.expanded(key) ?? '']));
}

async function load(selection: Selection, provider = createArduinoProvider({ dataDirs: [], sketchbookDirs: [], home: TMP })): Promise<{ context: HardwareContext; text: string }> {
  const project = await provider.detect(BLINK);
  const context = await provider.load(project!, selection);
  arduinoContextSchema.parse(context);
  return { context, text: provider.render(context) };
}


/** The notes the IDE's state added (the core's own notes, such as tone()'s timer, are always there). */
const ideNotes = (context: HardwareContext) => (context.notes ?? []).filter((note) => note.source?.file.startsWith('Arduino IDE'));

describe('the Arduino IDE state in the context (properties shaped as vscode-arduino-api 0.1.2 gives them)', () => {
  test('board details that agree with the files change nothing', async () => {
    const ide: ArduinoIdeState = { fqbn: 'arduino:avr:uno', buildProperties: await unoProperties() };
    const { context, text } = await load({ board: 'arduino:avr:uno', arduinoIde: ide });
    expect(ideNotes(context)).toEqual([]);
    expect(context.board.flashBytes).toBe(32256);
    expect(text).not.toContain('From the Arduino IDE');
  });

  test("the IDE's values win where they differ, and the context says which and why", async () => {
    const properties = { ...(await unoProperties()), 'upload.maximum_size': '31744', 'upload.speed': '57600' };
    const { context, text } = await load({ board: 'arduino:avr:uno', arduinoIde: { fqbn: 'arduino:avr:uno', buildProperties: properties } });
    expect(context.board.flashBytes).toBe(31744);
    expect(context.board.sources?.flashBytes).toEqual({ file: 'Arduino IDE board details' });
    expect(context.toolchain?.upload?.speed).toBe(57600);
    expect(ideNotes(context)[0].text).toContain('upload.maximum_size = 31744 (the files say 32256)');
    expect(text).toContain('Flash for the sketch: 31744 bytes (Arduino IDE board details)');
    expect(text).toContain('## From the Arduino IDE');
  });

  test('properties fetched for another board (the IDE sends the FQBN before the details) are ignored', async () => {
    const properties = { ...(await unoProperties()), 'upload.maximum_size': '1' };
    const { context } = await load({ board: 'arduino:avr:uno', arduinoIde: { fqbn: 'arduino:avr:mega', buildProperties: properties } });
    expect(context.board.flashBytes).toBe(32256);
    expect(ideNotes(context)).toEqual([]);
  });

  test("the IDE's last compile is checked against the board and its build and libraries become readable", async () => {
    const ide: ArduinoIdeState = {
      lastCompile: {
        buildPath: '/tmp/arduino/sketches/4F2D1C',
        sections: [
          { name: 'text', size: 33010, maxSize: 32256 },
          { name: 'data', size: 1800, maxSize: 2048 },
        ],
        libraries: [{ name: 'Servo', version: '1.2.2', installDir: '/home/anna/Arduino/libraries/Servo' }],
        platform: { id: 'arduino:avr', version: '1.8.6', installDir: '/home/anna/.arduino15/packages/arduino/hardware/avr/1.8.6' },
      },
    };
    const { context, text } = await load({ board: 'arduino:avr:uno', arduinoIde: ide });
    expect(context.findings.map((finding) => finding.code)).toEqual(expect.arrayContaining(['flash-over', 'ram-low']));
    expect(context.readOnlyRoots).toEqual(expect.arrayContaining(['/tmp/arduino/sketches/4F2D1C', '/home/anna/Arduino/libraries/Servo']));
    expect(text).toContain('Last compile in the IDE: flash 33010 of 32256 bytes (102%); RAM 1800 of 2048 bytes (88%); libraries linked: Servo 1.2.2; built with arduino:avr 1.8.6');
    expect(text).toContain('Sketch uses 33010 bytes of flash');
  });

  test("the IDE's data folder is where its platforms are found when no arduino-cli.yaml says so", async () => {
    const data = join(TMP, 'ide-data');
    rmSync(data, { recursive: true, force: true });
    mkdirSync(join(data, 'packages', 'arduino', 'hardware', 'avr'), { recursive: true });
    symlinkSync(DEBIAN_AVR, join(data, 'packages', 'arduino', 'hardware', 'avr', '1.8.6'));
    const provider = createArduinoProvider({ includeDebian: false, home: TMP });
    const { context } = await load({ board: 'arduino:avr:uno', arduinoIde: { dataDir: data, userDir: join(TMP, 'no-sketchbook') } }, provider);
    expect(context.toolchain?.path).toBe(join(data, 'packages', 'arduino', 'hardware', 'avr', '1.8.6'));
    expect(context.pins).toHaveLength(20);
    await expect(load({ board: 'arduino:avr:uno' }, createArduinoProvider({ includeDebian: false, home: TMP }))).rejects.toThrow(/arduino:avr/);
  });
});
