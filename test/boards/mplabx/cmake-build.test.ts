// Building an MPLAB for VS Code project with real cmake and ninja, from the
// CMake files the MPLAB extension generated for the real pwr-probe-test
// project (mplabx/vscode-pwr-probe-test in the fixtures folder). XC16 cannot be
// installed here, so xc16-gcc and xc16-bin2hex are stand-in scripts that log
// their arguments, write their outputs and print what the test asks for.
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMplabProject } from '../../../boards/mplabx/index.js';
import { mplabxCommands } from '../../../boards/operation-faces.js';
import { operationContext } from '../../../boards/operation-context.js';
import { operationTools } from '../../../bridge/mcp/command-tools.js';
import { removeTempDirs, sharedFixtures, tempDir } from '../../context-providers/mplabx/support.js';

afterAll(removeTempDirs);

const PACK = join('Microchip', 'dsPIC33E-GM-GP-MC-GU-MU_DFP', '1.6.297');
// The fixture holds only src/main.c and src/hardware.h of the project's sources.
const absentSources = [
  'FreeRTOS/Source/event_groups.c',
  'FreeRTOS/Source/list.c',
  'FreeRTOS/Source/portable/MPLAB/PIC24_dsPIC/port.c',
  'FreeRTOS/Source/portable/MPLAB/PIC24_dsPIC/portasm_PIC24.S',
  'FreeRTOS/Source/portable/MemMang/heap_4.c',
  'FreeRTOS/Source/queue.c',
  'FreeRTOS/Source/stream_buffer.c',
  'FreeRTOS/Source/tasks.c',
  'FreeRTOS/Source/timers.c',
  'src/motor.c',
  'src/pwm.c',
  'src/st7789v.c',
  'src/st7789v_demo.c',
];

interface Workspace {
  root: string;
  bin: string;
  packs: string;
  env: Record<string, string>;
  calls: () => string[];
}

/** A writable copy of the fixture (the shared folder is read-only), with stand-in XC16 tools and a pack root. */
async function workspace(options: { sources?: boolean; compilerMessage?: string; compilerExit?: number } = {}): Promise<Workspace> {
  const base = tempDir('mplabx-cmake-');
  const root = join(base, 'pwr-probe-test');
  cpSync(join(sharedFixtures, 'vscode-pwr-probe-test'), root, { recursive: true });
  await execa('chmod', ['-R', 'u+w', root]);
  if (options.sources !== false) {
    for (const path of absentSources) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), '/* stand-in for a source the fixture does not hold */\n');
    }
  }
  const bin = join(base, 'stand-in-xc16', 'bin');
  mkdirSync(bin, { recursive: true });
  const log = join(base, 'calls.log');
  const message = options.compilerMessage ?? '';
  writeFileSync(
    join(bin, 'xc16-gcc'),
    `#!/bin/sh\n# stand-in for XC16's xc16-gcc\necho "xc16-gcc $*" >> "${log}"\nout=a.out; src=""\nwhile [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift;; *.c|*.S) src="$1";; esac; shift; done\ncase "$src" in */src/main.c) printf '%s\\n' "${message.replaceAll('"', '\\"')}" | sed "s|MAIN|$src|" >&2; [ ${options.compilerExit ?? 0} -ne 0 ] && exit ${options.compilerExit};; esac\n: > "$out"\n`,
  );
  writeFileSync(join(bin, 'xc16-bin2hex'), `#!/bin/sh\n# stand-in for XC16's xc16-bin2hex\necho "xc16-bin2hex $*" >> "${log}"\n: > "\${1%.elf}.hex"\n`);
  chmodSync(join(bin, 'xc16-gcc'), 0o755);
  chmodSync(join(bin, 'xc16-bin2hex'), 0o755);
  const packs = join(base, 'packs');
  mkdirSync(join(packs, PACK, 'xc16'), { recursive: true });
  return {
    root,
    bin,
    packs,
    env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
    calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []),
  };
}

describe('building an MPLAB for VS Code project with its generated CMake files (real cmake and ninja, stand-in XC16)', () => {
  it('configures with cmake --preset, builds with cmake --build, and reports the image and a stand-in XC16 warning at src/main.c:60', async () => {
    const w = await workspace({ compilerMessage: "MAIN:60:5: warning: implicit declaration of function 'pwm_init' [-Wimplicit-function-declaration]" });
    const output: string[] = [];
    const result = await buildMplabProject({ project: w.root, env: w.env, packRoots: [w.packs], onOutput: (t) => output.push(t) });
    expect(result.output).not.toContain('CMake Error');
    expect(result.commands).toEqual([
      [
        'cmake',
        '--preset',
        'pwr_probe_test_default_conf',
        `-DCMAKE_C_COMPILER=${join(w.bin, 'xc16-gcc')}`,
        `-DCMAKE_ASM_COMPILER=${join(w.bin, 'xc16-gcc')}`,
        `-DMP_BIN2HEX=${join(w.bin, 'xc16-bin2hex')}`,
        `-DPACK_REPO_PATH=${w.packs}`,
      ],
      ['cmake', '--build', join(w.root, '_build', 'pwr-probe-test', 'default')],
    ]);
    expect(result.ok).toBe(true);
    expect(result.image).toBe(join(w.root, 'out', 'pwr-probe-test', 'default.elf'));
    expect(existsSync(join(w.root, 'out', 'pwr-probe-test', 'default.elf'))).toBe(true);
    expect(existsSync(join(w.root, 'out', 'pwr-probe-test', 'default.hex'))).toBe(true);
    expect(result.diagnostics).toEqual([
      {
        severity: 'warning',
        message: "implicit declaration of function 'pwm_init' [-Wimplicit-function-declaration]",
        file: join(w.root, 'src', 'main.c'),
        line: 60,
        column: 5,
        code: 'xc-compiler',
      },
    ]);
    // The flags are the generated rule.cmake's, with -mdfp into this machine's pack root.
    const compileMain = w.calls().find((c) => c.endsWith(`-c ${join(w.root, 'src', 'main.c')}`));
    expect(compileMain).toContain('-mcpu=24EP256MC206 -O0 -msmart-io=1 -Wall -msfr-warn=off');
    expect(compileMain).toContain(`-mdfp=${join(w.packs, PACK, 'xc16')}`);
    expect(compileMain).toContain('-D__DEBUG');
    expect(w.calls().find((c) => c.includes('--script=p24EP256MC206.gld'))).toContain(`-o ${join(w.root, 'out', 'pwr-probe-test', 'default.elf')}`);
    expect(w.calls()).toContainEqual(`xc16-bin2hex default.elf -a -mdfp=${join(w.packs, PACK, 'xc16')}`);
    // CMAKE_AR names xc16-ar, which the stand-in set does not have: said, not fatal.
    expect(output.join('')).toContain('note: CMAKE_AR (c:/Program Files/Microchip/xc16/v2.10/bin/xc16-ar.exe) is not on this machine');
    expect(result.message).toBe('built: pwr-probe-test (default), 0 error(s), 1 warning(s), image out/pwr-probe-test/default.elf');
  });

  it('fails with the stand-in XC16 error at src/main.c:line and cmake --build\'s exit code', async () => {
    const w = await workspace({ compilerMessage: "MAIN:60:5: error: 'LED_R' undeclared (first use in this function)", compilerExit: 1 });
    const result = await buildMplabProject({ project: w.root, env: w.env, packRoots: [w.packs] });
    expect(result.ok).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({ severity: 'error', file: join(w.root, 'src', 'main.c'), line: 60, column: 5, message: "'LED_R' undeclared (first use in this function)" });
    expect(result.message).toMatch(/^build failed: pwr-probe-test \(default\), 1 error\(s\), 0 warning\(s\), cmake --build exit 1$/);
  });

  it('builds the production variant with --production into its own image', async () => {
    const w = await workspace();
    const result = await buildMplabProject({ project: w.root, production: true, env: w.env, packRoots: [w.packs] });
    expect(result.ok).toBe(true);
    expect(result.commands?.[1]).toEqual(['cmake', '--build', join(w.root, '_build', 'pwr-probe-test', 'default.production')]);
    expect(result.image).toBe(join(w.root, 'out', 'pwr-probe-test', 'production', 'default-production.elf'));
    expect(w.calls().find((c) => c.endsWith(`-c ${join(w.root, 'src', 'main.c')}`))).not.toContain('-D__DEBUG');
  });

  it('names the sources the generated CMake files list that do not exist, with file.cmake lines, before running cmake', async () => {
    const w = await workspace({ sources: false });
    const result = await buildMplabProject({ project: w.root, env: w.env, packRoots: [w.packs] });
    expect(result.ok).toBe(false);
    expect(result.commands).toBeUndefined();
    expect(result.message).toContain('13 of the 14 sources the generated CMake files list do not exist: FreeRTOS/Source/portable/MPLAB/PIC24_dsPIC/portasm_PIC24.S (cmake/pwr-probe-test/default/.generated/file.cmake:10)');
    expect(result.message).toContain('.generated/file.cmake:23) and 7 more. Restore them, or rebuild in VS Code');
  });

  it('says how the MPLAB extension generates cmake/ when it is missing', async () => {
    const w = await workspace();
    rmSync(join(w.root, 'cmake'), { recursive: true });
    const result = await buildMplabProject({ project: w.root, env: w.env });
    expect(result.ok).toBe(false);
    expect(result.message).toContain(`${join(w.root, 'cmake', 'pwr-probe-test', 'default', 'CMakePresets.json')} is missing`);
    expect(result.message).toContain('The MPLAB extension for VS Code writes cmake/pwr-probe-test/default/ (CMakePresets.json, CMakeLists.txt, .generated/*.cmake) from .vscode/pwr-probe-test.mplab.json');
  });

  it('says which compiler is missing and where it looked when XC16 is not on this machine', async () => {
    const w = await workspace();
    const result = await buildMplabProject({ project: w.root, env: { PATH: process.env.PATH ?? '' } });
    expect(result.ok).toBe(false);
    expect(result.message).toContain(
      'the compiler the generated CMake files name (c:/Program Files/Microchip/xc16/v2.10/bin/xc16-gcc.exe, .generated/toolchain.cmake:6) is not on this machine, and xc16-gcc is not in /opt/microchip/xc16/v2.10/bin or on PATH. Install XC16 2.10',
    );
  });

  it('runs as the in-process `build` command on the project folder, and CMAKE_C_COMPILER=... chooses the compiler', async () => {
    const w = await workspace({ compilerMessage: 'MAIN:60:5: warning: stand-in warning' });
    const commands = mplabxCommands({ consent: async () => ({ granted: true }), requestProgramConsent: async () => undefined });
    const written: string[] = [];
    const io = { write: (t: string) => written.push(t), signal: new AbortController().signal, cwd: join(w.root, '..'), env: { PATH: process.env.PATH ?? '' } };
    const code = await commands.get('build')!(['pwr-probe-test', '--conf', 'default', `CMAKE_C_COMPILER=${join(w.bin, 'xc16-gcc')}`, `CMAKE_ASM_COMPILER=${join(w.bin, 'xc16-gcc')}`, `MP_BIN2HEX=${join(w.bin, 'xc16-bin2hex')}`], io);
    expect(written.join('')).toContain(`${join(w.root, 'src', 'main.c')}:60:5: warning: stand-in warning`);
    expect(code).toBe(0);
  });

  it('the MCP build tool takes the same path, production variant included, and the program tool says which tool it cannot drive', async () => {
    const w = await workspace({ compilerMessage: 'MAIN:60:5: warning: stand-in warning' });
    const file = join(w.root, '.vscode', 'pwr-probe-test.mplab.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.configurations[0].tool = 'PKOB nano';
    writeFileSync(file, JSON.stringify(doc, null, 4));
    let asked = false;
    const tools = operationTools(operationContext({ hub: undefined as never, requestUploadConsent: async () => undefined, requestProgramConsent: async () => ((asked = true), undefined) }), { cwd: join(w.root, '..'), env: w.env });
    const build = await tools.find((t) => t.name === 'build')!.run({ project: 'pwr-probe-test', production: true }, new AbortController().signal);
    expect(build.isError).toBe(false);
    expect(build.text).toContain(`${join(w.root, 'src', 'main.c')}:60:5: warning: stand-in warning`);
    expect(build.text).toContain('built: pwr-probe-test (default, production), 0 error(s), 1 warning(s), image out/pwr-probe-test/production/default-production.elf');
    const program = await tools.find((t) => t.name === 'program')!.run({ project: 'pwr-probe-test', production: true }, new AbortController().signal);
    expect(program.isError).toBe(true);
    expect(program.text).toContain('"PKOB nano" is the Curiosity Nano on-board debugger, which boardbridge cannot drive');
    expect(asked).toBe(false);
  });

  it('notes CMake files generated from an earlier .mplab.json, and names a CMakePresets.json that is not JSON', async () => {
    const w = await workspace();
    const file = join(w.root, '.vscode', 'pwr-probe-test.mplab.json');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n`);
    const output: string[] = [];
    const stale = await buildMplabProject({ project: w.root, env: w.env, packRoots: [w.packs], onOutput: (t) => output.push(t) });
    expect(stale.ok).toBe(true);
    expect(output.join('')).toContain('note: cmake/pwr-probe-test/default was generated from an earlier .vscode/pwr-probe-test.mplab.json');
    const presets = join(w.root, 'cmake', 'pwr-probe-test', 'default', 'CMakePresets.json');
    writeFileSync(presets, '{ "version": 6, "configurePresets": [');
    writeFileSync(join(w.root, 'cmake', 'pwr-probe-test', 'default', '.generated', 'cmake-hash.json'), 'not json');
    const broken = await buildMplabProject({ project: w.root, env: w.env, packRoots: [w.packs] });
    expect(broken.ok).toBe(false);
    expect(broken.message).toContain(`cannot build pwr-probe-test (default): ${presets}: not valid JSON`);
  });
});
