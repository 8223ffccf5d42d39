import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../boards/compile.js';
import { SerialHub } from '../../boards/serial/hub.js';
import { ArduinoBuilder, debianLayout } from '../../boards/toolchains/arduino-builder.js';
import { describeUpload, grantUpload } from '../../boards/upload/consent.js';
import { boardCommands } from '../../boards/operation-faces.js';
import { recordedIo } from '../rig/command-io.js';
import { upload, uploadTarget } from '../../boards/upload/upload.js';
import { startEmulatedUno, type EmulatedUno } from '../rig/emulated-uno.js';
import { GREETER, sketchFolder } from '../rig/sketches.js';

const FQBN = 'arduino:avr:uno';
const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout('/nonexistent-sketchbook'));
let uno: EmulatedUno;
let hub: SerialHub;

beforeAll(async () => {
  uno = await startEmulatedUno();
  hub = new SerialHub({ reconnectIntervalMs: 100 });
});

afterAll(async () => {
  await hub?.close();
  await uno?.stop();
});

async function compiled(name: string, source: string): Promise<string> {
  const sketch = sketchFolder(name, source);
  const report = await compile({ sketch, fqbn: FQBN, tool: builder });
  expect(report.success, report.output).toBe(true);
  return sketch;
}

describe('upload to an emulated Uno (simavr + ATmegaBOOT on a pty, real avrdude)', () => {
  it('uploads a freshly compiled sketch with avrdude and the monitor then reads what it prints', async () => {
    const sketch = await compiled('Greeter', GREETER);
    const target = uploadTarget(sketch, FQBN, uno.port, 'Arduino Uno');
    expect(describeUpload(target)).toMatch(/^upload .*Greeter\.ino\.hex to Arduino Uno on .*ttyACM0\?$/);
    const lines: string[] = [];
    const result = await upload({
      sketch,
      fqbn: FQBN,
      port: uno.port,
      consent: grantUpload(target, 'test'),
      tool: builder,
      hub,
      verbose: true,
      onOutput: (line) => lines.push(line),
    });
    expect(result.problem).toBeUndefined();
    expect(result.success).toBe(true);
    expect(result.command[0]).toBe('/usr/bin/avrdude');
    expect(result.command).toContain(`-P${uno.port}`);
    expect(result.verifiedBytes).toBeGreaterThan(500);
    expect(lines.join('\n')).toContain('bytes of flash verified');

    const monitor = await hub.open(uno.port, { baudRate: 115200 }, 'monitor');
    const reader = monitor.reader('oldest');
    await reader.expect(/hello from the emulated uno/, { timeoutMs: 20_000 });
    await reader.expect(/tick 2\r?\n/, { timeoutMs: 20_000 });
    await monitor.release();
  });

  it('pauses a monitor held open during an upload and resumes it on the new sketch', async () => {
    const monitor = await hub.open(uno.port, { baudRate: 115200 }, 'monitor in terminal 1');
    const reader = monitor.reader();
    const sketch = await compiled('Second', GREETER.replace('hello from the emulated uno', 'second sketch here'));
    const target = uploadTarget(sketch, FQBN, uno.port);
    const statesDuringUpload = new Set<string>();
    const result = await upload({
      sketch,
      fqbn: FQBN,
      port: uno.port,
      consent: grantUpload(target, 'test'),
      tool: builder,
      hub,
      onOutput: () => statesDuringUpload.add(monitor.state),
    });
    expect(result.success, result.output).toBe(true);
    expect([...statesDuringUpload]).toEqual(['paused']);
    expect(monitor.state).toBe('open');
    await reader.expect(/second sketch here/, { timeoutMs: 20_000 });
    await monitor.release();
  });

  it('refuses to upload without consent for exactly this image and port', async () => {
    const sketch = await compiled('Greeter', GREETER);
    const target = uploadTarget(sketch, FQBN, uno.port);
    const elsewhere = grantUpload({ ...target, port: '/dev/ttyACM9' }, 'test');
    await expect(upload({ sketch, fqbn: FQBN, port: uno.port, consent: elsewhere, tool: builder })).rejects.toThrow(
      /upload refused: consent was for .* on \/dev\/ttyACM9/,
    );
  });

  it('runs `boardbridge upload` then `boardbridge monitor --until` against the board, asking the broker first', async () => {
    const asked: string[] = [];
    const commands = boardCommands({
      hub,
      tool: builder,
      owner: 'terminal 7',
      requestUploadConsent: async (target, question) => {
        asked.push(question);
        return grantUpload(target, 'test person');
      },
    });
    const sketch = sketchFolder('ViaCommand', GREETER.replace('hello from the emulated uno', 'uploaded by command'));
    const uploadIo = recordedIo(sketch);
    expect(await commands.get('upload')!(['--fqbn', FQBN, '--port', uno.port], uploadIo), uploadIo.output()).toBe(0);
    expect(asked).toEqual([expect.stringMatching(/^upload .*ViaCommand\.ino\.hex to arduino:avr:uno on .*ttyACM0\?$/)]);
    expect(uploadIo.output()).toContain(`Uploaded `);

    const monitorIo = recordedIo();
    const exit = await commands.get('monitor')!(
      ['--port', uno.port, '--baud', '115200', '--until', 'tick 1\\r?\\n', '--for', '20s'],
      monitorIo,
    );
    expect(exit, monitorIo.output()).toBe(0);
    expect(monitorIo.output()).toContain('uploaded by command');
  });
});
