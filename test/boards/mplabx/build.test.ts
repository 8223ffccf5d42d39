// Building MPLAB X projects with the real make. XC compilers cannot be
// installed here, so the compiler is a stand-in script that prints
// XC8-style messages; make, the makefiles and the diagnostics are real.
import { chmodSync, cpSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMplabProject, parseXcDiagnostics } from '../../../boards/mplabx/index.js';
import { mplabxCommands } from '../../../boards/operation-faces.js';
import { ownFixtures, removeTempDirs, tempDir } from '../../context-providers/mplabx/support.js';

afterAll(removeTempDirs);

function projectCopy(): string {
  const folder = join(tempDir('mplabx-build-'), 'avr-blink.X');
  cpSync(join(ownFixtures, 'avr-blink.X'), folder, { recursive: true });
  // The private settings select "release", whose makefiles are not there.
  rmSync(join(folder, 'nbproject', 'private'), { recursive: true });
  return folder;
}

/** A stand-in for xc8-cc: writes its -o output and prints what the test asks for on stderr. */
function standInCompiler(folder: string, messages: string, exitCode: number): string {
  const script = join(folder, '..', 'xc8-cc-stand-in.sh');
  writeFileSync(
    script,
    `#!/bin/sh\nout=""\nwhile [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then out="$2"; fi; shift; done\ncat >&2 <<'MSG'\n${messages}\nMSG\n[ ${exitCode} -eq 0 ] && [ -n "$out" ] && : > "$out" && case "$out" in *.elf) : > "\${out%.elf}.hex";; esac\nexit ${exitCode}\n`,
  );
  chmodSync(script, 0o755);
  return script;
}

describe('building an MPLAB X project with make (stand-in XC8 compiler)', () => {
  it('runs make -C project CONF=default build and reports the warnings of a stand-in XC8 as file:line', async () => {
    const folder = projectCopy();
    const cc = standInCompiler(folder, 'main.c:6:9: warning: implicit conversion loses integer precision [-Wconversion]', 0);
    const output: string[] = [];
    const result = await buildMplabProject({ project: folder, configuration: 'default', makeVariables: { MP_CC: cc }, onOutput: (t) => output.push(t) });
    expect(result.command).toEqual(['make', '-C', folder, 'CONF=default', `MP_CC=${cc}`, 'build']);
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([
      { severity: 'warning', message: 'implicit conversion loses integer precision [-Wconversion]', file: join(folder, 'main.c'), line: 6, column: 9, code: 'xc-compiler' },
    ]);
    expect(existsSync(join(folder, 'dist', 'default', 'production', 'avr-blink.X.production.hex'))).toBe(true);
    expect(output.join('')).toContain('-mcpu=ATmega328P -c -O1');
    expect(result.message).toBe('built: avr-blink (default), 0 error(s), 1 warning(s)');
  });

  it('fails with the stand-in XC8 errors at file:line and make\'s exit code', async () => {
    const folder = projectCopy();
    const cc = standInCompiler(folder, "main.c:6:9: error: use of undeclared identifier 'LED_Togle'\n1 error generated.", 1);
    const result = await buildMplabProject({ project: folder, configuration: 'default', makeVariables: { MP_CC: cc } });
    expect(result.ok).toBe(false);
    expect(result.exitCode).toBe(2);
    expect(result.diagnostics[0]).toMatchObject({ severity: 'error', file: join(folder, 'main.c'), line: 6, column: 9, message: "use of undeclared identifier 'LED_Togle'" });
    expect(result.message).toMatch(/^build failed: avr-blink \(default\), 1 error\(s\), 0 warning\(s\), make exit 2$/);
  });

  it('says clearly that makefiles are missing and MPLAB X is needed to regenerate them', async () => {
    const folder = projectCopy();
    const result = await buildMplabProject({ project: folder, configuration: 'release', env: { MPLABX_HOME: join(folder, 'no-mplabx') } });
    expect(result.ok).toBe(false);
    expect(result.message).toContain(`${join(folder, 'nbproject', 'Makefile-release.mk')} missing`);
    expect(result.message).toContain("MPLAB X's prjMakefilesGenerator was not found");
  });

  it('regenerates missing makefiles with prjMakefilesGenerator as project@conf (stand-in generator)', async () => {
    const folder = projectCopy();
    const generator = join(folder, '..', 'prjMakefilesGenerator-stand-in.sh');
    writeFileSync(generator, `#!/bin/sh\nproject="\${1%@*}"; conf="\${1#*@}"\nsed "s/default/$conf/g" "$project/nbproject/Makefile-default.mk" > "$project/nbproject/Makefile-$conf.mk"\ncp "$project/nbproject/Makefile-local-default.mk" "$project/nbproject/Makefile-local-$conf.mk"\necho "generated $conf"\n`);
    chmodSync(generator, 0o755);
    const cc = standInCompiler(folder, '', 0);
    const result = await buildMplabProject({ project: folder, configuration: 'release', generator, makeVariables: { MP_CC: cc } });
    expect(result.output).toContain(`${generator} ${folder}@release`);
    expect(result.output).toContain('generated release');
    expect(result.ok).toBe(true);
  });

  it('refuses an unknown configuration, naming the ones there are', async () => {
    const result = await buildMplabProject({ project: projectCopy(), configuration: 'debug' });
    expect(result).toMatchObject({ ok: false, message: 'configuration "debug" does not exist in avr-blink; available: default, release' });
  });

  it('runs as the in-process `build` command with [project.X] --conf', async () => {
    const folder = projectCopy();
    const cc = standInCompiler(folder, 'main.c:3:1: warning: unused variable', 0);
    const commands = mplabxCommands({ consent: async () => ({ granted: true }), requestProgramConsent: async () => undefined });
    const written: string[] = [];
    const io = { write: (t: string) => written.push(t), signal: new AbortController().signal, cwd: join(folder, '..'), env: {} };
    // The stand-in compiler is chosen with a make variable, as on make's own command line.
    const code = await commands.get('build')!(['avr-blink.X', '--conf', 'default', `MP_CC=${cc}`], io);
    expect(code).toBe(0);
    expect(written.join('')).toContain(`${join(folder, 'main.c')}:3:1: warning: unused variable`);
    expect(await commands.get('build')!(['--bogus'], io)).toBe(2);
  });
});

describe('XC compiler output', () => {
  it('reads gcc-style XC16/XC32 lines, XC8 numbered messages, file-less linker errors and advisories', () => {
    const output = [
      "main.c: In function 'main':",
      'main.c:12:5: error: expected \';\' before \'}\' token',
      '../src/uart.c:40: warning: (759) expression generates no code',
      ':: advisory: (1510) non-reentrant function "_delay" appears in multiple call graphs',
      '/abs/path/system.c:7:1: note: declared here',
      'main.c:30:: error: (192) undefined identifier "LATX"',
      ':0:: error: (1347) can\'t find 0x1A words (0x1a withtotal) for psect "text0" in class "CODE"',
      "xc16-ld: error: Link Error: Could not allocate section '.bss', size = 40000 bytes",
      'make[2]: *** [nbproject/Makefile-default.mk:120: build/default/production/main.o] Error 1',
    ].join('\n');
    expect(parseXcDiagnostics(output, '/proj/blink.X')).toEqual([
      { severity: 'error', message: "expected ';' before '}' token", file: '/proj/blink.X/main.c', line: 12, column: 5, code: 'xc-compiler' },
      { severity: 'warning', message: 'expression generates no code', file: '/proj/src/uart.c', line: 40, code: 'xc-759' },
      { severity: 'info', message: 'non-reentrant function "_delay" appears in multiple call graphs', code: 'xc-1510' },
      { severity: 'info', message: 'declared here', file: '/abs/path/system.c', line: 7, column: 1, code: 'xc-compiler' },
      { severity: 'error', message: 'undefined identifier "LATX"', file: '/proj/blink.X/main.c', line: 30, code: 'xc-192' },
      { severity: 'error', message: 'can\'t find 0x1A words (0x1a withtotal) for psect "text0" in class "CODE"', code: 'xc-1347' },
      { severity: 'error', message: "xc16-ld: Link Error: Could not allocate section '.bss', size = 40000 bytes", code: 'xc-compiler' },
    ]);
  });
});
