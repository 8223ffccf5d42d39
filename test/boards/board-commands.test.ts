import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boardCommands, SerialHub, ArduinoBuilder, debianLayout, type CommandTable } from '../../boards/index.js';
import { recordedIo } from '../rig/command-io.js';
import { openBoardEnd, type BoardEnd } from '../rig/board-end.js';
import { ptyPair, stop, type PtyPair } from '../rig/pty-pair.js';
import { BROKEN, GREETER, sketchFolder } from '../rig/sketches.js';
import { standInUdevadm } from '../rig/stand-in-udevadm.js';

const builder = new ArduinoBuilder('/usr/bin/arduino-builder', debianLayout('/nonexistent-sketchbook'));
let hub: SerialHub;
let commands: CommandTable;
let pair: PtyPair;
let board: BoardEnd;
const questions: string[] = [];

beforeEach(async () => {
  hub = new SerialHub({
    boards: [{ fqbn: 'arduino:avr:uno', name: 'Arduino Uno', vid: '2341', pid: '0043' }],
  });
  commands = boardCommands({
    hub,
    tool: builder,
    owner: 'terminal 1',
    requestUploadConsent: async (target, question) => {
      questions.push(question);
      return undefined;
    },
  });
  pair = await ptyPair();
  board = await openBoardEnd(pair.board);
});

afterEach(async () => {
  await hub.close();
  await board.close();
  await stop(pair.socat);
});

const run = (name: string, argv: string[], io = recordedIo()) => commands.get(name)!(argv, io);

describe('boardbridge monitor', () => {
  it('prints what the board sends and exits 0 once --until matches', async () => {
    const io = recordedIo();
    const done = run('monitor', ['--port', pair.device, '--baud', '115200', '--until', 'READY', '--for', '10s'], io);
    while (!hub.holder(pair.device)) await new Promise((resolve) => setTimeout(resolve, 10));
    await board.write('booting\nREADY\n');
    expect(await done).toBe(0);
    expect(io.output()).toContain('booting\nREADY');
    expect(hub.holder(pair.device)).toBeUndefined();
  });

  it('exits 1 naming the pattern when --for runs out before --until matches', async () => {
    const io = recordedIo();
    expect(await run('monitor', ['--port', pair.device, '--until', 'NEVER', '--for', '300ms'], io)).toBe(1);
    expect(io.output()).toContain('[no match for /NEVER/ on');
    expect(io.output()).toContain('within 300ms]');
  });

  it('stamps each line with the time when asked for --timestamps', async () => {
    const io = recordedIo();
    const done = run('monitor', ['--port', pair.device, '--timestamps', '--until', 'two\\n', '--for', '10s'], io);
    while (!hub.holder(pair.device)) await new Promise((resolve) => setTimeout(resolve, 10));
    await board.write('one\ntwo\n');
    expect(await done).toBe(0);
    expect(io.output()).toMatch(/^\d\d:\d\d:\d\d\.\d{3} one\n\d\d:\d\d:\d\d\.\d{3} two\n$/);
  });

  it('stops on terminal/kill and gives the port back', async () => {
    const io = recordedIo();
    const done = run('monitor', ['--port', pair.device], io);
    while (!hub.holder(pair.device)) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(hub.holder(pair.device)).toMatch(/^terminal 1 #\d+$/);
    io.kill();
    expect(await done).toBe(0);
    expect(hub.holder(pair.device)).toBeUndefined();
  });

  it('reads alongside a monitor that already holds the port', async () => {
    const first = recordedIo();
    const holding = run('monitor', ['--port', pair.device, '--until', 'bye', '--for', '10s'], first);
    while (!hub.holder(pair.device)) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = recordedIo();
    let ended = false;
    const alongside = run('monitor', ['--port', pair.device, '--until', 'bye', '--for', '10s'], second).finally(() => (ended = true));
    // The second monitor says it reads alongside once its reader is attached: only then may the board speak.
    while (!second.output().includes('reading alongside')) {
      if (ended) throw new Error(`the second monitor ended before reading alongside: ${second.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await board.write('bye\n');
    expect(await Promise.all([holding, alongside])).toEqual([0, 0]);
    expect(second.output()).toMatch(/is held by terminal 1 #\d+; reading alongside\]\nbye/);
  });

  it('explains a missing --port with the usage line', async () => {
    const io = recordedIo();
    expect(await run('monitor', ['--baud', '9600'], io)).toBe(2);
    expect(io.output()).toMatch(/--port is required\nusage: boardbridge monitor --port <port>/);
  });
});

describe('boardbridge compile and ports', () => {
  it('prints the compile error at the sketch line and exits 1', async () => {
    const sketch = sketchFolder('Broken', BROKEN);
    const io = recordedIo(sketch);
    expect(await run('compile', ['--fqbn', 'arduino:avr:uno'], io)).toBe(1);
    expect(io.output()).toContain(`${join(sketch, 'Broken.ino')}:6:3: error: 'undeclaredThing' was not declared in this scope`);
  });

  it('takes the board from sketch.yaml and prints flash and RAM use', async () => {
    const sketch = sketchFolder('Greeter', GREETER);
    writeFileSync(join(sketch, 'sketch.yaml'), 'default_fqbn: arduino:avr:uno\n');
    const io = recordedIo();
    expect(await run('compile', [sketch], io)).toBe(0);
    expect(io.output()).toMatch(/Flash: \d+ of 32256 bytes \(\d+%\)\nRAM: \d+ of 2048 bytes/);
  });

  it('asks for a board when neither --fqbn nor sketch.yaml names one', async () => {
    const io = recordedIo();
    expect(await run('compile', [sketchFolder('Greeter', GREETER)], io)).toBe(2);
    expect(io.output()).toMatch(/pass --fqbn .* or set default_fqbn in sketch.yaml/);
  });

  it('does not upload when the person refuses, after showing what would be written where', async () => {
    const sketch = sketchFolder('Greeter', GREETER);
    const io = recordedIo();
    expect(await run('upload', [sketch, '--fqbn', 'arduino:avr:uno', '--port', pair.device], io)).toBe(1);
    expect(questions.at(-1)).toBe(`upload ${join(sketch, 'build', 'arduino.avr.uno', 'Greeter.ino.hex')} to arduino:avr:uno on ${pair.device}?`);
    expect(io.output()).toContain(`Upload cancelled: permission to write to ${pair.device} was not given.`);
  });

  it('lists ports with the board a stand-in udevadm’s 2341:0043 identifies', async () => {
    const savedPath = process.env.PATH;
    process.env.PATH = `${standInUdevadm([{ path: '/dev/ttyACM0', vid: '2341', pid: '0043', serial: 'X1', vendor: 'Arduino' }])}:${savedPath}`;
    try {
      const io = recordedIo();
      expect(await run('ports', [], io)).toBe(0);
      expect(io.output()).toBe('/dev/ttyACM0 2341:0043  Arduino Uno (arduino:avr:uno)\n');
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
