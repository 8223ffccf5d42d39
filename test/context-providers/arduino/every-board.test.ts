// Every board of every fixture platform must resolve and yield a context without throwing:
// real third-party files exercise OS suffixes, long {} chains and menus nobody wrote tests for.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildBoardContext } from '../../../context-providers/arduino/board-context.js';
import { discoverPlatforms, type InstalledPlatforms } from '../../../platform/arduino/platforms.js';
import { expandReferences } from '../../../platform/arduino/properties.js';
import { resolveFqbn } from '../../../platform/arduino/resolve.js';
import { resolveUploadTool } from '../../../context-providers/arduino/upload-tool.js';
import { DATA_DIR, FIXTURES, TMP, USER_HARDWARE } from './paths.js';

describe('every board of every fixture platform', () => {
  let installed: InstalledPlatforms;
  const sketchbook = join(TMP, 'every-board');

  beforeAll(async () => {
    rmSync(sketchbook, { recursive: true, force: true });
    mkdirSync(join(sketchbook, 'hardware/STMicroelectronics/stm32'), { recursive: true });
    cpSync(USER_HARDWARE, join(sketchbook, 'hardware'), { recursive: true });
    for (const file of ['boards.txt', 'platform.txt']) cpSync(join(FIXTURES, 'stm32duino', file), join(sketchbook, 'hardware/STMicroelectronics/stm32', file));
    // A tool installed the arduino-cli way gives runtime.tools.<name>.path keys.
    mkdirSync(join(sketchbook, 'data/packages/arduino/tools/avrdude/6.3.0-arduino17'), { recursive: true });
    cpSync(join(DATA_DIR, 'packages'), join(sketchbook, 'data/packages'), { recursive: true });
    installed = await discoverPlatforms({ dataDirs: [join(sketchbook, 'data')], sketchbookDirs: [sketchbook], includeDebian: false, home: TMP });
  });

  test('resolves with the default options and builds a context', () => {
    let boards = 0;
    for (const platform of installed.platforms.values()) {
      for (const board of platform.load().boards.values()) {
        const fqbn = `${platform.id}:${board.id}`;
        const resolved = resolveFqbn(fqbn, installed);
        expect(resolved.properties.get('build.fqbn')).toBe(fqbn);
        expect(resolved.properties.get('build.arch')).toBe(platform.architecture.toUpperCase());
        const context = buildBoardContext({ board: resolved, installed });
        expect(context.board.name).toBe(board.name);
        boards++;
      }
    }
    expect(boards).toBe(109);
  });

  test("stm32duino's variant header name expands to variant_<build.board>.h", () => {
    const installedPlatform = installed.platforms.get('STMicroelectronics:stm32')!;
    const board = [...installedPlatform.load().boards.values()].find((entry) => entry.menus.get('pnum')?.has('NUCLEO_F411RE'))!;
    const resolved = resolveFqbn(`STMicroelectronics:stm32:${board.id}:pnum=NUCLEO_F411RE`, installed);
    expect(resolved.expanded('build.variant_h')).toBe(`variant_${resolved.expanded('build.board')}.h`);
    expect(resolved.expanded('build.board')).toBe('NUCLEO_F411RE');
  });

  test('installed tools give runtime.tools paths that recipes expand with', () => {
    const resolved = resolveFqbn('arduino:avr:uno', installed);
    const avrdude = join(sketchbook, 'data/packages/arduino/tools/avrdude/6.3.0-arduino17');
    expect(resolved.properties.get('runtime.tools.avrdude.path')).toBe(avrdude);
    expect(resolved.properties.get('runtime.tools.avrdude-6.3.0-arduino17.path')).toBe(avrdude);
    expect(resolved.expandForTool('avrdude', '{cmd.path}')).toBe(`${avrdude}/bin/avrdude`);
  });

  test("upload.tool=arduino:avrdude takes the tool from arduino's platform and its recipe expands", () => {
    const board = resolveFqbn('my_avr_platform:avr:custom_yun', installed);
    const tool = resolveUploadTool(board, installed);
    expect(tool.toolId).toBe('avrdude');
    expect(tool.platform.id).toBe('arduino:avr');
    const extra: Record<string, string> = { 'serial.port': '/dev/ttyACM0', 'build.path': '/b', 'build.project_name': 'x.ino', 'upload.verbose': '', 'upload.verify': '' };
    const command = expandReferences(tool.properties.get('upload.pattern')!, (key) => extra[key] ?? tool.properties.get(key));
    const avrdude = join(sketchbook, 'data/packages/arduino/tools/avrdude/6.3.0-arduino17');
    expect(command).toContain(`"${avrdude}/bin/avrdude"`);
    expect(command).toContain('-patmega32u4 -cavr109 "-P/dev/ttyACM0" -b57600');
  });
});
