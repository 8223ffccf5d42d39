// The npm package's `boardbridge` is the esbuild bundle (dist/cli/boardbridge.cjs and its chunks);
// the tests mostly run tsc's build (dist/bridge/cli/main.js). The two must say the same thing:
// the whole context JSON on five boards and three sketches, a sketch.yaml's, an MPLAB X project's and
// an OpenMV script's, and every command's help.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../support/fixtures.js';
import { cliMain, repoRoot } from './run-cli.js';

const bundle = path.join(repoRoot, 'dist', 'cli', 'boardbridge.cjs');
const sketches = ['Blink', 'PinChecks', 'Libraries'].map((name) => path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', name));
const boards = ['arduino:avr:uno', 'arduino:avr:mega', 'arduino:renesas_uno:minima', 'rp2040:rp2040:rpipico', 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE'];
const env = { ...process.env, BOARDBRIDGE_NO_CACHE: '1', ARDUINO_DIRECTORIES_DATA: fixture('arduino', 'data_dir_32bit') };

function run(cli: string, args: string[], nodeArgs: string[] = []): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...nodeArgs, cli, ...args], { encoding: 'utf8', env, cwd: repoRoot });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface BundleScript {
  bundleCli(outdir: string, options?: { splits?: Record<string, string> }): Promise<void>;
  CONTEXT_SPLITS: Record<string, string>;
  SHARED_WITH_SPLITS: string[];
}

describe('the bundled command line', () => {
  it('fails to build when context.cjs and a script split from it would each hold a copy of a module with state', async () => {
    const script = (await import(path.join(repoRoot, 'scripts', 'bundle-cli.mjs'))) as BundleScript;
    const outdir = mkdtempSync(path.join(tmpdir(), 'bb-splits-'));
    try {
      // cache.ts keeps the in-process caches (StampedCache): a split that imported it would have its own.
      await expect(script.bundleCli(outdir, { splits: { ...script.CONTEXT_SPLITS, 'context-cache': 'context-providers/arduino/cache.ts' } })).rejects.toThrow(/each hold a copy of context-providers\/arduino\/cache\.ts/);
      expect(script.SHARED_WITH_SPLITS).not.toContain('context-providers/arduino/cache.ts');
      // The splits as they are build.
      await script.bundleCli(outdir);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  it.each(boards)('prints the same context --json as the unbundled build on %s for three sketches', (fqbn) => {
    for (const sketch of sketches) {
      const unbundled = run(cliMain, ['context', sketch, '--fqbn', fqbn, '--json']);
      const bundled = run(bundle, ['context', sketch, '--fqbn', fqbn, '--json']);
      expect(unbundled.status, unbundled.stderr).toBe(0);
      expect(bundled.status, bundled.stderr).toBe(0);
      expect(JSON.parse(bundled.stdout)).toEqual(JSON.parse(unbundled.stdout));
      expect(bundled.stderr).toBe(unbundled.stderr);
    }
  });

  // A runtime without WebAssembly (node --jitless) reads a large boards.txt with the text reader instead of
  // the byte scanner (properties-scan.wat): pico's (3 MB) and stm32duino's (960 KB) give the same context.
  it.each(['rp2040:rp2040:rpipico', 'STMicroelectronics:stm32:Nucleo_64:pnum=NUCLEO_F401RE'])('prints the same context --json without WebAssembly (node --jitless) on %s', (fqbn) => {
    const args = ['context', sketches[1], '--fqbn', fqbn, '--json'];
    const scanned = run(bundle, args);
    const jitless = run(bundle, args, ['--jitless']);
    expect(scanned.status, scanned.stderr).toBe(0);
    expect(jitless.status, jitless.stderr).toBe(0);
    expect(JSON.parse(jitless.stdout)).toEqual(JSON.parse(scanned.stdout));
    // Node says that --jitless leaves WebAssembly out; nothing else is said.
    expect(jitless.stderr.replace(/^Warning: disabling flag --expose_wasm due to conflicting flags\n/, '')).toBe(scanned.stderr);
  });

  // Each reads code context.cjs leaves to a script of its own (context-yaml.cjs, context-mplabx.cjs, context-openmv.cjs).
  it.each([
    ['a sketch.yaml', [path.join(repoRoot, 'test', 'fixtures', 'arduino', 'sketches', 'WithYaml')]],
    ['an MPLAB X project', [fixture('mplabx', 'pic18f47q10-curiosity-hpc-demo-code.X')]],
    ['an OpenMV script', [path.join(repoRoot, 'test', 'fixtures', 'openmv', 'scripts', 'nicla_jpeg.py'), '--board', 'ARDUINO_NICLA_VISION']],
  ])('prints the same context --json as the unbundled build for %s', (_what, target) => {
    const unbundled = run(cliMain, ['context', ...target, '--json']);
    const bundled = run(bundle, ['context', ...target, '--json']);
    expect(unbundled.status, unbundled.stderr).toBe(0);
    expect(bundled.status, bundled.stderr).toBe(0);
    expect(JSON.parse(bundled.stdout)).toEqual(JSON.parse(unbundled.stdout));
    expect(bundled.stderr).toBe(unbundled.stderr);
  });

  it('answers --help for every command it lists, without running any of them', () => {
    const top = run(bundle, ['--help']);
    expect(top.status, top.stderr).toBe(0);
    const names = top.stdout
      .split('Commands:')[1]
      .split('\n')
      .map((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1])
      .filter((name): name is string => Boolean(name) && name !== 'help');
    expect(names).toEqual(expect.arrayContaining(['chat', 'run', 'context', 'doctor', 'acp', 'compile', 'upload', 'simulate', 'ports', 'run-script']));
    for (const name of names) {
      const help = run(bundle, [name, '--help']);
      expect(help.status, `${name}: ${help.stderr}`).toBe(0);
      expect(help.stdout, name).toMatch(new RegExp(`^Usage: boardbridge ${name} `));
      expect(help.stderr, name).toBe('');
    }
    // A dozen processes one after another: on a loaded machine that is more than the default minute.
  }, 300_000);

  it('carries none of the data files of boards/data: a command reads the ones it needs when it needs them', () => {
    const dist = path.join(repoRoot, 'dist', 'cli');
    // context.cjs, the scripts split from it (context-*.cjs), the shell and the chunks.
    const scripts = readdirSync(dist).filter((name) => name.endsWith('.cjs') && name !== 'boardbridge.cjs');
    expect(scripts).toEqual(expect.arrayContaining(['context.cjs', 'context-yaml.cjs', 'context-mplabx.cjs', 'context-openmv.cjs', 'shell.cjs']));
    const bundled = [...scripts.map((name) => path.join(dist, name)), ...readdirSync(path.join(dist, 'chunks')).map((name) => path.join(dist, 'chunks', name))]
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const dataDir = path.join(repoRoot, 'boards', 'data');
    const files = readdirSync(dataDir).filter((name) => name.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const name of files) {
      // The file's longest plain string (a citation, a description): a bundled copy would hold it verbatim.
      const strings: string[] = [];
      const collect = (value: unknown): void => {
        if (typeof value === 'string') strings.push(value);
        else if (value && typeof value === 'object') Object.values(value).forEach(collect);
      };
      collect(JSON.parse(readFileSync(path.join(dataDir, name), 'utf8')));
      const plain = strings.filter((text) => /^[\x20-\x7e]+$/.test(text) && !/["\\]/.test(text)).sort((a, b) => b.length - a.length)[0];
      expect(plain?.length ?? 0, name).toBeGreaterThan(30);
      expect(bundled.includes(plain!), `${name}: "${plain}" is in the bundle`).toBe(false);
    }
  });
});

