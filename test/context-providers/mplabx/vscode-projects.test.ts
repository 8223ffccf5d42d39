// MPLAB for VS Code projects in the format the extension writes
// (`.vscode/<name>.mplab.json`, versions 1.8/1.9): the real pwr-probe-test
// project from the fixtures folder, and projects these tests write in the same
// format for an AVR-GCC ATtiny, a PIC32CM with XC32 and a debug tool, and a
// dsPIC33A with XC-DSC. Golden contexts with no device pack installed.
// Set UPDATE_GOLDENS=1 to rewrite the golden files after a deliberate change.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectGolden } from '../../support/golden.js';
import { createMplabxProvider } from '../../../context-providers/mplabx/index.js';
import { goldenDir, portable, removeTempDirs, repoRoot, sharedFixtures, tempDir } from './support.js';

afterAll(removeTempDirs);

const provider = createMplabxProvider({ packRoots: [] });
const realProject = join(sharedFixtures, 'vscode-pwr-probe-test');

interface Written {
  name: string;
  version: string;
  device: string;
  provider: string;
  pack: { name: string; version: string };
  tool?: string;
  properties?: Record<string, unknown>;
  files: Record<string, string>;
}

/** A workspace with `.vscode/<name>.mplab.json` laid out as the extension writes it, and the given files. */
function writeProject(project: Written): string {
  const root = join(tempDir(`mplabx-vscode-${project.name}-`), project.name);
  mkdirSync(join(root, '.vscode'), { recursive: true });
  const group = `default-${project.provider.replace(/^.*:/, '').replace(/@.*$/, '').toUpperCase()}`;
  const doc = {
    version: project.version,
    configurations: [
      {
        name: 'default',
        id: 'conf1',
        device: project.device,
        imagePath: `./out/${project.name}/default.elf`,
        packs: [{ name: project.pack.name, vendor: 'Microchip', version: project.pack.version }],
        fileSet: 'default',
        toolchain: group,
        ...(project.tool ? { tool: project.tool } : {}),
      },
    ],
    propertyGroups: [{ name: group, type: 'toolchain', provider: project.provider, properties: project.properties ?? {} }],
    fileSets: [{ name: 'default', files: [{ include: '**/*', exclude: '**/@(build|_build|out|cmake|.vscode)/**/*' }] }],
  };
  writeFileSync(join(root, '.vscode', `${project.name}.mplab.json`), `${JSON.stringify(doc, null, 4)}\n`);
  for (const [path, text] of Object.entries(project.files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const attiny: Written = {
  name: 'attiny-blink',
  version: '1.8',
  device: 'ATtiny1616',
  provider: 'microchip.toolchains:avr-gcc@7.3.0',
  pack: { name: 'ATtiny_DFP', version: '3.1.260' },
  properties: { 'optimization-level': '-Os', 'preprocessor-macros': ['F_CPU=3333333UL', 'NDEBUG'] },
  files: { 'main.c': '#include <avr/io.h>\nint main(void) { for (;;) {} }\n', 'build/default/main.o': '', 'out/attiny-blink/default.elf': '' },
};

const pic32cm: Written = {
  name: 'pic32cm-blink',
  version: '1.9',
  device: 'PIC32CM1216MC00032',
  provider: 'microchip.toolchains:xc32@5.10',
  pack: { name: 'PIC32CM-MC_DFP', version: '1.6.135' },
  tool: 'PKOB nano',
  properties: { 'C32.optimization-level': '1', 'C32-LD.heap-size': '512', 'extra-include-directories': 'src/config/default;src/packs' },
  files: { 'src/main.c': 'int main(void) { for (;;) {} }\n', 'src/config/default/initialization.c': '', 'src/config/default/definitions.h': '', '_build/pic32cm-blink/default/build.ninja': '' },
};

const dspic33a: Written = {
  name: 'dspic33a-motor',
  version: '1.9',
  device: 'dsPIC33AK128MC106',
  provider: 'microchip.toolchains:xc-dsc@3.21',
  pack: { name: 'dsPIC33AK-MC_DFP', version: '1.0.33' },
  tool: 'MPLAB PICkit 5',
  properties: { 'optimization-level': '1', 'heap-size': '256' },
  files: { 'main.c': 'int main(void) { return 0; }\n', 'cmake/dspic33a-motor/default/CMakeLists.txt': '' },
};

async function contextOf(root: string, configuration?: string) {
  const detected = await provider.detect(root);
  expect(detected).toBeDefined();
  return provider.load(detected!, { configuration });
}

function matchesGolden(actual: unknown, name: string): void {
  const file = join(goldenDir, name);
  expectGolden(file, actual);
}

describe('MPLAB for VS Code projects as the extension writes them', () => {
  it('the real pwr-probe-test project builds the recorded context', async () => {
    const context = await contextOf(realProject);
    matchesGolden(portable(context, { [sharedFixtures]: '<shared-fixtures>/mplabx', [repoRoot]: '<repo>' }), 'vscode-pwr-probe-test.default.json');
  });

  it('names XC16 2.10 from the provider of the pwr-probe-test property group, and the PIC24 family', async () => {
    const context = await contextOf(realProject);
    const mplabJson = join(realProject, '.vscode', 'pwr-probe-test.mplab.json');
    expect(context.board).toMatchObject({ id: 'PIC24EP256MC206', architecture: 'PIC24 (16-bit, PIC24 core)', sources: { device: { file: mplabJson, line: 7 } } });
    expect(context.toolchain).toMatchObject({ name: 'XC16', version: '2.10', source: { file: mplabJson, line: 24 } });
    expect(context.libraries).toEqual([expect.objectContaining({ name: 'dsPIC33E-GM-GP-MC-GU-MU_DFP', version: '1.6.297', location: 'pack' })]);
    expect(context.warnings.map((w) => w.code)).not.toContain('mplabx-unknown-toolchain');
  });

  it('resolves the extglob file set of the real project to the files there, leaving cmake/ and .vscode/ out', async () => {
    const context = await contextOf(realProject);
    expect(context.project?.files).toEqual([
      { path: 'src/hardware.h', role: 'header', source: { file: join(realProject, '.vscode', 'pwr-probe-test.mplab.json'), line: 33 } },
      { path: 'src/main.c', role: 'source', source: { file: join(realProject, '.vscode', 'pwr-probe-test.mplab.json'), line: 33 } },
    ]);
  });

  for (const project of [attiny, pic32cm, dspic33a]) {
    it(`${project.name} (${project.device}, ${project.provider}) builds the recorded context`, async () => {
      const root = writeProject(project);
      const context = await contextOf(root);
      matchesGolden(portable(context, { [root]: '<project>', [repoRoot]: '<repo>' }), `vscode-${project.name}.default.json`);
    });
  }

  it('an AVR-GCC ATtiny project is a tinyAVR with AVR-GCC 7.3.0 and its listed options; build/ and out/ are not sources', async () => {
    const context = await contextOf(writeProject(attiny));
    expect(context.board.architecture).toBe('tinyAVR (8-bit, AVR core)');
    expect(context.toolchain).toMatchObject({ name: 'AVR-GCC', version: '7.3.0' });
    expect(context.toolchain?.options?.map((o) => `${o.name}=${o.value}`)).toEqual(['optimization=-Os', 'define=F_CPU=3333333UL', 'define=NDEBUG']);
    expect(context.project?.files?.map((f) => f.path)).toEqual(['main.c']);
  });

  it('a PIC32CM project is Arm Cortex-M0+, not MIPS, and shows its debug tool', async () => {
    const root = writeProject(pic32cm);
    const context = await contextOf(root);
    expect(context.board.architecture).toBe('PIC32CM (32-bit, Arm Cortex-M0+)');
    expect(context.toolchain).toMatchObject({ name: 'XC32', version: '5.10', upload: { tool: 'PKOB nano' } });
    expect(context.toolchain?.options?.map((o) => `${o.name}=${o.value}`)).toEqual([
      'optimization=-O1',
      'include-dir=src/config/default',
      'include-dir=src/packs',
      'heap-size=512',
    ]);
    const text = provider.render(context);
    expect(text).toContain('- Device: PIC32CM1216MC00032, PIC32CM (32-bit, Arm Cortex-M0+) (.vscode/pic32cm-blink.mplab.json:7)');
    expect(text).toContain('- Toolchain: XC32 5.10 (.vscode/pic32cm-blink.mplab.json:25)');
    expect(text).toContain('- Programmer/debugger: PKOB nano');
  });

  it('a dsPIC33A project is a 32-bit DSC built with XC-DSC, whose options read as XC16 options', async () => {
    const context = await contextOf(writeProject(dspic33a));
    expect(context.board.architecture).toBe('dsPIC33A (32-bit, dsPIC33A DSC core)');
    expect(context.toolchain).toMatchObject({ name: 'XC-DSC', version: '3.21', upload: { tool: 'MPLAB PICkit 5' } });
    expect(context.toolchain?.options?.map((o) => `${o.name}=${o.value}`)).toEqual(['optimization=-O1', 'heap-size=256']);
  });

  it('a toolchain that names no property group, or a provider boardbridge does not know, is a warning with the line', async () => {
    const root = writeProject({ ...attiny, name: 'odd', provider: 'example.toolchains:cc5x@3.8C' });
    const file = join(root, '.vscode', 'odd.mplab.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const unknown = await contextOf(root);
    expect(unknown.toolchain).toMatchObject({ name: 'cc5x', version: '3.8C' });
    expect(unknown.warnings).toContainEqual(expect.objectContaining({ code: 'mplabx-unknown-toolchain', message: expect.stringContaining('toolchain "cc5x" is not one boardbridge knows') }));
    doc.configurations[0].toolchain = 'no-such-group';
    writeFileSync(file, JSON.stringify(doc, null, 4));
    const missing = await contextOf(root);
    expect(missing.warnings).toContainEqual(expect.objectContaining({ code: 'mplabx-toolchain', file, message: expect.stringContaining('"toolchain": "no-such-group" names no property group') }));
    doc.configurations[0].toolchain = 5;
    writeFileSync(file, JSON.stringify(doc, null, 4));
    const lineOf = (needle: string) => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;
    const toolchainWarnings = (c: Awaited<ReturnType<typeof contextOf>>) => c.warnings.filter((w) => /toolchain/.test(w.code)).map((w) => w.message);
    const numeric = await contextOf(root);
    expect(toolchainWarnings(numeric)).toEqual([`${file}:${lineOf('"toolchain": 5')}: configuration "default" has "toolchain": 5, not the name of a property group; the compiler and its options are not known`]);
    delete doc.configurations[0].toolchain;
    writeFileSync(file, JSON.stringify(doc, null, 4));
    // Said once, in the .mplab.json's own terms (not MPLAB X's <languageToolchain>).
    const absent = await contextOf(root);
    expect(toolchainWarnings(absent)).toEqual([`${file}:${lineOf('"name": "default"')}: configuration "default" has no "toolchain"; the compiler and its options are not known`]);
  });

  it('uses the configuration the extension last pointed CMake at in .vscode/settings.json, unless --conf chooses', async () => {
    const root = writeProject(attiny);
    const file = join(root, '.vscode', 'attiny-blink.mplab.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.configurations.push({ ...doc.configurations[0], name: 'release', id: 'conf2', device: 'ATtiny3217' });
    writeFileSync(file, JSON.stringify(doc, null, 4));
    writeFileSync(join(root, '.vscode', 'settings.json'), JSON.stringify({ 'cmake.sourceDirectory': 'C:\\Users\\me\\attiny-blink\\cmake\\attiny-blink\\release.production' }, null, 4));
    expect((await contextOf(root)).project?.configuration).toBe('release');
    expect((await contextOf(root)).board.id).toBe('ATtiny3217');
    expect((await contextOf(root, 'default')).board.id).toBe('ATtiny1616');
    writeFileSync(join(root, '.vscode', 'settings.json'), '{ // a comment VS Code allows\n "cmake.sourceDirectory": "x/cmake/attiny-blink/release" }');
    expect((await contextOf(root)).project?.configuration).toBe('default');
  });
});
