// Resolved boards kept on disk between processes: an edited sketch reuses the stored board (no
// boards.txt parse), and any change of a platform file, of what discovery finds or of the code
// is a miss. Runs on a copy of the real UNO R4 platform, so its files can be edited.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BoardCache } from '../../../context-providers/arduino/board-cache.js';
import { discoverPlatforms } from '../../../platform/arduino/platforms.js';
import { boardCacheKey, createArduinoProvider } from '../../../context-providers/arduino/provider.js';
import { resolveFqbn } from '../../../platform/arduino/resolve.js';
import { DATA_DIR_32BIT, OWN_FIXTURES, TMP } from './paths.js';

const FQBN = 'arduino:renesas_uno:minima';

describe('the on-disk board cache', () => {
  const root = join(TMP, 'board-cache');
  const dataDir = join(root, 'data');
  const platformDir = join(dataDir, 'packages/arduino/hardware/renesas_uno/1.5.3');
  const cacheDir = join(root, 'cache');
  const sketch = join(root, 'Blink');
  const options = { dataDirs: [dataDir], sketchbookDirs: [], includeDebian: false, home: root };
  const boardsDir = join(cacheDir, 'boards');
  // A later mtime than the file had, so the stamp changes even within one clock tick.
  const edit = (file: string, text: string) => {
    writeFileSync(file, text);
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
  };
  const open = async (cache: string | undefined = cacheDir) => {
    const provider = createArduinoProvider({ ...options, cacheDir: cache });
    return provider.load((await provider.detect(sketch))!, { board: FQBN });
  };
  const stored = async () => new BoardCache(cacheDir).get(boardCacheKey(options, FQBN), await discoverPlatforms(options));

  test('after a sketch edit the stored board is used, and the context is the one built from scratch', async () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    cpSync(join(DATA_DIR_32BIT, 'packages/arduino/hardware/renesas_uno/1.5.3'), platformDir, { recursive: true });
    cpSync(join(OWN_FIXTURES, 'sketches/Blink'), sketch, { recursive: true });
    await open();
    const [entry] = readdirSync(boardsDir);
    const written = statSync(join(boardsDir, entry)).mtimeMs;

    edit(join(sketch, 'Blink.ino'), 'void setup() { pinMode(LED_BUILTIN, OUTPUT); analogWrite(15, 10); }\nvoid loop() {}\n');
    const afterEdit = await open();
    // A hit leaves the entry as it was; a miss would have written it again.
    expect(readdirSync(boardsDir)).toEqual([entry]);
    expect(statSync(join(boardsDir, entry)).mtimeMs).toBe(written);
    expect(afterEdit).toEqual(await open(undefined));
    expect(afterEdit.findings.map((finding) => finding.code)).toContain('pwm-pin');

    const board = await stored();
    const fresh = resolveFqbn(FQBN, await discoverPlatforms(options));
    expect(board).toBeDefined();
    expect([...board!.properties]).toEqual([...fresh.properties]);
    expect([...board!.sources]).toEqual([...fresh.sources]);
    expect(board!.expanded('build.mcu')).toBe(fresh.expanded('build.mcu'));
    expect(board!.board.menus).toEqual(fresh.board.menus);
  });

  test('a variant edit rebuilds the pin map over the stored board', async () => {
    const header = join(platformDir, 'variants/MINIMA/pins_arduino.h');
    edit(header, readFileSync(header, 'utf8').replace('#define PIN_LED     (13u)', '#define PIN_LED     (12u)'));
    const context = await open();
    expect(context).toEqual(await open(undefined));
    expect(context.pins.find((pin) => pin.names.includes('LED_BUILTIN'))?.number).toBe(12);
  });

  test.each([
    ['boards.txt', (text: string) => text.replace('minima.name=Arduino UNO R4 Minima', 'minima.name=Arduino UNO R4 Minima (edited)')],
    ['platform.txt', (text: string) => `${text}\n# edited\n`],
  ])('an edit of %s is a miss, and the context shows the edited file', async (name, change) => {
    expect(await stored()).toBeDefined();
    const file = join(platformDir, name);
    edit(file, change(readFileSync(file, 'utf8')));
    expect(await stored()).toBeUndefined();
    const context = await open();
    expect(context).toEqual(await open(undefined));
    expect(await stored()).toBeDefined();
  });

  test('a new boards.local.txt is a miss', async () => {
    expect(await stored()).toBeDefined();
    edit(join(platformDir, 'boards.local.txt'), 'minima.build.extra_flags=-DFROM_LOCAL_TXT\n');
    expect(await stored()).toBeUndefined();
    expect((await open()).board.name).toBe('Arduino UNO R4 Minima (edited)');
    expect((await stored())!.properties.get('build.extra_flags')).toBe('-DFROM_LOCAL_TXT');
  });

  test('an entry written by other code is a miss', async () => {
    expect(await stored()).toBeDefined();
    for (const name of readdirSync(boardsDir)) {
      const file = join(boardsDir, name);
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), code: 'an older build' }));
    }
    expect(await stored()).toBeUndefined();
  });

  test('a newly installed tool is a miss (runtime.tools.*.path come from discovery)', async () => {
    // The stored context would be used before the board is looked up.
    rmSync(join(cacheDir, 'contexts'), { recursive: true, force: true });
    await open();
    expect(await stored()).toBeDefined();
    mkdirSync(join(dataDir, 'packages/arduino/tools/bench-tool/1.0.0'), { recursive: true });
    expect(await stored()).toBeUndefined();
  });
});
