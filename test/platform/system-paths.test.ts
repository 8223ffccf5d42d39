// Other systems' paths, names and shims as path logic: no Windows or macOS machine exists here,
// so each test gives the platform, environment and home folder, and no test runs a program.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findExecutable, spawnForm } from '../../boards/executables.js';
import { bindingPath, windowsPortName } from '../../boards/serial/port-name.js';
import { arduinoDataDir, arduinoSketchbookDir, boardbridgeCacheDir, comparablePath, isInsideFolder, userConfigDir } from '../../platform/system-paths.js';
import { debianLayout } from '../../boards/toolchains/arduino-builder.js';
import { simulationBuildFolder } from '../../boards/toolchains/sketch.js';

const windows = { platform: 'win32' as const, home: 'C:\\Users\\Anna', env: { APPDATA: 'C:\\Users\\Anna\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\Anna\\AppData\\Local' } };
const mac = { platform: 'darwin' as const, home: '/Users/anna', env: {} };
const linux = { platform: 'linux' as const, home: '/home/anna', env: {} };

describe('settings and arduino-cli folders on each system (path logic; no Windows or macOS machine here)', () => {
  it('puts the per-user settings in %APPDATA% on Windows, ~/Library/Application Support on macOS, ~/.config on Linux, $XDG_CONFIG_HOME wherever set', () => {
    expect(userConfigDir(windows)).toBe('C:\\Users\\Anna\\AppData\\Roaming');
    expect(userConfigDir({ ...windows, env: {} })).toBe('C:\\Users\\Anna\\AppData\\Roaming');
    expect(userConfigDir(mac)).toBe('/Users/anna/Library/Application Support');
    expect(userConfigDir(linux)).toBe('/home/anna/.config');
    expect(userConfigDir({ ...mac, env: { XDG_CONFIG_HOME: '/Users/anna/.xdg' } })).toBe('/Users/anna/.xdg');
  });

  it("finds arduino-cli's data folder and sketchbook where arduino-cli puts them on each system", () => {
    expect(arduinoDataDir(windows)).toBe('C:\\Users\\Anna\\AppData\\Local\\Arduino15');
    expect(arduinoDataDir(mac)).toBe('/Users/anna/Library/Arduino15');
    expect(arduinoDataDir(linux)).toBe('/home/anna/.arduino15');
    expect(arduinoSketchbookDir(windows)).toBe('C:\\Users\\Anna\\Documents\\Arduino');
    expect(arduinoSketchbookDir(mac)).toBe('/Users/anna/Documents/Arduino');
    expect(arduinoSketchbookDir(linux)).toBe('/home/anna/Arduino');
  });
});

describe("boardbridge's one cache folder", () => {
  it('is $BOARDBRIDGE_CACHE_DIR, else $XDG_CACHE_HOME/boardbridge, else ~/.cache/boardbridge (an empty variable is unset)', () => {
    expect(boardbridgeCacheDir({ BOARDBRIDGE_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c');
    expect(boardbridgeCacheDir({ BOARDBRIDGE_CACHE_DIR: '', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/boardbridge');
    expect(boardbridgeCacheDir({ XDG_CACHE_HOME: '', HOME: '/h' })).toBe('/h/.cache/boardbridge');
  });

  it('holds the simulation builds and the arduino-builder core cache', () => {
    const saved = process.env.BOARDBRIDGE_CACHE_DIR;
    process.env.BOARDBRIDGE_CACHE_DIR = '/moved/cache';
    try {
      expect(simulationBuildFolder('/p/Blink', 'arduino:avr:uno').startsWith('/moved/cache/simulate/Blink-')).toBe(true);
      expect(debianLayout().coreCache).toBe('/moved/cache/arduino-core');
    } finally {
      if (saved === undefined) delete process.env.BOARDBRIDGE_CACHE_DIR;
      else process.env.BOARDBRIDGE_CACHE_DIR = saved;
    }
  });
});

describe('path comparison for the workspace guard (path logic; no Windows or macOS machine here)', () => {
  it('ignores case and slash direction on Windows', () => {
    expect(isInsideFolder('c:\\users\\anna\\blink\\Blink.ino', 'C:\\Users\\Anna\\Blink', 'win32')).toBe(true);
    expect(isInsideFolder('C:/Users/Anna/Blink/src/a.h', 'C:\\Users\\Anna\\Blink', 'win32')).toBe(true);
    expect(isInsideFolder('C:\\Users\\Anna\\Blink2\\x.ino', 'C:\\Users\\Anna\\Blink', 'win32')).toBe(false);
    expect(isInsideFolder('C:\\Users\\Anna\\Blink\\..\\secret.txt', 'C:\\Users\\Anna\\Blink', 'win32')).toBe(false);
    expect(isInsideFolder('D:\\Blink\\Blink.ino', 'C:\\Blink', 'win32')).toBe(false);
  });

  it('ignores case on macOS, and keeps it on Linux', () => {
    expect(isInsideFolder('/users/anna/BLINK/Blink.ino', '/Users/anna/Blink', 'darwin')).toBe(true);
    expect(isInsideFolder('/home/anna/BLINK/Blink.ino', '/home/anna/Blink', 'linux')).toBe(false);
    expect(isInsideFolder('/home/anna/Blink', '/home/anna/Blink', 'linux')).toBe(true);
    expect(comparablePath('/Users/Anna/Blink/', 'darwin')).toBe('/users/anna/blink');
  });
});

describe('Windows serial port names (path logic; no Windows machine here)', () => {
  it('reads COMn, comn, \\\\.\\COMn and \\\\?\\COMn as one port, and nothing else', () => {
    for (const name of ['COM3', 'com3', '\\\\.\\COM3', '\\\\?\\com3', ' COM3 ']) expect(windowsPortName(name), name).toBe('COM3');
    expect(windowsPortName('\\\\.\\COM12')).toBe('COM12');
    for (const name of ['COM0', 'COM', '/dev/ttyACM0', 'COM3x', '\\\\server\\COM3']) expect(windowsPortName(name), name).toBeUndefined();
  });

  it("gives serialport's Windows binding COMn (it adds \\\\.\\ itself), and other systems' paths unchanged", () => {
    expect(bindingPath('\\\\.\\COM12', 'win32')).toBe('COM12');
    expect(bindingPath('com4', 'win32')).toBe('COM4');
    expect(bindingPath('/dev/ttyACM0', 'linux')).toBe('/dev/ttyACM0');
    expect(bindingPath('/dev/cu.usbmodem1101', 'darwin')).toBe('/dev/cu.usbmodem1101');
  });
});

describe('npm shims of agents on Windows (path logic on real files; no Windows machine here)', () => {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'bb-win-shims-'));
  const other = path.join(bin, 'other');
  mkdirSync(other);
  // What `npm install -g` writes on Windows: a sh script, a .cmd and a .ps1 for each bin.
  for (const file of ['claude-code-acp', 'claude-code-acp.cmd', 'claude-code-acp.ps1', 'npx.cmd']) writeFileSync(path.join(bin, file), '');
  writeFileSync(path.join(other, 'only-ps.ps1'), '');
  const search = `${other};${bin}`;

  it('finds the .cmd shim for a bare name (by %PATHEXT%), the .ps1 when it is the only one, and never the sh script', () => {
    expect(findExecutable('claude-code-acp', search, { platform: 'win32', pathext: '.COM;.EXE;.BAT;.CMD' })).toBe(path.join(bin, 'claude-code-acp.cmd'));
    expect(findExecutable('only-ps', search, { platform: 'win32', pathext: '.COM;.EXE;.BAT;.CMD' })).toBe(path.join(other, 'only-ps.ps1'));
    expect(findExecutable('gemini', search, { platform: 'win32' })).toBeUndefined();
  });

  it('runs a .cmd shim through cmd.exe with each argument quoted twice over, so spaces, quotes and & reach the agent as written', () => {
    const form = spawnForm('npx', ['-y', '@zed-industries/claude-code-acp', 'a b', 'say "hi" & more', '100%'], {
      platform: 'win32',
      env: { PATH: search, PATHEXT: '.EXE;.CMD', ComSpec: 'C:\\Windows\\system32\\cmd.exe' },
    });
    expect(form.command).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(form.windowsVerbatimArguments).toBe(true);
    expect(form.args.slice(0, 3)).toEqual(['/d', '/s', '/c']);
    const line = form.args[3];
    expect(line.startsWith(`"^"${path.join(bin, 'npx.cmd')}^" `)).toBe(true);
    expect(line.endsWith(`"`)).toBe(true);
    expect(line).toContain(' ^^^"a^^^ b^^^"');
    expect(line).toContain('^^^"say^^^ \\^^^"hi\\^^^"^^^ ^^^&^^^ more^^^"');
    expect(line).toContain('^^^"100^^^%^^^"');
  });

  it('runs a .ps1 shim through PowerShell, an .exe as it is, and anything on Linux untouched', () => {
    expect(spawnForm('only-ps', ['--acp'], { platform: 'win32', env: { PATH: search } })).toEqual({
      command: 'powershell.exe',
      args: ['-NoProfile', '-ExecutionPolicy', 'Bypass', '-File', path.join(other, 'only-ps.ps1'), '--acp'],
    });
    expect(spawnForm('C:\\Tools\\codex-acp.exe', ['x'], { platform: 'win32', env: { PATH: '' } })).toEqual({ command: 'C:\\Tools\\codex-acp.exe', args: ['x'] });
    expect(spawnForm('npx', ['-y', 'a b'], { platform: 'linux' })).toEqual({ command: 'npx', args: ['-y', 'a b'] });
  });
});
