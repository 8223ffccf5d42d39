// Broken and incomplete projects give warnings that name the file and the
// element or line, and the context holds whatever could still be read.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMplabxProvider } from '../../../context-providers/mplabx/index.js';
import { parseAtdf, parseEdc } from '../../../context-providers/mplabx/index.js';
import { ownFixtures, removeTempDirs, tempDir } from './support.js';

afterAll(removeTempDirs);

const provider = createMplabxProvider({ packRoots: [] });

async function load(folder: string, configuration?: string) {
  const detected = await provider.detect(folder);
  expect(detected, `${folder} should be detected`).toBeDefined();
  return provider.load(detected!, { configuration });
}

describe('bad MPLAB X input', () => {
  it('malformed configurations.xml: a warning with file and line, and the elements before the damage are kept', async () => {
    const context = await load(join(ownFixtures, 'malformed.X'));
    const file = join(ownFixtures, 'malformed.X', 'nbproject', 'configurations.xml');
    expect(context.warnings).toContainEqual(
      expect.objectContaining({ code: 'mplabx-xml', file, line: 21, message: expect.stringContaining("Expected closing tag 'HI-TECH-COMP'") }),
    );
    expect(context.board.id).toBe('PIC16F18446');
    expect(context.toolchain?.options).toContainEqual(expect.objectContaining({ name: 'optimization', value: '-O2' }));
  });

  it('truncated configurations.xml: reported as truncated at its last line, the complete configuration still read', async () => {
    const context = await load(join(ownFixtures, 'truncated.X'));
    const file = join(ownFixtures, 'truncated.X', 'nbproject', 'configurations.xml');
    expect(context.warnings).toContainEqual(expect.objectContaining({ code: 'mplabx-xml', file, line: 36, message: expect.stringContaining('truncated') }));
    expect(context.board.id).toBe('ATmega328P');
    expect(context.project?.configurations?.map((c) => c.name)).toEqual(['default']);
  });

  it('an unknown toolchain is named with its file and line, and no options are invented', async () => {
    const context = await load(join(ownFixtures, 'unknown-toolchain.X'));
    expect(context.warnings).toContainEqual(
      expect.objectContaining({ code: 'mplabx-unknown-toolchain', line: 10, message: expect.stringContaining('toolchain "SDCC" is not one boardbridge knows') }),
    );
    expect(context.toolchain).toMatchObject({ name: 'SDCC', version: '4.2', options: [] });
  });

  it('a missing pack names the pack and version the project wants and the context goes on without it', async () => {
    const context = await load(join(ownFixtures, 'avr-blink.X'));
    const warning = context.warnings.find((w) => w.code === 'mplabx-pack-missing');
    expect(warning?.message).toContain('the project wants ATmega_DFP 3.0.158 for ATmega328P');
    expect(warning?.line).toBe(44);
    expect(context.pins.map((p) => p.names.join('='))).toEqual(['PB5=LED', 'PD2=BUTTON']);
  });

  it('missing sources are listed with the line of their itemPath', async () => {
    const context = await load(join(ownFixtures, 'avr-blink.X'));
    expect(context.project?.files).toContainEqual({ path: '../shared/uart_log.c', role: 'source', missing: true, source: { file: join(ownFixtures, 'avr-blink.X', 'nbproject', 'configurations.xml'), line: 9 } });
    expect(context.project?.files?.find((f) => f.path === 'main.c')?.missing).toBeUndefined();
  });

  it('an unknown --conf is a warning that lists the configurations, and the default one is used', async () => {
    const context = await load(join(ownFixtures, 'avr-blink.X'), 'debug');
    expect(context.project?.configuration).toBe('release');
    expect(context.warnings[0].message).toContain('configuration "debug" does not exist in avr-blink (available: default, release)');
  });

  it('empty, binary and missing project files never throw', async () => {
    const root = tempDir('mplabx-bad-');
    const cases: Record<string, string | Buffer> = {
      'empty.X': '',
      'binary.X': Buffer.from([0xff, 0xfe, 0x00, 0x3c, 0x00, 0x01, 0x02]),
      'no-confs.X': '<?xml version="1.0"?><configurationDescriptor version="65"></configurationDescriptor>',
    };
    for (const [name, configurations] of Object.entries(cases)) {
      const folder = join(root, name);
      mkdirSync(join(folder, 'nbproject'), { recursive: true });
      writeFileSync(join(folder, 'nbproject', 'project.xml'), '<project><type>com.microchip.mplab.nbide.embedded.makeproject</type></project>');
      writeFileSync(join(folder, 'nbproject', 'configurations.xml'), configurations);
      const context = await load(folder);
      expect(context.warnings.length, name).toBeGreaterThan(0);
      expect(context.warnings.every((w) => w.message.includes(folder)), name).toBe(true);
      expect(provider.render(context)).toContain('unknown device');
    }
    const onlyProject = join(root, 'only-project.X');
    mkdirSync(join(onlyProject, 'nbproject'), { recursive: true });
    writeFileSync(join(onlyProject, 'nbproject', 'project.xml'), '<project><type>com.microchip.mplab.nbide.embedded.makeproject</type></project>');
    const context = await load(onlyProject);
    expect(context.warnings).toContainEqual(expect.objectContaining({ code: 'mplabx-missing-file', message: expect.stringContaining('configurations.xml: not found') }));
  });

  it('a .mplab.json that is not JSON is a warning naming the file', async () => {
    const root = tempDir('mplabx-vscode-bad-');
    mkdirSync(join(root, '.vscode'));
    writeFileSync(join(root, '.vscode', 'broken.mplab.json'), '{ "configurations": [ { "name": "default", ');
    const context = await load(root);
    expect(context.warnings[0]).toMatchObject({ code: 'mplabx-json', file: join(root, '.vscode', 'broken.mplab.json') });
  });

  it('device files that are not device files, or are cut short, give warnings instead of facts', () => {
    const html = parseAtdf('<html><body/></html>', 'x.atdf');
    expect(html.facts).toBeUndefined();
    expect(html.warnings).toEqual([expect.objectContaining({ code: 'mplabx-atdf', file: 'x.atdf' })]);
    expect(parseEdc('not xml at all', 'x.PIC').facts).toBeUndefined();
    const cut = parseEdc('<edc:PIC xmlns:edc="e" edc:name="PIC16F1" edc:arch="16xxxx"><edc:PinList><edc:Pin><edc:VirtualPin edc:name="RA0"/>', 'cut.PIC');
    expect(cut.warnings[0]).toMatchObject({ code: 'mplabx-xml', file: 'cut.PIC' });
    expect(cut.facts?.pads).toEqual([expect.objectContaining({ pad: 'RA0' })]);
  });
});
