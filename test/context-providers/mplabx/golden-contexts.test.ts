// Golden contexts of the real fixture projects: device, toolchain, packs,
// options and missing sources, with no device pack installed (as in CI).
// Set UPDATE_GOLDENS=1 to rewrite the golden files after a deliberate change.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGolden } from '../../support/golden.js';
import { createMplabxProvider } from '../../../context-providers/mplabx/index.js';
import { goldenDir, ownFixtures, portable, repoRoot, sharedFixtures } from './support.js';

const provider = createMplabxProvider({ packRoots: [] });

const cases = [
  { project: join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X'), configuration: undefined, golden: 'pic18f47q10-curiosity-hpc-demo-code.free.json' },
  { project: join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X'), configuration: 'pro', golden: 'pic18f47q10-curiosity-hpc-demo-code.pro.json' },
  { project: join(sharedFixtures, 'dspic33ck-curiosity-canfd.X'), configuration: undefined, golden: 'dspic33ck-curiosity-canfd.default.json' },
  { project: join(ownFixtures, 'avr-blink.X'), configuration: undefined, golden: 'avr-blink.release.json' },
];

describe('MPLAB X contexts of the fixture projects match their golden JSON', () => {
  for (const { project, configuration, golden } of cases) {
    it(`${golden.replace(/\.json$/, '')} builds the recorded context`, async () => {
      const detected = await provider.detect(project);
      expect(detected).toBeDefined();
      const context = await provider.load(detected!, { configuration });
      const actual = portable(context, { [sharedFixtures]: '<shared-fixtures>/mplabx', [ownFixtures]: '<fixtures>/mplabx', [repoRoot]: '<repo>' });
      const file = join(goldenDir, golden);
      expectGolden(file, actual);
    });
  }

  it('the PIC18 project uses its first configuration when no private settings choose one, and --conf selects the other', async () => {
    const detected = (await provider.detect(join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X')))!;
    const free = await provider.load(detected, {});
    const pro = await provider.load(detected, { configuration: 'pro' });
    expect(free.project?.configuration).toBe('free');
    expect(pro.project?.configuration).toBe('pro');
    expect(free.toolchain?.options?.find((o) => o.name === 'optimization')?.value).toBe('-O0');
    expect(pro.toolchain?.options?.find((o) => o.name === 'optimization')?.value).toBe('-Os');
  });

  it('names the device, toolchain, version and pack of the PIC18 project, with file and line', async () => {
    const detected = (await provider.detect(join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X')))!;
    const context = await provider.load(detected, {});
    expect(context.board.id).toBe('PIC18F47Q10');
    expect(context.board.sources?.device).toEqual({ file: join(detected.root, 'nbproject', 'configurations.xml'), line: 174 });
    expect(context.toolchain).toMatchObject({ name: 'XC8', version: '3.00', upload: { tool: 'pkob4hybrid' } });
    expect(context.libraries).toEqual([expect.objectContaining({ name: 'PIC18F-Q_DFP', version: '1.26.442', location: 'pack' })]);
  });

  it('without the pack, takes the program memory size from the range the programmer writes', async () => {
    const detected = (await provider.detect(join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X')))!;
    const context = await provider.load(detected, {});
    expect(context.limits).toEqual([
      expect.objectContaining({ name: 'Flash (range the programmer writes, 0x0-0x1ffff)', value: 131072, unit: 'bytes', source: expect.objectContaining({ line: 411 }) }),
    ]);
  });

  it('reads the XC16 memory-model and optimisation options of the dsPIC project', async () => {
    const detected = (await provider.detect(join(sharedFixtures, 'dspic33ck-curiosity-canfd.X')))!;
    const context = await provider.load(detected, {});
    expect(context.toolchain).toMatchObject({ name: 'XC16', version: '2.00' });
    expect(context.toolchain?.options).toContainEqual(expect.objectContaining({ name: 'optimization', value: '-O0' }));
    expect(context.board.architecture).toBe('dsPIC33 (16-bit, dsPIC DSC core)');
  });

  it('lists every source of the fixture projects as missing, since the fixtures hold only project files', async () => {
    const detected = (await provider.detect(join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X')))!;
    const context = await provider.load(detected, {});
    const missing = context.project?.files?.filter((f) => f.missing && f.role === 'source').map((f) => f.path);
    expect(missing).toContain('main.c');
    expect(missing).toContain('Labs/Lab01_HelloWorld/HelloWorld.c');
    expect(context.warnings.map((w) => w.code)).toContain('mplabx-missing-source');
  });
});
