// Programming with MPLAB IPE's ipecmd: the arguments come from the project's
// own device and tool, never from probing; nothing runs without a device or
// without the permission broker's consent for that device. ipecmd itself
// cannot be installed here, so runs use a stand-in script that records its arguments.
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ipecmdArguments, ipecmdPartName, mplabxCommands, programMplabProject, type ProgramConsent } from '../../../boards/mplabx/index.js';
import { ownFixtures, sharedFixtures, tempDir } from '../../context-providers/mplabx/support.js';

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

const consentFor = (device: string): ProgramConsent => ({ granted: true, operation: 'program', device });

describe('programming a project (stand-in ipecmd)', () => {
  it('runs ipecmd with the configuration\'s device, tool and built image when consent names that device', async () => {
    const folder = builtPic18Project();
    const ipecmd = standInIpecmd(join(folder, '..'));
    const result = await programMplabProject({ project: folder, configuration: 'pro', consent: consentFor('PIC18F47Q10'), ipecmd: ipecmd.path });
    expect(result.ok).toBe(true);
    const hex = join(folder, 'dist', 'pro', 'production', 'pic18f47q10-curiosity-hpc-demo-code.X.production.hex');
    expect(readFileSync(ipecmd.log, 'utf8').trim().split('\n')).toEqual(['-TPPKOB4', '-P18F47Q10', `-F${hex}`, '-M', '-OL']);
    expect(result.output).toContain('Programming/Verify complete');
  });

  it('refuses when the consent was given for another part', async () => {
    const folder = builtPic18Project();
    const ipecmd = standInIpecmd(join(folder, '..'));
    const result = await programMplabProject({ project: folder, configuration: 'pro', consent: consentFor('PIC18F47K42'), ipecmd: ipecmd.path });
    expect(result).toMatchObject({ ok: false, message: "refusing to program: consent was given for PIC18F47K42, but the project's device is PIC18F47Q10" });
  });

  it('asks to build first when the image is missing', async () => {
    const folder = builtPic18Project();
    rmSync(join(folder, 'dist'), { recursive: true });
    const result = await programMplabProject({ project: folder, configuration: 'free', consent: consentFor('PIC18F47Q10'), ipecmd: '/bin/false' });
    expect(result.message).toMatch(/^nothing to program: .*dist\/free\/production\/pic18f47q10-curiosity-hpc-demo-code\.X\.production\.hex does not exist; build configuration "free" first$/);
  });

  it('the `program` command asks the permission broker first and does nothing when refused', async () => {
    const folder = builtPic18Project();
    const ipecmd = standInIpecmd(join(folder, '..'));
    const asked: unknown[] = [];
    const commands = mplabxCommands({ ipecmd: ipecmd.path, askToProgram: async (request) => (asked.push(request), undefined) });
    const written: string[] = [];
    const io = { write: (t: string) => written.push(t), signal: new AbortController().signal, cwd: folder, env: {} };
    expect(await commands.get('program')!(['--conf', 'pro'], io)).toBe(1);
    expect(asked).toEqual([{ project: folder, configuration: 'pro', device: 'PIC18F47Q10', tool: 'pkob4hybrid' }]);
    expect(written.join('')).toContain('not programmed: permission to program PIC18F47Q10 was not given');
    expect(() => readFileSync(ipecmd.log)).toThrow();
  });

  it('the `program` command programs after consent, and refuses a project with no device without asking', async () => {
    const folder = builtPic18Project();
    const ipecmd = standInIpecmd(join(folder, '..'));
    const commands = mplabxCommands({ ipecmd: ipecmd.path, askToProgram: async (request) => consentFor(request.device) });
    const io = { write: () => undefined, signal: new AbortController().signal, cwd: folder, env: {} };
    expect(await commands.get('program')!([folder, '--conf=pro'], io)).toBe(0);

    const noDevice = join(tempDir('mplabx-nodevice-'), 'nodevice.X');
    cpSync(join(ownFixtures, 'avr-blink.X'), noDevice, { recursive: true });
    const conf = join(noDevice, 'nbproject', 'configurations.xml');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace(/<targetDevice>ATmega328P<\/targetDevice>/g, '<targetDevice></targetDevice>'));
    let asked = false;
    const guarded = mplabxCommands({ ipecmd: ipecmd.path, askToProgram: async (request) => ((asked = true), consentFor(request.device)) });
    const written: string[] = [];
    expect(await guarded.get('program')!([noDevice], { ...io, write: (t: string) => written.push(t) })).toBe(1);
    expect(asked).toBe(false);
    expect(written.join('')).toContain('refusing to program: configuration "release" of avr-blink names no device');
  });
});
