// Ground truth for property resolution: arduino-builder (the engine of Arduino IDE 1.8, Debian
// package arduino-builder) prints the build properties it resolved with -dump-prefs.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { discoverPlatforms, type InstalledPlatforms } from '../../../platform/arduino/platforms.js';
import { CLI_IDE_VERSION, resolveFqbn } from '../../../platform/arduino/resolve.js';
import { TMP } from '../../context-providers/arduino/paths.js';

const run = promisify(execFile);

// Keys arduino-builder sets from its own command line or the clock, not from the platform:
// the build folder and sketch name we passed, and the time of the run.
const BUILDER_ONLY = new Set(['build.path', 'build.project_name', 'build.source.path', 'extra.time.utc', 'extra.time.local', 'extra.time.zone', 'extra.time.dst']);

async function dumpPrefs(fqbn: string, sketch: string, buildDir: string): Promise<Map<string, string>> {
  const { stdout } = await run('arduino-builder', [
    '-dump-prefs',
    '-hardware', '/usr/share/arduino/hardware',
    '-hardware', '/usr/share/arduino-builder',
    '-tools', '/usr/share/arduino-builder',
    '-ide-version', CLI_IDE_VERSION,
    '-fqbn', fqbn,
    '-build-path', buildDir,
    sketch,
  ]);
  const result = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const equals = line.indexOf('=');
    if (equals > 0) result.set(line.slice(0, equals), line.slice(equals + 1));
  }
  return result;
}

/**
 * Every board, and each menu option of each board, with every menu spelled out: arduino-builder
 * applies no menu defaults itself (Arduino IDE 1.8 always passed the full FQBN), arduino-cli does.
 */
function everyConfiguration(installed: InstalledPlatforms): string[] {
  const data = installed.platforms.get('arduino:avr')!.load();
  const fqbns: string[] = [];
  for (const board of data.boards.values()) {
    const spelled = (menu?: string, value?: string): string => {
      const options = [...board.menus.keys()].map((id) => `${id}=${id === menu ? value : board.defaults.get(id)}`);
      return `arduino:avr:${board.id}${options.length > 0 ? `:${options.join(',')}` : ''}`;
    };
    fqbns.push(spelled());
    for (const [menu, values] of board.menus) {
      for (const value of values.keys()) if (value !== board.defaults.get(menu)) fqbns.push(spelled(menu, value));
    }
  }
  return fqbns;
}

describe("resolution agrees with arduino-builder -dump-prefs on Debian's AVR platform", () => {
  let installed: InstalledPlatforms;
  const sketch = join(TMP, 'dump', 'dump.ino');
  const buildDir = join(TMP, 'dump-build');

  beforeAll(async () => {
    mkdirSync(join(TMP, 'dump'), { recursive: true });
    mkdirSync(buildDir, { recursive: true });
    writeFileSync(sketch, 'void setup() {}\nvoid loop() {}\n');
    installed = await discoverPlatforms({ dataDirs: [], sketchbookDirs: [], home: TMP });
  });

  test('the platform has its 27 boards and the menus are enumerated', () => {
    const data = installed.platforms.get('arduino:avr')!.load();
    expect(data.boards.size).toBe(27);
    expect(everyConfiguration(installed).length).toBe(38);
  });

  test('every key both produce has the same value, for every board and every menu option', async () => {
    const mismatches: string[] = [];
    let compared = 0;
    for (const fqbn of everyConfiguration(installed)) {
      const theirs = await dumpPrefs(fqbn, sketch, buildDir);
      const ours = resolveFqbn(fqbn, installed).properties;
      expect(theirs.size, `arduino-builder printed nothing for ${fqbn}`).toBeGreaterThan(50);
      for (const [key, value] of theirs) {
        if (BUILDER_ONLY.has(key)) continue;
        if (!ours.has(key)) mismatches.push(`${fqbn}: ${key} missing (arduino-builder: ${value})`);
        else if (ours.get(key) !== value) mismatches.push(`${fqbn}: ${key} = ${ours.get(key)} (arduino-builder: ${value})`);
        compared++;
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(5000);
  }, 300_000);

  test('a board without options resolves like its FQBN with every default option spelled out', () => {
    const short = resolveFqbn('arduino:avr:atmegang', installed);
    const full = resolveFqbn('arduino:avr:atmegang:cpu=atmega168', installed);
    expect(short.properties.get('build.mcu')).toBe('atmega168');
    expect(short.fqbn).toBe('arduino:avr:atmegang');
    expect(full.fqbn).toBe('arduino:avr:atmegang');
    const withoutFqbn = (map: Map<string, string>) => [...map].filter(([key]) => key !== 'build.fqbn').sort();
    expect(withoutFqbn(short.properties)).toEqual(withoutFqbn(full.properties));
  });
});
