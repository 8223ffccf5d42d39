import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandIo } from '../../../boards/command.js';
import { EXIT } from '../../../boards/micropython/commands.js';
import { micropythonCommands } from '../../../boards/operation-faces.js';
import { openHubLink } from '../../../boards/micropython/hub-link.js';
import { PortBusyError } from '../../../boards/serial/errors.js';
import { SerialHub } from '../../../boards/serial/hub.js';
import { startWasmBoard, type EmulatedBoard } from './emulated-boards.js';

describe('run-script through the serial hub on the MicroPython WebAssembly build behind socat', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'hub-run-'));
  writeFileSync(join(workspace, 'count.py'), 'import time\nfor i in range(30):\n    print(i)\n    time.sleep_ms(20)\n');
  let board: EmulatedBoard;
  const hub = new SerialHub();

  beforeEach(async () => {
    board = await startWasmBoard();
  });
  afterEach(async () => {
    await hub.close();
    await board.stop();
  });
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it('owns the port while the script runs and gives it back afterwards', async () => {
    const commands = micropythonCommands({ consent: async () => ({ granted: true }), openLink: (path) => openHubLink(hub, path, 'run-script') });
    const output: string[] = [];
    const io: CommandIo = { write: (text) => output.push(text), signal: new AbortController().signal, cwd: workspace, env: {} };
    const running = commands.get('run-script')!(['count.py', '--port', board.path, '--no-raw-paste'], io);
    while (!output.join('').includes('3\n')) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(hub.holder(board.path)).toBe('run-script');
    await expect(hub.open(board.path, {}, 'monitor')).rejects.toBeInstanceOf(PortBusyError);
    expect(await running).toBe(EXIT.ok);
    expect(output.join('')).toBe(Array.from({ length: 30 }, (_, i) => `${i}\n`).join(''));
    expect(hub.holder(board.path)).toBeUndefined();
  });
});
