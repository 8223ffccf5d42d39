// `boardbridge context` runs dist/cli/context.cjs with V8's code cache (bridge/cli/code-cache.ts).
// The cache must never change what is printed, and is kept as said: one file per bundle, Node and
// architecture, private to the person, written again for a platform it does not cover yet or when
// V8 refuses it, removed when the bundle is rebuilt, and not kept at all with
// NODE_DISABLE_COMPILE_CACHE. Each case runs the bundled CLI in its own process, with a cache
// folder of its own.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../support/fixtures.js';
import { node22Binary } from '../support/agents.js';
import { repoRoot } from './run-cli.js';

const bundle = path.join(repoRoot, 'dist', 'cli', 'boardbridge.cjs');
const blink = path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', 'Blink');
const scratch = path.join(repoRoot, '.tmp', 'cli-code-cache');
mkdirSync(scratch, { recursive: true });
const work = mkdtempSync(path.join(scratch, 'run-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A context run's environment: no context kept, the code caches in `cacheDir`, the 32-bit platforms installed. */
function contextEnv(cacheDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
  return { ...inherited, BOARDBRIDGE_NO_CACHE: '1', BOARDBRIDGE_CACHE_DIR: cacheDir, ARDUINO_DIRECTORIES_DATA: fixture('arduino', 'data_dir_32bit'), ...extra };
}

/** A copy of Blink in its own folder `name`, with `yaml` as its sketch.yaml. */
function sketchWithYaml(name: string, yaml: string): string {
  const dir = path.join(work, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, `${name}.ino`), readFileSync(path.join(blink, 'Blink.ino')));
  writeFileSync(path.join(dir, 'sketch.yaml'), yaml);
  return dir;
}

function context(cli: string, cacheDir: string, fqbn: string, extra: Record<string, string> = {}): string {
  const env = contextEnv(cacheDir, extra);
  const result = spawnSync(process.execPath, [cli, 'context', '--json', '--fqbn', fqbn, blink], { encoding: 'utf8', env, cwd: repoRoot });
  expect(result.status, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

// These runs keep no context (BOARDBRIDGE_NO_CACHE): built from scratch without TurboFan (and
// Maglev where V8 has it, and WebAssembly's tier-up), under --no-opt (--no-maglev --liftoff-only --wasm-tiering-budget=…), whose cache is its own (main.ts).
const own = (name: string): boolean => /^context-no-opt(?:-no-maglev-liftoff-only-wasm-tiering-budget=\d+)?-(v[\d.]+)-(\w+)-/.exec(name)?.slice(1, 3).join() === [process.version, process.arch].join();
function caches(cacheDir: string): { bin: string[]; covers: string[] } {
  const dir = path.join(cacheDir, 'code');
  const names = existsSync(dir) ? readdirSync(dir).filter(own) : [];
  return { bin: names.filter((name) => name.endsWith('.bin')), covers: names.filter((name) => name.endsWith('.covers')) };
}

describe("the context command's code cache", () => {
  it('prints the same context with and without it, keeps it private, and writes it only when it must', () => {
    const cacheDir = mkdtempSync(path.join(work, 'cache-'));
    const uncached = context(bundle, cacheDir, 'arduino:avr:uno', { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(existsSync(path.join(cacheDir, 'code')), 'NODE_DISABLE_COMPILE_CACHE keeps none').toBe(false);

    expect(context(bundle, cacheDir, 'arduino:avr:uno')).toBe(uncached);
    const { bin, covers } = caches(cacheDir);
    expect(bin).toHaveLength(1);
    expect(covers).toEqual([bin[0].replace(/\.bin$/, '.covers')]);
    const dir = path.join(cacheDir, 'code');
    const file = path.join(dir, bin[0]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dir, covers[0]), 'utf8')).toBe('arduino:avr\n');

    // Used, not written again (the same file, the same inode).
    const written = statSync(file);
    expect(context(bundle, cacheDir, 'arduino:avr:uno')).toBe(uncached);
    expect(statSync(file).ino).toBe(written.ino);
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);

    // Another platform is written in with the first; both still print what they print uncached.
    const pico = context(bundle, mkdtempSync(path.join(work, 'cache-')), 'rp2040:rp2040:rpipico', { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(context(bundle, cacheDir, 'rp2040:rp2040:rpipico')).toBe(pico);
    expect(readFileSync(path.join(dir, covers[0]), 'utf8')).toBe('arduino:avr\nrp2040:rp2040\n');
    expect(statSync(file).ino).not.toBe(written.ino);
    expect(context(bundle, cacheDir, 'arduino:avr:uno')).toBe(uncached);
    expect(context(bundle, cacheDir, 'rp2040:rp2040:rpipico')).toBe(pico);
    expect(caches(cacheDir).bin).toEqual(bin);
  });

  it('a cache V8 refuses (garbage in its place) prints the same and is replaced by a good one', () => {
    const cacheDir = mkdtempSync(path.join(work, 'cache-'));
    const expected = context(bundle, cacheDir, 'arduino:avr:uno');
    const file = path.join(cacheDir, 'code', caches(cacheDir).bin[0]);
    const good = readFileSync(file);
    writeFileSync(file, Buffer.alloc(good.length, 0x5a));
    expect(context(bundle, cacheDir, 'arduino:avr:uno')).toBe(expected);
    const replaced = readFileSync(file);
    expect(replaced.equals(Buffer.alloc(good.length, 0x5a))).toBe(false);
    // The replacement is used: the next run leaves it as it is.
    const stats = statSync(file);
    expect(context(bundle, cacheDir, 'arduino:avr:uno')).toBe(expected);
    expect(statSync(file).ino).toBe(stats.ino);
  });

  it("names a run's kind from the board of the context it printed, also when the sketch's sketch.yaml chose it", () => {
    const cacheDir = mkdtempSync(path.join(work, 'cache-'));
    const env = contextEnv(cacheDir);
    const sketchFor = (name: string, fqbn: string): string => sketchWithYaml(name, `default_fqbn: ${fqbn}\n`);
    const run = (dir: string): string => {
      const result = spawnSync(process.execPath, [bundle, 'context', '--json', dir], { encoding: 'utf8', env, cwd: repoRoot });
      expect(result.status, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { board: { id: string } }).board.id;
    };
    const dir = path.join(cacheDir, 'code');
    expect(run(sketchFor('YamlUno', 'arduino:avr:uno'))).toBe('arduino:avr:uno');
    const { covers } = caches(cacheDir);
    expect(readFileSync(path.join(dir, covers[0]), 'utf8')).toBe('arduino:avr\n');
    // Another platform's board, chosen the same way, is another kind: the cache is written again with both.
    expect(run(sketchFor('YamlPico', 'rp2040:rp2040:rpipico'))).toBe('rp2040:rp2040:rpipico');
    expect(readFileSync(path.join(dir, covers[0]), 'utf8')).toBe('arduino:avr\nrp2040:rp2040\n');
  });

  it("runs the sketch.yaml reader's script beside it with a code cache of its own, written after the run and used by the next", () => {
    const cacheDir = mkdtempSync(path.join(work, 'cache-'));
    const sketch = sketchWithYaml('YamlOwnCache', 'default_fqbn: arduino:avr:uno\nprofiles:\n  uno:\n    fqbn: arduino:avr:uno\n');
    const run = (extra: Record<string, string> = {}): string => {
      const env = contextEnv(cacheDir, extra);
      const result = spawnSync(process.execPath, [bundle, 'context', '--json', sketch], { encoding: 'utf8', env, cwd: repoRoot });
      expect(result.status, result.stderr).toBe(0);
      return result.stdout;
    };
    const uncached = run({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect((JSON.parse(uncached) as { board: { id: string } }).board.id).toBe('arduino:avr:uno');
    expect(existsSync(path.join(cacheDir, 'code'))).toBe(false);

    expect(run()).toBe(uncached);
    const dir = path.join(cacheDir, 'code');
    const yamlCaches = (): string[] => readdirSync(dir).filter((name) => name.startsWith(`context-yaml-no-opt`) && name.includes(`-${process.version}-`));
    const [bin, covers] = [yamlCaches().filter((name) => name.endsWith('.bin')), yamlCaches().filter((name) => name.endsWith('.covers'))];
    expect(bin).toHaveLength(1);
    expect(covers).toEqual([bin[0].replace(/\.bin$/, '.covers')]);
    expect(readFileSync(path.join(dir, covers[0]), 'utf8')).toBe('arduino:avr\n');
    expect(statSync(path.join(dir, bin[0])).mode & 0o777).toBe(0o600);
    // The next run uses it as it is (V8 refusing it, or a run not covered, would write it again).
    const written = statSync(path.join(dir, bin[0]));
    expect(run()).toBe(uncached);
    expect(statSync(path.join(dir, bin[0])).ino).toBe(written.ino);
    // context.cjs keeps its own beside it.
    expect(caches(cacheDir).bin).toHaveLength(1);
  });

  it('a failed run covers no kind: the next run of its platform that succeeds writes the cache it needs', () => {
    const cacheDir = mkdtempSync(path.join(work, 'cache-'));
    const env = contextEnv(cacheDir);
    // A board the Pico's platform does not have: the run stops after reading the platform, before
    // the core's tables, checks and render that the Pico's runs compile.
    const failing = () => spawnSync(process.execPath, [bundle, 'context', '--json', '--fqbn', 'rp2040:rp2040:nosuchboard', blink], { encoding: 'utf8', env, cwd: repoRoot });
    const failed = failing();
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('unknown board "nosuchboard"');
    const dir = path.join(cacheDir, 'code');
    const { bin, covers } = caches(cacheDir);
    expect(bin).toHaveLength(1);
    expect(readFileSync(path.join(dir, covers[0]), 'utf8')).toBe('');
    const partial = statSync(path.join(dir, bin[0]));
    // Failing again leaves the partial cache as it is.
    expect(failing().status).toBe(1);
    expect(statSync(path.join(dir, bin[0])).ino).toBe(partial.ino);

    const pico = context(bundle, mkdtempSync(path.join(work, 'cache-')), 'rp2040:rp2040:rpipico', { NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(context(bundle, cacheDir, 'rp2040:rp2040:rpipico')).toBe(pico);
    expect(caches(cacheDir).bin).toEqual(bin);
    const full = statSync(path.join(dir, bin[0]));
    expect(full.ino).not.toBe(partial.ino);
    expect(full.size).toBeGreaterThan(partial.size);
    expect(readFileSync(path.join(dir, covers[0]), 'utf8')).toBe('rp2040:rp2040\n');
    expect(context(bundle, cacheDir, 'rp2040:rp2040:rpipico')).toBe(pico);
    expect(statSync(path.join(dir, bin[0])).ino).toBe(full.ino);
  });

  it("a rebuilt bundle does not meet the cache of the one before it, whose file goes", () => {
    // A copy of the bundle inside the repository, so it finds boards/data as dist/cli does.
    const copy = mkdtempSync(path.join(work, 'cli-'));
    cpSync(path.join(repoRoot, 'dist', 'cli'), copy, { recursive: true });
    const cli = path.join(copy, 'boardbridge.cjs');
    const cacheDir = mkdtempSync(path.join(work, 'cache-'));
    const expected = context(cli, cacheDir, 'arduino:avr:uno');
    const before = caches(cacheDir).bin;
    expect(before).toHaveLength(1);
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(copy, 'context.cjs'), later, later);
    expect(context(cli, cacheDir, 'arduino:avr:uno')).toBe(expected);
    const after = caches(cacheDir);
    expect(after.bin).toHaveLength(1);
    expect(after.bin[0]).not.toBe(before[0]);
    expect(after.covers).toEqual([after.bin[0].replace(/\.bin$/, '.covers')]);
  });
});

describe('the code caches of the two kinds of run', () => {
  it("a new sketch's context (none stored) and an edited sketch's (stored, out of date) each keep and reuse a cache of their own", () => {
    const cacheDir = mkdtempSync(path.join(work, 'cache-'));
    const sketch = path.join(mkdtempSync(path.join(work, 'sketch-')), 'Blink');
    cpSync(blink, sketch, { recursive: true });
    const { NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
    const env = { ...inherited, BOARDBRIDGE_NO_CACHE: undefined, BOARDBRIDGE_CACHE_DIR: cacheDir, ARDUINO_DIRECTORIES_DATA: fixture('arduino', 'data_dir_32bit') };
    const run = (): string => {
      const result = spawnSync(process.execPath, [bundle, 'context', '--json', '--fqbn', 'rp2040:rp2040:rpipico', sketch], { encoding: 'utf8', env, cwd: repoRoot });
      expect(result.status, result.stderr).toBe(0);
      return result.stdout;
    };
    const dir = path.join(cacheDir, 'code');
    const named = (kind: (name: string) => boolean) => readdirSync(dir).filter((name) => kind(name) && name.endsWith('.bin'));
    const edit = (line: number) => writeFileSync(path.join(sketch, 'Blink.ino'), `${readFileSync(path.join(sketch, 'Blink.ino'), 'utf8')}// edit ${line}\n`);
    run();
    expect(named(own)).toHaveLength(1);
    const plain = (name: string) => name.startsWith(`context-${process.version}-${process.arch}-`);
    expect(named(plain)).toEqual([]);
    edit(1);
    run();
    expect(named(plain)).toHaveLength(1);
    const written = [path.join(dir, named(own)[0]), path.join(dir, named(plain)[0])].map((file) => [file, statSync(file)] as const);
    // Another edit, and another sketch none was stored for: each run finds its cache, which stays as it is.
    edit(2);
    run();
    const other = path.join(mkdtempSync(path.join(work, 'sketch-')), 'Other');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'Other.ino'), readFileSync(path.join(sketch, 'Blink.ino'), 'utf8'));
    const result = spawnSync(process.execPath, [bundle, 'context', '--json', '--fqbn', 'rp2040:rp2040:rpipico', other], { encoding: 'utf8', env, cwd: repoRoot });
    expect(result.status, result.stderr).toBe(0);
    for (const [file, stats] of written) {
      expect(statSync(file).ino, file).toBe(stats.ino);
      expect(statSync(file).mtimeMs, file).toBe(stats.mtimeMs);
    }
    expect(named(own)).toHaveLength(1);
    expect(named(plain)).toHaveLength(1);
  });
});

describe("the code caches of two installs on one runtime", () => {
  it('each install keeps its own cache: running one never rewrites the other\'s; one unused for a month goes', () => {
    // Two copies of the bundle, as a global install and npx's copy are, inside the repository so
    // that they find boards/data as dist/cli does.
    const installs = [0, 1, 2].map(() => {
      const copy = mkdtempSync(path.join(work, 'install-'));
      cpSync(path.join(repoRoot, 'dist', 'cli'), copy, { recursive: true });
      return path.join(copy, 'boardbridge.cjs');
    });
    const cacheDir = mkdtempSync(path.join(work, 'cache-'));
    const dir = path.join(cacheDir, 'code');
    const expected = context(installs[0], cacheDir, 'arduino:avr:uno');
    const first = caches(cacheDir).bin;
    expect(first).toHaveLength(1);
    expect(context(installs[1], cacheDir, 'arduino:avr:uno')).toBe(expected);
    const both = caches(cacheDir).bin;
    expect(both).toHaveLength(2);
    const written = new Map(both.map((name) => [name, statSync(path.join(dir, name))]));
    for (const cli of [installs[0], installs[1], installs[0]]) expect(context(cli, cacheDir, 'arduino:avr:uno')).toBe(expected);
    for (const [name, stats] of written) {
      expect(statSync(path.join(dir, name)).ino, name).toBe(stats.ino);
      expect(statSync(path.join(dir, name)).mtimeMs, name).toBe(stats.mtimeMs);
    }
    // The second install's files, last written 31 days ago, go when the third writes its cache;
    // the first install's, written today, stay.
    const second = both.find((name) => name !== first[0])!;
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    for (const name of [second, second.replace(/\.bin$/, '.covers')]) utimesSync(path.join(dir, name), old, old);
    expect(context(installs[2], cacheDir, 'arduino:avr:uno')).toBe(expected);
    const after = caches(cacheDir);
    expect(after.bin).toHaveLength(2);
    expect(after.bin).toContain(first[0]);
    expect(after.bin).not.toContain(second);
    expect(after.covers.sort()).toEqual(after.bin.map((name) => name.replace(/\.bin$/, '.covers')).sort());
  });
});

/** Whether this runtime still has V8's binding with setFlagsFromString (before Node 24). */
const hasV8Binding = ((): boolean => {
  const held = process.noDeprecation;
  try {
    process.noDeprecation = true;
    return typeof (process as unknown as { binding(name: string): { setFlagsFromString?: unknown } }).binding('v8').setFlagsFromString === 'function';
  } catch {
    return false;
  } finally {
    process.noDeprecation = held;
  }
})();

describe("the context command's process", () => {
  // The built-in modules a run loaded (process.moduleLoadList), the files it required
  // ("required <file>") and the warnings it emitted ("warning <text>", as process.emitWarning is
  // called: Node prints one a tick later, which a process that ends at once never reaches),
  // written at its exit by a preload.
  const preload = path.join(work, 'module-list.cjs');
  writeFileSync(
    preload,
    [
      'const warnings = [];',
      'const emitWarning = process.emitWarning;',
      "process.emitWarning = function (warning, ...rest) { if (!process.noDeprecation) warnings.push('warning ' + String(warning?.message ?? warning)); return emitWarning.call(this, warning, ...rest); };",
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.BB_MODULE_LIST, [...process.moduleLoadList, ...Object.keys(require.cache).map((file) => 'required ' + file), ...warnings].join('\\n')));",
      '',
    ].join('\n'),
  );

  it('loads no built-in module the command does not use: node:crypto only comes with the Arduino IDE\'s facts, fs.promises and node_modules never', () => {
    const cacheDir = mkdtempSync(path.join(work, 'cache-'));
    // WithYaml has a sketch.yaml, which the yaml package reads: from inside context.cjs, not from node_modules.
    const withYaml = path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', 'WithYaml');
    // The last run is a person's who has deprecations thrown (a DeprecationWarning an error).
    const strict = '--throw-deprecation --pending-deprecation';
    for (const [fqbn, noCache, sketch, nodeOptions] of [['arduino:avr:uno', '1', blink, ''], ['rp2040:rp2040:rpipico', '1', blink, ''], ['arduino:avr:uno', '', blink, ''], ['arduino:avr:uno', '', blink, ''], ['arduino:avr:uno', '1', withYaml, ''], ['rp2040:rp2040:rpipico', '1', blink, strict]] as const) {
      const list = path.join(work, `modules-${Math.random().toString(36).slice(2)}.txt`);
      const env = { ...process.env, BOARDBRIDGE_NO_CACHE: noCache || undefined, BOARDBRIDGE_CACHE_DIR: cacheDir, ARDUINO_DIRECTORIES_DATA: fixture('arduino', 'data_dir_32bit'), BB_MODULE_LIST: list, NODE_OPTIONS: nodeOptions || undefined };
      const result = spawnSync(process.execPath, ['-r', preload, bundle, 'context', '--fqbn', fqbn, sketch], { encoding: 'utf8', env, cwd: repoRoot });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('# Arduino board:');
      const loaded = readFileSync(list, 'utf8').split('\n');
      expect(loaded).toContain('NativeModule fs');
      expect(loaded.filter((name) => /crypto/.test(name)), `${fqbn}${noCache ? ', no disk cache' : ''}`).toEqual([]);
      // The shell and the context script are CommonJS: node:fs is not imported as an ES module,
      // whose namespace reads fs.promises, which loads the file-handle streams and readline.
      expect(loaded.filter((name) => /internal\/fs\/promises|readline/.test(name)), `${fqbn}${noCache ? ', no disk cache' : ''}`).toEqual([]);
      // The script holds the packages a context needs: none is resolved, read and compiled from node_modules.
      expect(loaded.filter((name) => name.startsWith('required ') && name.includes(`${path.sep}node_modules${path.sep}`)), sketch).toEqual([]);
      // A context built in the process sets V8's flags through the binding where this runtime has
      // one: node:v8, and the streams it loads, are not loaded.
      expect(loaded.filter((name) => name.startsWith('warning ')), `${fqbn} ${nodeOptions}`).toEqual([]);
      if (noCache && hasV8Binding) expect(loaded.filter((name) => /^NativeModule (v8|stream|internal\/streams\/(readable|writable))$/.test(name)), `${fqbn} ${nodeOptions}`).toEqual([]);
    }
  });

  // V8 prints what it optimizes with --trace-opt (to stdout, before the context), and with
  // --trace-file-names the file of each function: a context built in the process is carried by the
  // interpreter and the baseline compiler, and neither TurboFan nor Maglev (which Node 24 turns on)
  // compiles a function of it (on the Pico TurboFan compiled some thirty, the preprocessor among
  // them; Maglev on Node 24 some twenty). A few of Node's own may be, before the flags are set.
  // The flags are set through V8's own binding where the runtime has one (before Node 24), which
  // loads none of node:v8's streams, and through node:v8 where it has not (Node 24): each way is run.
  // Reaching for the binding is deprecated (DEP0111): a person's --throw-deprecation and
  // --pending-deprecation must neither end the command nor print a warning.
  const node24 = path.join(repoRoot, 'test/setup/node24/node_modules/node/bin/node');
  it(`builds a context without the optimizing compilers on ${process.version}, and prints the same context`, () => {
    withoutOptimizingTiers(process.execPath, /TURBOFAN/);
  });
  it.skipIf(!node22Binary())('builds a context without the optimizing compilers on Node 22, and prints the same context', () => {
    withoutOptimizingTiers(node22Binary()!, /TURBOFAN/);
  });
  it.skipIf(!existsSync(node24) && !process.env.CI)('builds a context without the optimizing compilers on Node 24 (Maglev is on there), and prints the same context', () => {
    withoutOptimizingTiers(node24, /MAGLEV/);
  });
  function withoutOptimizingTiers(node: string, shown: RegExp): void {
    // The trace shows the tier's work where it runs, with the function's file: a hot loop of this runtime's own ([eval]) has some.
    const control = spawnSync(node, ['--trace-opt', '--trace-file-names', '-e', 'let s = 0; for (let i = 0; i < 3e7; i++) s += i % 7; console.log(s > 0)'], { encoding: 'utf8' });
    expect(control.stdout.split('\n').some((line) => line.startsWith('[completed') && line.includes('<[eval]>') && shown.test(line))).toBe(true);
    // The WebAssembly scanners (boards.txt's, the C lexer's) stay in Liftoff too: with
    // --trace-wasm-compilation-times V8 prints each function it compiles and with which compiler. A
    // lexer kept busy in a plain process has its scanner compiled again by TurboFan (Node 24 did
    // that in a first context too, its --liftoff-only read only as V8 starts: main.ts).
    const lexer = path.join(repoRoot, 'dist', 'context-providers', 'arduino', 'c-tokens.js');
    const busy = spawnSync(node, ['--trace-wasm-compilation-times', '--input-type=module', '-e', `import { tokenize } from ${JSON.stringify(pathToFileURL(lexer).href)}; const text = 'int a = 1; // x\\n'.repeat(3000); let n = 0; for (let k = 0; k < 100; k++) n += tokenize(text).length; console.log(n);`], { encoding: 'utf8' });
    expect(busy.status, busy.stderr).toBe(0);
    expect(busy.stdout).toMatch(/using TurboFan/);
    const env = { ...process.env, BOARDBRIDGE_NO_CACHE: '1', BOARDBRIDGE_CACHE_DIR: mkdtempSync(path.join(work, 'cache-')), ARDUINO_DIRECTORIES_DATA: fixture('arduino', 'data_dir_32bit') };
    for (const fqbn of ['rp2040:rp2040:rpipico', 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE']) {
      const plain = spawnSync(node, [bundle, 'context', '--fqbn', fqbn, blink], { encoding: 'utf8', env, cwd: repoRoot });
      expect(plain.status, plain.stderr).toBe(0);
      const traced = spawnSync(node, ['--trace-opt', '--trace-file-names', bundle, 'context', '--fqbn', fqbn, blink], { encoding: 'utf8', env, cwd: repoRoot });
      expect(traced.status, traced.stderr).toBe(0);
      const lines = traced.stdout.split('\n');
      expect(lines.filter((line) => /^\[completed (optimizing|compiling)/.test(line) && line.includes(`${path.sep}cli${path.sep}`)), fqbn).toEqual([]);
      expect(lines.filter((line) => !line.startsWith('[')).join('\n')).toBe(plain.stdout);
      const wasm = spawnSync(node, ['--trace-wasm-compilation-times', bundle, 'context', '--fqbn', fqbn, blink], { encoding: 'utf8', env, cwd: repoRoot });
      expect(wasm.status, wasm.stderr).toBe(0);
      const compiled = wasm.stdout.split('\n').filter((line) => line.startsWith('Compiled function'));
      expect(compiled.filter((line) => / using Liftoff/.test(line)).length, fqbn).toBeGreaterThan(0);
      expect(compiled.filter((line) => !/ using Liftoff/.test(line)), fqbn).toEqual([]);
      const strict = spawnSync(node, [bundle, 'context', '--fqbn', fqbn, blink], { encoding: 'utf8', env: { ...env, NODE_OPTIONS: '--throw-deprecation --pending-deprecation' }, cwd: repoRoot });
      expect(strict.status, strict.stderr).toBe(0);
      expect(strict.stderr, fqbn).toBe('');
      expect(strict.stdout).toBe(plain.stdout);
    }
  }

  it('ends only once a reader that is slow to start has all of its output, on a pipe left non-blocking too; stops quietly when the reader goes', () => {
    // Over 64 kB of JSON: more than a pipe holds, so the end of it waits in the process when it exits.
    const fqbn = 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE';
    const sketch = path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', 'Libraries');
    const env = { ...process.env, BOARDBRIDGE_NO_CACHE: '1', BOARDBRIDGE_CACHE_DIR: mkdtempSync(path.join(work, 'cache-')), ARDUINO_DIRECTORIES_DATA: fixture('arduino', 'data_dir_32bit') };
    const direct = spawnSync(process.execPath, [bundle, 'context', '--json', '--fqbn', fqbn, sketch], { encoding: 'utf8', env, cwd: repoRoot, maxBuffer: 1 << 24 });
    expect(direct.status, direct.stderr).toBe(0);
    expect(direct.stdout.length).toBeGreaterThan(65_536);
    const quote = (word: string): string => `'${word.replace(/'/g, "'\\''")}'`;
    const command = [process.execPath, bundle, 'context', '--json', '--fqbn', fqbn, sketch].map(quote).join(' ');
    // perl sets O_NONBLOCK on the pipe it was given as stdout and runs the command on it: a write
    // to the full pipe then fails with EAGAIN instead of waiting for the reader.
    const nonBlocking = `perl -MFcntl -e 'fcntl(STDOUT, F_SETFL, fcntl(STDOUT, F_GETFL, 0) | O_NONBLOCK) or die; exec @ARGV or die' -- `;
    for (const [index, prefix] of ['', nonBlocking].entries()) {
      for (const stored of [false, true]) {
        const out = path.join(work, `slow-reader-${index}-${stored}.json`);
        const piped = spawnSync('sh', ['-c', `${prefix}${command} | (sleep 1; cat > ${quote(out)})`], { encoding: 'utf8', env: { ...env, BOARDBRIDGE_NO_CACHE: stored ? undefined : '1' }, cwd: repoRoot });
        expect(piped.status, piped.stderr).toBe(0);
        expect(piped.stderr).toBe('');
        expect(readFileSync(out, 'utf8'), `${prefix ? 'non-blocking' : 'blocking'} pipe, ${stored ? 'stored' : 'built'}`).toBe(direct.stdout);
      }
      // The reader takes 10 bytes and goes: the rest is not written, and that is no failure.
      const head = spawnSync('bash', ['-c', `${prefix}${command} | head -c 10 > /dev/null; echo "status \${PIPESTATUS[0]}"`], { encoding: 'utf8', env, cwd: repoRoot });
      expect(head.stdout).toBe('status 0\n');
      expect(head.stderr).toBe('');
    }
  });
});
