import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../boards/compile.js';
import { SerialHub } from '../../boards/serial/hub.js';
import { grantUpload } from '../../boards/upload/consent.js';
import { upload, uploadTarget } from '../../boards/upload/upload.js';
import { ptyPair, stop } from '../rig/pty-pair.js';
import { ArduinoCli } from '../../boards/toolchains/arduino-cli.js';
import { defaultIdeFolders, detectBuildTool } from '../../boards/toolchains/detect.js';
import { GREETER, sketchFolder, BROKEN } from '../rig/sketches.js';
import { standInArduinoCli } from '../rig/stand-in-arduino-cli.js';

describe.each(['0.35.3', '1.0.4'] as const)('arduino-cli %s (stand-in)', (version) => {
  const cli = () => new ArduinoCli(standInArduinoCli(version).executable);

  it('compiles into the sketch’s build folder and reads sizes and libraries from the JSON (stand-in)', async () => {
    const standIn = standInArduinoCli(version);
    const sketch = sketchFolder('Greeter', GREETER);
    const report = await compile({ sketch, fqbn: 'arduino:avr:uno', tool: new ArduinoCli(standIn.executable) });
    expect(report).toMatchObject({
      success: true,
      tool: 'arduino-cli',
      buildPath: join(sketch, 'build', 'arduino.avr.uno'),
      flash: { used: 924, max: 32256 },
      ram: { used: 9, max: 2048 },
      libraries: [{ name: 'Wire', version: '1.0' }],
    });
    const compileCall = standIn.calls().find((args) => args[0] === 'compile');
    expect(compileCall).toEqual(
      expect.arrayContaining(['-b', 'arduino:avr:uno', '--build-path', join(sketch, 'build', 'arduino.avr.uno'), sketch]),
    );
    expect(compileCall?.join(' ')).toContain(version.startsWith('1.') ? '--json' : '--format json');
  });

  it('reports the compile error at the sketch line whether or not the JSON carries diagnostics (stand-in)', async () => {
    const report = await compile({ sketch: sketchFolder('Broken', BROKEN), fqbn: 'arduino:avr:uno', tool: cli() });
    expect(report.success).toBe(false);
    expect(report.diagnostics).toEqual([
      {
        severity: 'ERROR',
        message: "'asd' was not declared in this scope\n asd\n ^~~",
        file: '/home/u/Arduino/Blink/Blink.ino',
        line: 6,
        col: 1,
        context: [{ message: "In function 'void loop()':", file: '/home/u/Arduino/Blink/Blink.ino' }],
      },
    ]);
  });

  it('lists boards on ports, libraries and platforms in one shape (stand-in)', async () => {
    const tool = cli();
    expect(await tool.boardList()).toEqual([
      {
        address: '/dev/ttyACM0',
        label: '/dev/ttyACM0',
        protocol: 'serial',
        vid: '0x2341',
        pid: '0x0043',
        serialNumber: '75830333238351806212',
        boards: [{ name: 'Arduino Uno', fqbn: 'arduino:avr:uno' }],
      },
    ]);
    expect(await tool.libraries()).toEqual([
      { name: 'Servo', version: '1.2.1', installDir: '/home/u/Arduino/libraries/Servo', location: 'user' },
    ]);
    expect(await tool.platforms()).toEqual([
      { id: 'arduino:avr', installed: '1.8.6', latest: '1.8.6', name: 'Arduino AVR Boards' },
    ]);
    expect((await tool.boardProperties('arduino:avr:uno'))['upload.maximum_size']).toBe('32256');
  });
});

describe('upload through arduino-cli', () => {
  it('hands port, board and build folder to `arduino-cli upload --verify` while the monitor on that port is paused (stand-in)', async () => {
    const standIn = standInArduinoCli('1.0.4');
    const tool = new ArduinoCli(standIn.executable);
    const sketch = sketchFolder('Greeter', GREETER);
    await compile({ sketch, fqbn: 'arduino:avr:uno', tool });
    // The stand-in compiles nothing: put an image where the real one would be.
    writeFileSync(join(sketch, 'build', 'arduino.avr.uno', 'Greeter.ino.hex'), ':00000001FF\n');
    const pair = await ptyPair();
    const hub = new SerialHub({ boards: [] });
    try {
      const monitor = await hub.open(pair.device, { baudRate: 115200 }, 'monitor');
      const states: string[] = [];
      const target = uploadTarget(sketch, 'arduino:avr:uno', pair.device);
      const result = await upload({
        sketch, fqbn: 'arduino:avr:uno', port: pair.device, consent: grantUpload(target, 'test'), tool, hub,
        onOutput: () => states.push(monitor.state),
      });
      expect(result).toMatchObject({ success: true, verifiedBytes: 924, port: pair.device });
      expect(states).toEqual(['paused', 'paused']);
      expect(monitor.state).toBe('open');
      expect(standIn.calls().find((args) => args[0] === 'upload')).toEqual([
        'upload', '-p', pair.device, '-b', 'arduino:avr:uno', '--input-dir', join(sketch, 'build', 'arduino.avr.uno'), '--verify', sketch,
      ]);
    } finally {
      await hub.close();
      await stop(pair.socat);
    }
  });
});

describe('toolchain detection', () => {
  it('prefers arduino-cli on PATH over arduino-builder (stand-in)', () => {
    const standIn = standInArduinoCli('1.0.4');
    const tool = detectBuildTool({ path: `${standIn.dir}:/usr/bin`, ideFolders: [] });
    expect(tool.name).toBe('arduino-cli');
    expect(tool.executable).toBe(standIn.executable);
  });

  it('finds the arduino-cli that Arduino IDE 2.x bundles (stand-in IDE folder)', () => {
    const ide = mkdtempSync(join(tmpdir(), 'bb-ide-'));
    const bundled = join(ide, 'resources', 'app', 'lib', 'backend', 'resources');
    mkdirSync(bundled, { recursive: true });
    standInArduinoCli('1.0.4', bundled);
    const tool = detectBuildTool({ path: '/usr/bin', ideFolders: ['/nonexistent', ide] });
    expect(tool.name).toBe('arduino-cli');
    expect(tool.executable).toBe(join(bundled, 'arduino-cli'));
  });

  it("runs the Arduino IDE's own arduino-cli with the IDE's configuration, for compiles and uploads (stand-in IDE folder from BOARDBRIDGE_ARDUINO_IDE)", async () => {
    const ide = mkdtempSync(join(tmpdir(), 'bb-ide-'));
    const home = mkdtempSync(join(tmpdir(), 'bb-home-'));
    const bundled = join(ide, 'resources', 'app', 'lib', 'backend', 'resources');
    mkdirSync(bundled, { recursive: true });
    mkdirSync(join(home, '.arduinoIDE'));
    const config = join(home, '.arduinoIDE', 'arduino-cli.yaml');
    writeFileSync(config, 'directories:\n  data: /home/anna/.arduino15\n  user: /home/anna/Arduino\n');
    const standIn = standInArduinoCli('1.0.4', bundled);
    const tool = detectBuildTool({ path: '/usr/bin', ideFolders: defaultIdeFolders({ BOARDBRIDGE_ARDUINO_IDE: ide }), home });
    expect(tool.executable).toBe(join(bundled, 'arduino-cli'));
    const sketch = sketchFolder('Greeter', GREETER);
    expect((await compile({ sketch, fqbn: 'arduino:avr:uno', tool })).success).toBe(true);
    writeFileSync(join(sketch, 'build', 'arduino.avr.uno', 'Greeter.ino.hex'), ':00000001FF\n'); // the stand-in compiles nothing
    const pair = await ptyPair();
    try {
      const target = uploadTarget(sketch, 'arduino:avr:uno', pair.device);
      const result = await upload({ sketch, fqbn: 'arduino:avr:uno', port: pair.device, consent: grantUpload(target, 'test'), tool });
      expect(result.success).toBe(true);
    } finally {
      await stop(pair.socat);
    }
    const calls = standIn.calls();
    expect(calls.map((args) => args.slice(0, 3))).toEqual(expect.arrayContaining([['--config-file', config, 'compile'], ['--config-file', config, 'upload']]));
    expect(calls.every((args) => args[0] === '--config-file' && args[1] === config)).toBe(true);
  });

  it('falls back to Debian’s arduino-builder when there is no arduino-cli', () => {
    const tool = detectBuildTool({ path: '/usr/bin', ideFolders: [] });
    expect(tool.name).toBe('arduino-builder');
  });

  it('names what to install when neither toolchain is there', () => {
    expect(() => detectBuildTool({ path: '/nonexistent', ideFolders: [] })).toThrow(
      /no Arduino toolchain found: install arduino-cli .* or Arduino IDE 2\.x, or on Debian\/Ubuntu `apt install arduino-builder arduino-core-avr`/,
    );
  });
});
