// `boardbridge context` on a sketch whose context is stored: the shell (dist/cli/shell.cjs,
// which holds bridge/cli/stored-context.ts) prints it without loading commander, a command's
// chunk or the context command's script, prints exactly what building it prints, and builds again when any input changed: the
// sketch, a file added to its folder, the platform (a boards.local.txt appearing), the
// environment that says where platforms are.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../support/fixtures.js';
import { cliMain, repoRoot } from './run-cli.js';

const bundle = path.join(repoRoot, 'dist', 'cli', 'boardbridge.cjs');
const root = path.join(repoRoot, '.tmp', 'cli-stored-context');
// The platforms read: the shared fixture's (the Uno from the system's arduino:avr), or a copy whose platform is edited.
const platforms = fixture('arduino', 'data_dir_32bit');
const dataDir = path.join(root, 'data');
const sketch = path.join(root, 'Blink');
const cacheDir = path.join(root, 'cache');
const loadedList = path.join(root, 'loaded.txt');
// A module-resolution hook that writes down every ES module the process loads, and a preload that
// writes down at its exit the CommonJS modules it required and the scripts it compiled (the
// context command's context.cjs runs as a vm.Script), to see which ones a hit needs.
const hooks = path.join(root, 'hooks.mjs');
const register = path.join(root, 'register.mjs');
const preload = path.join(root, 'preload.cjs');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  loaded: string[];
}

function run(cli: string, args: string[], env: Record<string, string | undefined> = {}): Run {
  rmSync(loadedList, { force: true });
  const r = spawnSync(process.execPath, ['--import', register, '--require', preload, cli, 'context', ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, ARDUINO_DIRECTORIES_DATA: platforms, BOARDBRIDGE_CACHE_DIR: cacheDir, BOARDBRIDGE_NO_CACHE: undefined, BB_LOADED_LIST: loadedList, ...env },
  });
  let loaded: string[] = [];
  try {
    loaded = readFileSync(loadedList, 'utf8').split('\n').filter(Boolean);
  } catch {
    // nothing was loaded through the hook
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, loaded };
}

/** The same command without the disk cache: the context as it is built now. */
const built = (cli: string, args: string[], env: Record<string, string | undefined> = {}): Run => run(cli, args, { BOARDBRIDGE_NO_CACHE: '1', ...env });

/** The bundle's own modules a run loaded, by file name beside the bundle. */
const ownModules = (result: Run): string[] => [
  ...new Set(result.loaded.filter((url) => url.startsWith('file:') && url.includes('/dist/cli/')).map((url) => url.slice(url.indexOf('/dist/cli/') + '/dist/cli/'.length))),
];

const later = (file: string, seconds: number): void => utimesSync(file, new Date(), new Date(Date.now() + seconds * 1000));

beforeAll(() => {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  cpSync(fixture('arduino', 'data_dir'), dataDir, { recursive: true });
  cpSync(path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', 'Blink'), sketch, { recursive: true });
  writeFileSync(
    hooks,
    "import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  appendFileSync(process.env.BB_LOADED_LIST, result.url + '\\n');\n  return result;\n}\n",
  );
  writeFileSync(register, "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
  writeFileSync(
    preload,
    [
      "const { appendFileSync } = require('node:fs');",
      "const { pathToFileURL } = require('node:url');",
      "const vm = require('node:vm');",
      'const scripts = [];',
      'vm.Script = class extends vm.Script { constructor(source, options) { super(source, options); if (options && options.filename) scripts.push(options.filename); } };',
      "process.on('exit', () => { for (const file of [...Object.keys(require.cache), ...scripts]) if (file !== __filename) appendFileSync(process.env.BB_LOADED_LIST, pathToFileURL(file).href + '\\n'); });",
    ].join('\n') + '\n',
  );
});

describe('a stored context from the command line', () => {
  it('is printed by the shell alone, the same as building it, markdown and --json', () => {
    // The second command line names the same sketch and board: the context the first stored.
    for (const [index, args] of [[sketch, '--fqbn', 'arduino:avr:uno'], ['--json', '--board', 'arduino:avr:uno', path.join(sketch, 'Blink.ino')]].entries()) {
      const expected = built(bundle, args);
      expect(expected.status, expected.stderr).toBe(0);
      if (index === 0) {
        const storing = run(bundle, args);
        expect(storing.stdout).toBe(expected.stdout);
        // Built: by the context command's script, still without an ES module of the bundle's.
        expect(ownModules(storing)).toEqual(['boardbridge.cjs', 'shell.cjs', 'context.cjs']);
      }
      const hit = run(bundle, args);
      expect(hit.status, hit.stderr).toBe(0);
      expect(hit.stdout).toBe(expected.stdout);
      expect(hit.stderr).toBe('');
      expect(ownModules(hit)).toEqual(['boardbridge.cjs', 'shell.cjs']);
    }
  }, 120_000);

  it('is printed by the unbundled build too, the same as building it', () => {
    const args = [sketch, '--fqbn', 'arduino:avr:uno'];
    const expected = built(cliMain, args);
    run(cliMain, args);
    const hit = run(cliMain, args);
    expect(hit.stdout).toBe(expected.stdout);
    expect(hit.loaded.some((url) => url.endsWith('/dist/bridge/cli/context.js'))).toBe(false);
  });

  it('is built again when the sketch, its folder, the platform or the platforms’ folder changed', () => {
    const args = [sketch, '--fqbn', 'arduino:avr:uno', '--json'];
    const stored = () => {
      run(bundle, args);
      const hit = run(bundle, args);
      expect(ownModules(hit)).toEqual(['boardbridge.cjs', 'shell.cjs']);
      return hit.stdout;
    };
    const before = stored();

    // The sketch is edited: a PWM write on a pin without PWM is a finding the stored context lacks.
    const main = path.join(sketch, 'Blink.ino');
    writeFileSync(main, 'void setup() { pinMode(7, OUTPUT); analogWrite(7, 10); }\nvoid loop() {}\n');
    later(main, 5);
    const edited = run(bundle, args);
    expect(edited.stdout).toBe(built(bundle, args).stdout);
    expect(edited.stdout).not.toBe(before);
    expect(JSON.parse(edited.stdout).findings.map((finding: { code: string }) => finding.code)).toContain('pwm-pin');

    // A tab is added to the folder.
    const afterEdit = stored();
    writeFileSync(path.join(sketch, 'more.h'), '#define LED 9\n');
    later(sketch, 10);
    const added = run(bundle, args);
    expect(ownModules(added)).toContain('context.cjs');
    expect(added.stdout).toBe(built(bundle, args).stdout);

    // Another data folder: the same sketch under another environment is another context.
    const copy = { ARDUINO_DIRECTORIES_DATA: dataDir };
    const other = run(bundle, args, copy);
    expect(other.status, other.stderr).toBe(0);
    expect(other.stdout).toBe(built(bundle, args, copy).stdout);
    expect(other.stdout).not.toBe(afterEdit);
    expect(ownModules(run(bundle, args, copy))).toEqual(['boardbridge.cjs', 'shell.cjs']);

    // That folder's platform gets a boards.local.txt that changes the Uno's flash.
    const platform = path.join(dataDir, 'packages', 'arduino', 'hardware', 'avr', '1.8.3');
    writeFileSync(path.join(platform, 'boards.local.txt'), 'uno.upload.maximum_size=30000\n');
    const local = run(bundle, args, copy);
    expect(local.stdout).toBe(built(bundle, args, copy).stdout);
    expect(JSON.parse(local.stdout).limits).not.toEqual(JSON.parse(other.stdout).limits);
    // Some twenty processes, one after another.
  }, 300_000);

  it('is left to the command for any other command line: help, another option, a second path', () => {
    run(bundle, [sketch, '--fqbn', 'arduino:avr:uno']);
    const help = run(bundle, [sketch, '--fqbn', 'arduino:avr:uno', '--help']);
    expect(help.stdout).toMatch(/^Usage: boardbridge context /);
    const equals = run(bundle, [sketch, '--fqbn=arduino:avr:uno']);
    expect(equals.stdout).toBe(built(bundle, [sketch, '--fqbn', 'arduino:avr:uno']).stdout);
    expect(ownModules(equals).some((name) => name.startsWith('chunks/'))).toBe(true);
    const two = run(bundle, [sketch, sketch, '--fqbn', 'arduino:avr:uno']);
    expect(two.status).not.toBe(0);
    expect(two.stderr).toMatch(/too many arguments/);
  });
});

// The pin map of a board seen before (pin-map-store.ts): a new sketch on it reads the stored map,
// not the variant header and core tables; an edited variant header or boards.txt reads them again.
describe('a stored pin map', () => {
  const data32 = path.join(root, 'data32');
  const pico = path.join(data32, 'packages', 'rp2040', 'hardware', 'rp2040', '6.0.0');
  const header = path.join(pico, 'variants', 'rpipico', 'pins_arduino.h');
  const readList = path.join(root, 'read.txt');
  // A preload that writes down every file the process opens through node:fs.
  const opens = path.join(root, 'opens.mjs');
  const env = { ARDUINO_DIRECTORIES_DATA: data32, BOARDBRIDGE_CACHE_DIR: path.join(root, 'pin-map-cache') };
  const args = (folder: string, fqbn = 'rp2040:rp2040:rpipico') => ['--json', '--fqbn', fqbn, folder];

  beforeAll(() => {
    cpSync(path.join(platforms, 'packages', 'rp2040'), path.join(data32, 'packages', 'rp2040'), { recursive: true });
    for (const name of ['Blink', 'PinChecks', 'BusConflict']) cpSync(path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', name), path.join(root, 'pico', name), { recursive: true });
    writeFileSync(
      opens,
      "import fs from 'node:fs';\nimport { syncBuiltinESMExports } from 'node:module';\nconst open = fs.openSync, read = fs.readFileSync;\nconst note = (file) => { if (typeof file === 'string') fs.appendFileSync(process.env.BB_READ_LIST, file + '\\n'); };\nfs.openSync = (file, ...rest) => (note(file), open(file, ...rest));\nfs.readFileSync = (file, ...rest) => (note(file), read(file, ...rest));\nsyncBuiltinESMExports();\n",
    );
  });

  const context = (folder: string, extra: Record<string, string | undefined> = {}, fqbn?: string): { json: string; read: string[] } => {
    rmSync(readList, { force: true });
    const r = spawnSync(process.execPath, ['--import', opens, bundle, 'context', ...args(folder, fqbn)], { encoding: 'utf8', env: { ...process.env, BOARDBRIDGE_NO_CACHE: undefined, BB_READ_LIST: readList, ...env, ...extra } });
    expect(r.status, r.stderr).toBe(0);
    let read: string[] = [];
    try {
      read = readFileSync(readList, 'utf8').split('\n').filter(Boolean);
    } catch {
      // nothing read through node:fs
    }
    return { json: r.stdout, read };
  };
  const fresh = (folder: string, extra: Record<string, string | undefined> = {}, fqbn?: string): string => context(folder, { ...extra, BOARDBRIDGE_NO_CACHE: '1' }, fqbn).json;
  const pinsOf = (json: string): Array<{ number: number; names: string[] }> => JSON.parse(json).pins;

  it('gives a new sketch on a board seen before the same context without reading the variant again', () => {
    const first = context(path.join(root, 'pico', 'Blink'));
    expect(first.read).toContain(header);
    expect(first.json).toBe(fresh(path.join(root, 'pico', 'Blink')));
    expect(readdirSync(path.join(env.BOARDBRIDGE_CACHE_DIR, 'pin-maps'))).toHaveLength(1);
    for (const name of ['PinChecks', 'BusConflict']) {
      const next = context(path.join(root, 'pico', name));
      expect(next.read).not.toContain(header);
      expect(next.json).toBe(fresh(path.join(root, 'pico', name)));
    }
  }, 120_000);

  it("keeps the STM32 core's tables and check too: a new sketch on the Nucleo reads no PeripheralPins.c and gets the same findings", () => {
    // The shared fixture's platforms, read only; a cache of its own.
    const nucleo = 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE';
    const stm32 = { ARDUINO_DIRECTORIES_DATA: platforms, BOARDBRIDGE_CACHE_DIR: path.join(root, 'stm32-pin-map-cache') };
    const sketches = {
      // One timer asked for two frequencies; two pins on one EXTI line with tone() on a PWM pin's timer.
      Frequencies: 'void setup() {\n  analogWriteFrequency(1000);\n  analogWrite(3, 1);\n  analogWriteFrequency(5000);\n  analogWrite(13, 1);\n}\nvoid loop() {}\n',
      Interrupts: 'void a() {}\nvoid b() {}\nvoid setup() {\n  attachInterrupt(digitalPinToInterrupt(46), a, RISING);\n  attachInterrupt(digitalPinToInterrupt(49), b, RISING);\n  attachInterrupt(A1, b, RISING);\n  analogWrite(A0, 1);\n}\nvoid loop() {}\n',
    };
    const folders = Object.entries(sketches).map(([name, text]) => {
      const folder = path.join(root, 'nucleo', name);
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, `${name}.ino`), text);
      return folder;
    });
    const first = context(path.join(root, 'pico', 'Blink'), stm32, nucleo);
    expect(first.read.some((file) => /PeripheralPins[^/]*\.c$/.test(file))).toBe(true);
    expect(readdirSync(path.join(stm32.BOARDBRIDGE_CACHE_DIR, 'pin-maps'))).toHaveLength(1);
    const codes = folders.map((folder) => {
      const next = context(folder, stm32, nucleo);
      expect(next.read.filter((file) => /PeripheralPins[^/]*\.c$|variant_[^/]*\.cpp$/.test(file))).toEqual([]);
      expect(next.json).toBe(fresh(folder, stm32, nucleo));
      return (JSON.parse(next.json) as { findings: Array<{ code: string }> }).findings.map((finding) => finding.code);
    });
    expect(codes[0]).toContain('stm32-timer-frequency');
    expect(codes[1]).toContain('stm32-exti-shared');
  }, 120_000);

  // The code's fingerprint (disk-cache.ts) is every file name of the bundle's folder and its
  // chunks: the shell takes it to look for the stored context, and context.cjs, which builds on a
  // miss, takes the same one from the process instead of listing the folders again.
  it('lists the bundle and its chunks once when an edited sketch misses its stored context', () => {
    const listed = path.join(root, 'listed.txt');
    const lists = path.join(root, 'lists.mjs');
    writeFileSync(
      lists,
      "import fs from 'node:fs';\nimport { syncBuiltinESMExports } from 'node:module';\nconst list = fs.readdirSync;\nfs.readdirSync = (dir, ...rest) => { if (typeof dir === 'string') fs.appendFileSync(process.env.BB_LISTED, dir + '\\n'); return list(dir, ...rest); };\nsyncBuiltinESMExports();\n",
    );
    const folder = path.join(root, 'pico', 'Listed');
    const main = path.join(folder, 'Listed.ino');
    cpSync(path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', 'Blink', 'Blink.ino'), main);
    const listedBy = (sketchFolder: string): { json: string; dirs: string[] } => {
      rmSync(listed, { force: true });
      const r = spawnSync(process.execPath, ['--import', lists, bundle, 'context', ...args(sketchFolder)], { encoding: 'utf8', env: { ...process.env, BOARDBRIDGE_NO_CACHE: undefined, BB_LISTED: listed, ...env } });
      expect(r.status, r.stderr).toBe(0);
      return { json: r.stdout, dirs: readFileSync(listed, 'utf8').split('\n').filter(Boolean) };
    };
    const chunks = path.join(repoRoot, 'dist', 'cli', 'chunks');
    const cli = path.join(repoRoot, 'dist', 'cli');
    const once = (dirs: string[]): void => {
      expect(dirs.filter((dir) => dir === chunks)).toEqual([chunks]);
      expect(dirs.filter((dir) => dir === cli)).toEqual([cli]);
    };
    // Stored: the shell alone lists them, once.
    const built = listedBy(folder);
    const hit = listedBy(folder);
    expect(hit.json).toBe(built.json);
    once(hit.dirs);
    // Edited: the shell finds the stored context out of date, and context.cjs builds it again.
    appendFileSync(main, '\nvoid unused() { pinMode(99, OUTPUT); }\n');
    later(main, 5);
    const miss = listedBy(folder);
    once(miss.dirs);
    expect(miss.json).not.toBe(built.json);
    expect(miss.json).toBe(fresh(folder));
  }, 120_000);

  it('reads the variant again after its header or boards.txt changed', () => {
    const sketchDir = path.join(root, 'pico', 'PinChecks');
    const before = context(sketchDir).json;
    appendFileSync(header, '\n#define PIN_ADDED_BY_TEST (7u)\n');
    later(header, 5);
    const edited = context(sketchDir);
    expect(edited.read).toContain(header);
    expect(edited.json).toBe(fresh(sketchDir));
    expect(pinsOf(edited.json)[7].names).toContain('PIN_ADDED_BY_TEST');
    expect(pinsOf(before)[7].names).not.toContain('PIN_ADDED_BY_TEST');

    appendFileSync(path.join(pico, 'boards.txt'), '\nrpipico.build.extra_flags=-DPIN_FROM_BOARDS_TXT=6\n');
    later(path.join(pico, 'boards.txt'), 10);
    const boards = context(sketchDir);
    expect(boards.read).toContain(header);
    expect(boards.json).toBe(fresh(sketchDir));
    expect(pinsOf(boards.json)[6].names).toContain('PIN_FROM_BOARDS_TXT');
  }, 120_000);
});

// The libraries of each folder (libraries.ts, the cache folder's `libraries/`): a library added,
// a library.properties edited or a header added to a library is seen by the next new sketch.
describe('a stored library scan', () => {
  const sketchbook = path.join(root, 'scan-sketchbook');
  const libraries = path.join(sketchbook, 'libraries');
  const env = { ARDUINO_DIRECTORIES_USER: sketchbook, BOARDBRIDGE_CACHE_DIR: path.join(root, 'scan-cache') };
  const library = (name: string, version: string): void => {
    mkdirSync(path.join(libraries, name, 'src'), { recursive: true });
    writeFileSync(path.join(libraries, name, 'library.properties'), `name=${name}\nversion=${version}\narchitectures=*\n`);
    writeFileSync(path.join(libraries, name, 'src', `${name}.h`), '#pragma once\n');
  };
  const sketchOf = (name: string, includes: string[]): string => {
    const dir = path.join(root, 'scan-sketches', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${name}.ino`), `${includes.map((header) => `#include <${header}>`).join('\n')}\nvoid setup() {}\nvoid loop() {}\n`);
    return dir;
  };
  const args = (dir: string) => [dir, '--fqbn', 'arduino:avr:uno', '--json'];
  const librariesOf = (result: Run) => JSON.parse(result.stdout).libraries as Array<{ include: string; name?: string; version?: string; location?: string }>;

  it('sees a library added, an edited library.properties and a header added', () => {
    library('OneLib', '1.0.0');
    const first = run(bundle, args(sketchOf('First', ['OneLib.h'])), env);
    expect(first.status, first.stderr).toBe(0);
    expect(readdirSync(path.join(env.BOARDBRIDGE_CACHE_DIR, 'libraries')).length).toBeGreaterThan(0);

    library('TwoLib', '2.0.0');
    const added = sketchOf('Added', ['OneLib.h', 'TwoLib.h']);
    const withTwo = run(bundle, args(added), env);
    expect(withTwo.stdout).toBe(built(bundle, args(added), env).stdout);
    expect(librariesOf(withTwo).find((ref) => ref.include === 'TwoLib.h')).toMatchObject({ name: 'TwoLib', version: '2.0.0', location: 'user' });

    writeFileSync(path.join(libraries, 'TwoLib', 'library.properties'), 'name=TwoLib\nversion=2.1.0\narchitectures=*\n');
    later(path.join(libraries, 'TwoLib', 'library.properties'), 5);
    const edited = sketchOf('Edited', ['TwoLib.h']);
    const newer = run(bundle, args(edited), env);
    expect(newer.stdout).toBe(built(bundle, args(edited), env).stdout);
    expect(librariesOf(newer).find((ref) => ref.include === 'TwoLib.h')?.version).toBe('2.1.0');

    writeFileSync(path.join(libraries, 'TwoLib', 'src', 'TwoExtra.h'), '#pragma once\n');
    later(path.join(libraries, 'TwoLib', 'src'), 10);
    const extra = sketchOf('Extra', ['TwoExtra.h']);
    const header = run(bundle, args(extra), env);
    expect(header.stdout).toBe(built(bundle, args(extra), env).stdout);
    expect(librariesOf(header).find((ref) => ref.include === 'TwoExtra.h')).toMatchObject({ name: 'TwoLib', location: 'user' });
  }, 120_000);
});
