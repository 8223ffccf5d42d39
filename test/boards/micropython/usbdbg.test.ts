import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { micropythonCommands } from '../../../boards/operation-faces.js';
import { openSerialLink, type ByteLink } from '../../../boards/micropython/link.js';
import { parseArch, UsbdbgClient, UsbdbgError, usbdbgFrame } from '../../../boards/micropython/usbdbg.js';
import { startStandInCamera, type StandInCamera } from './usbdbg-camera-stand-in.js';

const H7_ARCH = 'OMV4 H7 1024 [H7:0D2B3C4D5E6F708192A3B4C5]';

describe('usbdbg frames', () => {
  it('pack as struct.pack("<BBI", 0x30, cmd, length)', () => {
    expect([...usbdbgFrame(0x80, 12)]).toEqual([0x30, 0x80, 12, 0, 0, 0]);
    expect([...usbdbgFrame(0x83, 64)]).toEqual([0x30, 0x83, 64, 0, 0, 0]);
    expect([...usbdbgFrame(0x05, 0x1234)]).toEqual([0x30, 0x05, 0x34, 0x12, 0, 0]);
  });

  it('split the arch string into arch, board type and unique id', () => {
    const raw = Buffer.alloc(64);
    raw.write(H7_ARCH, 'latin1');
    expect(parseArch(raw)).toEqual({ arch: 'OMV4 H7 1024', type: 'H7', uid: '0D2B3C4D5E6F708192A3B4C5', raw: H7_ARCH });
  });
});

describe('usbdbg client against a stand-in camera on a pty pair', () => {
  let dir: string;
  let socat: ChildProcess;
  let host: string;
  let device: string;
  let camera: StandInCamera | undefined;
  let link: ByteLink | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'usbdbg-'));
    host = join(dir, 'ttyHOST');
    device = join(dir, 'ttyCAM');
    socat = spawn('socat', [`pty,raw,echo=0,link=${host}`, `pty,raw,echo=0,link=${device}`], { stdio: 'ignore' });
    while (!existsSync(host) || !existsSync(device)) await new Promise((resolve) => setTimeout(resolve, 20));
  });

  afterEach(async () => {
    await link?.close();
    await camera?.close();
    link = undefined;
    camera = undefined;
    const exited = new Promise((resolve) => socat.once('exit', resolve));
    socat.kill();
    await exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads firmware version, arch string, sensor id and script state (stand-in camera)', async () => {
    camera = await startStandInCamera(device, { version: [4, 8, 1], arch: H7_ARCH, sensorId: 0x77, scriptRunning: true, printed: 'fps 29.8\n' });
    link = await openSerialLink(host);
    const client = new UsbdbgClient(link);
    await client.connect();
    expect(await client.firmwareVersion()).toBe('4.8.1');
    expect(await client.archString()).toMatchObject({ arch: 'OMV4 H7 1024', type: 'H7' });
    expect(await client.sensorId()).toBe(0x77);
    expect(await client.scriptRunning()).toBe(true);
    expect(await client.state()).toEqual({ scriptRunning: true, text: 'fps 29.8\n' });
    client.dispose();
    expect(camera.frames).toEqual([[0x80, 12], [0x83, 64], [0x90, 4], [0x87, 4], [0x93, 64]]);
  });

  it('sends a script with SCRIPT_EXEC and stops it with SCRIPT_STOP (stand-in camera)', async () => {
    camera = await startStandInCamera(device, { version: [4, 8, 1], arch: H7_ARCH, sensorId: 0x77, scriptRunning: false, printed: '' });
    link = await openSerialLink(host);
    const client = new UsbdbgClient(link);
    await client.execScript('import sensor\nprint("héllo")\n');
    await client.stopScript();
    await client.scriptRunning();
    client.dispose();
    expect(camera.scripts).toEqual(['import sensor\nprint("héllo")\n']);
    expect(camera.frames.map(([command]) => command)).toEqual([0x05, 0x06, 0x87]);
  });

  it('says the camera may run 5.x firmware when it does not answer usbdbg (stand-in camera)', async () => {
    link = await openSerialLink(host);
    const client = new UsbdbgClient(link, { timeoutMs: 300 });
    const error = await client.firmwareVersion().catch((e: unknown) => e);
    client.dispose();
    expect(error).toBeInstanceOf(UsbdbgError);
    expect((error as Error).message).toBe(
      `the camera on ${host} did not send its firmware version within 0.3 s (got 0 of 12 bytes) — is it an OpenMV camera with 4.x firmware? 5.x firmware speaks the OpenMV Protocol instead; close OpenMV IDE if it is connected`,
    );
  });

  it('camera-info --usbdbg names the board and the sensor (stand-in camera)', async () => {
    camera = await startStandInCamera(device, { version: [4, 5, 9], arch: 'NICLAV H7 1024 [NICLAV:000000000000000000000001]', sensorId: 0x21, scriptRunning: false, printed: '' });
    const output: string[] = [];
    const code = await micropythonCommands().get('camera-info')!(['--port', host, '--usbdbg'], {
      write: (text) => output.push(text),
      signal: new AbortController().signal,
      cwd: dir,
      env: {},
    });
    expect(code).toBe(0);
    expect(output.join('')).toBe(
      [`port: ${host} (usbdbg)`, 'board: Arduino Nicla Vision (ARDUINO_NICLA_VISION)', 'arch: NICLAV H7 1024 [NICLAV]', 'firmware: 4.5.9', 'sensor: GC2145 (id 0x21)', 'script running: no', ''].join('\n'),
    );
  });
});
