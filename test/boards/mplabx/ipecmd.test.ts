// Programming with MPLAB IPE's ipecmd: the arguments come from the project's
// own device and tool, never from probing; nothing runs without a device or
// without the permission broker's consent token for that image, part and tool. ipecmd itself
// cannot be installed here, so runs use a stand-in script that records its arguments.
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mplabxCommands } from '../../../boards/operation-faces.js';
import { grantProgram, ipecmdArguments, ipecmdPartName, programMplabProject, resolveProgramTarget, type ProgramConsent, type ProgramTarget } from '../../../boards/mplabx/index.js';
import { ownFixtures, sharedFixtures, removeTempDirs, tempDir } from '../../context-providers/mplabx/support.js';

afterAll(removeTempDirs);

describe('ipecmd arguments', () => {
  it('name the programmer and the project part, never asking the part', () => {
    expect(ipecmdArguments({ device: 'PIC18F47Q10', tool: 'PK4Tool', hexFile: '/p/a.hex' })).toEqual({ args: ['-TPPK4', '-P18F47Q10', '-F/p/a.hex', '-M', '-OL'] });
    expect(ipecmdArguments({ device: 'dsPIC33CK256MP508', tool: 'pkob4hybrid', hexFile: 'b.hex', toolSerial: 'BUR1234' })).toEqual({
      args: ['-TPPKOB4', '-P33CK256MP508', '-Fb.hex', '-M', '-OL', '-TSBUR1234'],
    });
    expect(ipecmdArguments({ device: 'ATmega4809', tool: 'SN', hexFile: 'c.hex' })).toEqual({ args: ['-TPSN', '-PATmega4809', '-Fc.hex', '-M', '-OL'] });
    expect(ipecmdPartName('PIC32MZ2048EFH144')).toBe('32MZ2048EFH144');
  });

  it('refuse without a device', () => {
    for (const device of [undefined, '', '   ']) {
      const result = ipecmdArguments({ device, tool: 'PK4Tool', hexFile: 'a.hex' });
      expect(result).toEqual({ error: expect.stringContaining('refusing to program: the project names no device') });
    }
  });

  it('refuse the simulator, a missing tool and a tool with no ipecmd code', () => {
    expect(ipecmdArguments({ device: 'PIC16F877A', tool: 'Simulator', hexFile: 'a.hex' })).toEqual({ error: expect.stringContaining('the simulator') });
    expect(ipecmdArguments({ device: 'PIC16F877A', tool: undefined, hexFile: 'a.hex' })).toEqual({ error: expect.stringContaining('names no programmer') });
    expect(ipecmdArguments({ device: 'PIC16F877A', tool: 'MysteryProbe', hexFile: 'a.hex' })).toEqual({ error: expect.stringContaining('"MysteryProbe" has no known ipecmd code') });
  });
});

function standInIpecmd(dir: string, exitCode = 0): { path: string; log: string } {
  const log = join(dir, 'ipecmd-args.txt');
  const path = join(dir, 'ipecmd-stand-in.sh');
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\necho "Programming/Verify complete"\nexit ${exitCode}\n`);
  chmodSync(path, 0o755);
  return { path, log };
}

function builtPic18Project(): string {
  const folder = join(tempDir('mplabx-program-'), 'pic18f47q10-curiosity-hpc-demo-code.X');
  cpSync(join(sharedFixtures, 'pic18f47q10-curiosity-hpc-demo-code.X'), folder, { recursive: true });
  mkdirSync(join(folder, 'dist', 'pro', 'production'), { recursive: true });
  writeFileSync(join(folder, 'dist', 'pro', 'production', 'pic18f47q10-curiosity-hpc-demo-code.X.production.hex'), ':00000001FF\n');
  return folder;
}

async function consentFor(project: string, configuration: string, change: Partial<ProgramTarget> = {}): Promise<ProgramConsent> {
  const resolved = await resolveProgramTarget({ project, configuration });
  if ('error' in resolved) throw new Error(resolved.error);
  return grantProgram({ ...resolved.target, ...change }, 'test: person said yes');
}

describe('programming a project (stand-in ipecmd)', () => {
  it('runs ipecmd with the configuration\'s device, tool and built image when consent names that device', async () => {
    const folder = builtPic18Project();
    const ipecmd = standInIpecmd(join(folder, '..'));
    const result = await programMplabProject({ project: folder, configuration: 'pro', consent: await consentFor(folder, 'pro'), ipecmd: ipecmd.path });
    expect(result.ok).toBe(true);
    const hex = join(folder, 'dist', 'pro', 'production', 'pic18f47q10-curiosity-hpc-demo-code.X.production.hex');
    expect(readFileSync(ipecmd.log, 'utf8').trim().split('\n')).toEqual(['-TPPKOB4', '-P18F47Q10', `-F${hex}`, '-M', '-OL']);
    expect(result.output).toContain('Programming/Verify complete');
  });

  it('refuses a consent given for another part, and anything that is not a consent token', async () => {
    const folder = builtPic18Project();
    const ipecmd = standInIpecmd(join(folder, '..'));
    const otherPart = await programMplabProject({ project: folder, configuration: 'pro', consent: await consentFor(folder, 'pro', { device: 'PIC18F47K42' }), ipecmd: ipecmd.path });
    expect(otherPart).toMatchObject({ ok: false, message: expect.stringMatching(/^refusing to program: consent was for .* into PIC18F47K42 with PKOB4, not .* into PIC18F47Q10 with PKOB4$/) });
    const forged = { target: (await consentFor(folder, 'pro')).target, grantedBy: 'nobody' } as unknown as ProgramConsent;
    const refused = await programMplabProject({ project: folder, configuration: 'pro', consent: forged, ipecmd: ipecmd.path });
    expect(refused.message).toBe('refusing to program: no consent token; the permission broker must ask first');
    expect(() => readFileSync(ipecmd.log)).toThrow();
  });

  it('asks to build first when the image is missing', async () => {
    const folder = builtPic18Project();
    rmSync(join(folder, 'dist'), { recursive: true });
    const consent = grantProgram({ project: folder, configuration: 'free', device: 'PIC18F47Q10', tool: 'PKOB4', image: 'x.hex' }, 'test');
    const result = await programMplabProject({ project: folder, configuration: 'free', consent, ipecmd: '/bin/false' });
    expect(result.message).toMatch(/^nothing to program: .*dist\/free\/production\/pic18f47q10-curiosity-hpc-demo-code\.X\.production\.hex does not exist; build configuration "free" first$/);
  });

  it('the `program` command asks the permission broker first and does nothing when refused', async () => {
    const folder = builtPic18Project();
    const ipecmd = standInIpecmd(join(folder, '..'));
    const asked: Array<{ target: ProgramTarget; question: string }> = [];
    const commands = mplabxCommands({ ipecmd: ipecmd.path, requestProgramConsent: async (target, question) => (asked.push({ target, question }), undefined) });
    const written: string[] = [];
    const io = { write: (t: string) => written.push(t), signal: new AbortController().signal, cwd: folder, env: {} };
    expect(await commands.get('program')!(['--conf', 'pro'], io)).toBe(1);
    const image = join(folder, 'dist', 'pro', 'production', 'pic18f47q10-curiosity-hpc-demo-code.X.production.hex');
    expect(asked).toEqual([
      {
        target: { project: folder, configuration: 'pro', device: 'PIC18F47Q10', tool: 'PKOB4', image },
        question: `program ${image} into PIC18F47Q10 with the PKOB4 programmer (MPLAB IPE), erasing what the part holds?`,
      },
    ]);
    expect(written.join('')).toContain('not programmed: permission to program PIC18F47Q10 was not given');
    expect(() => readFileSync(ipecmd.log)).toThrow();
  });

  it('the `program` command programs after consent, and refuses a project with no device without asking', async () => {
    const folder = builtPic18Project();
    const ipecmd = standInIpecmd(join(folder, '..'));
    const commands = mplabxCommands({ ipecmd: ipecmd.path, requestProgramConsent: async (target) => grantProgram(target, 'test: person said yes') });
    const io = { write: () => undefined, signal: new AbortController().signal, cwd: folder, env: {} };
    expect(await commands.get('program')!([folder, '--conf=pro'], io)).toBe(0);

    const noDevice = join(tempDir('mplabx-nodevice-'), 'nodevice.X');
    cpSync(join(ownFixtures, 'avr-blink.X'), noDevice, { recursive: true });
    const conf = join(noDevice, 'nbproject', 'configurations.xml');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace(/<targetDevice>ATmega328P<\/targetDevice>/g, '<targetDevice></targetDevice>'));
    let asked = false;
    const guarded = mplabxCommands({ ipecmd: ipecmd.path, requestProgramConsent: async (target) => ((asked = true), grantProgram(target, 'test')) });
    const written: string[] = [];
    expect(await guarded.get('program')!([noDevice], { ...io, write: (t: string) => written.push(t) })).toBe(1);
    expect(asked).toBe(false);
    expect(written.join('')).toContain('refusing to program: the project names no device');
    expect(written.join('')).toContain('(configuration "release" of avr-blink)');
  });
});

describe('programming an MPLAB for VS Code project (stand-in ipecmd)', () => {
  /** A copy of the real pwr-probe-test project with the configuration's `tool` set and its hex built. */
  function vscodeProject(tool: string | undefined): string {
    const root = join(tempDir('mplabx-vscode-program-'), 'pwr-probe-test');
    cpSync(join(sharedFixtures, 'vscode-pwr-probe-test'), root, { recursive: true });
    const file = join(root, '.vscode', 'pwr-probe-test.mplab.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    if (tool) doc.configurations[0].tool = tool;
    rmSync(file, { force: true });
    writeFileSync(file, JSON.stringify(doc, null, 4));
    mkdirSync(join(root, 'out', 'pwr-probe-test'), { recursive: true });
    writeFileSync(join(root, 'out', 'pwr-probe-test', 'default.hex'), ':00000001FF\n');
    return root;
  }

  it('maps the tool names MPLAB for VS Code writes to ipecmd codes, and names the debuggers it cannot drive', () => {
    expect(ipecmdArguments({ device: 'PIC24EP256MC206', tool: 'MPLAB PICkit 5', hexFile: 'a.hex' })).toEqual({ args: ['-TPPK5', '-P24EP256MC206', '-Fa.hex', '-M', '-OL'] });
    expect(ipecmdArguments({ device: 'PIC18F47Q10', tool: 'MPLAB ICD 4', hexFile: 'a.hex' })).toEqual({ args: ['-TPICD4', '-P18F47Q10', '-Fa.hex', '-M', '-OL'] });
    expect(ipecmdArguments({ device: 'PIC18F47Q10', tool: 'MPLAB Snap', hexFile: 'a.hex' })).toMatchObject({ args: expect.arrayContaining(['-TPSN']) });
    const nano = ipecmdArguments({ device: 'PIC32CM1216MC00032', tool: 'PKOB nano', hexFile: 'a.hex' });
    expect(nano).toEqual({ error: expect.stringContaining('the configuration\'s tool "PKOB nano" is the Curiosity Nano on-board debugger, which boardbridge cannot drive') });
    expect(ipecmdArguments({ device: 'ATSAME54P20A', tool: 'J-Link', hexFile: 'a.hex' })).toEqual({ error: expect.stringContaining('SEGGER J-Link, which boardbridge cannot drive') });
  });

  it("programs the configuration's device with its tool and the hex bin2hex wrote beside the image", async () => {
    const root = vscodeProject('MPLAB PICkit 5');
    const ipecmd = standInIpecmd(join(root, '..'));
    const resolved = await resolveProgramTarget({ project: root });
    if ('error' in resolved) throw new Error(resolved.error);
    const hex = join(root, 'out', 'pwr-probe-test', 'default.hex');
    expect(resolved.target).toEqual({ project: root, configuration: 'default', device: 'PIC24EP256MC206', tool: 'PK5', image: hex });
    const result = await programMplabProject({ project: root, consent: grantProgram(resolved.target, 'test: person said yes'), ipecmd: ipecmd.path });
    expect(result).toMatchObject({ ok: true, message: `programmed PIC24EP256MC206 with ${hex}` });
    expect(readFileSync(ipecmd.log, 'utf8').trim().split('\n')).toEqual(['-TPPK5', '-P24EP256MC206', `-F${hex}`, '-M', '-OL']);
  });

  it('refuses, saying why, when the configuration names no tool or one ipecmd cannot drive', async () => {
    expect(await resolveProgramTarget({ project: vscodeProject(undefined) })).toEqual({ error: expect.stringContaining('"tool" in the .mplab.json configuration') });
    expect(await resolveProgramTarget({ project: vscodeProject('PKOB nano') })).toEqual({ error: expect.stringMatching(/"PKOB nano" is the Curiosity Nano on-board debugger, which boardbridge cannot drive .* \(configuration "default" of pwr-probe-test\)$/) });
  });
});
