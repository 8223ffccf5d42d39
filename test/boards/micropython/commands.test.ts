import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandIo } from '../../../boards/command.js';
import { crlfToLf, EXIT } from '../../../boards/micropython/commands.js';
import { micropythonCommands } from '../../../boards/operation-faces.js';
import { openSerialLink } from '../../../boards/micropython/link.js';
import { RawRepl } from '../../../boards/micropython/raw-repl.js';
import { startMicrobit, startWasmBoard, type EmulatedBoard } from './emulated-boards.js';

/** The person's answer to the consent a run of a script asks (these tests are about the run). */
const personSaysYes = { consent: async () => ({ granted: true }) };

const workspace = mkdtempSync(join(tmpdir(), 'run-script-'));
writeFileSync(join(workspace, 'blink.py'), 'for i in range(2):\n    print("blink", i)\n');
writeFileSync(join(workspace, 'crash.py'), 'import time\n\nvalues = [1, 2]\nprint(values[5])\n');
writeFileSync(join(workspace, 'forever.py'), 'import time\nwhile True:\n    print("tick")\n    time.sleep_ms(50)\n');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** Waits until the command has printed `text`; fails with what it printed if it ended first. */
async function printed(t: { text: () => string }, text: string, running: Promise<number>): Promise<void> {
  let code: number | undefined;
  void running.then((c) => (code = c));
  while (!t.text().includes(text)) {
    if (code !== undefined) throw new Error(`the command ended (exit ${code}) before printing ${JSON.stringify(text)}: ${t.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function terminal(signal = new AbortController().signal) {
  const output: string[] = [];
  const io: CommandIo = { write: (text) => output.push(text), signal, cwd: workspace, env: {} };
  return { io, text: () => output.join('') };
}

describe('run-script, stop-script and camera-info on the MicroPython WebAssembly build behind socat', () => {
  let board: EmulatedBoard;
  const commands = micropythonCommands(personSaysYes);
  const run = (argv: string[], io: CommandIo) => commands.get('run-script')!(argv, io);

  // A fresh board per test, killed at its end: no test inherits another's board state.
  beforeEach(async () => {
    board = await startWasmBoard();
  });
  afterEach(async () => {
    await board.stop();
  });

  it('run-script prints the output and exits 0', async () => {
    const t = terminal();
    expect(await run(['blink.py', '--port', board.path, '--no-raw-paste'], t.io)).toBe(EXIT.ok);
    expect(t.text()).toBe('blink 0\nblink 1\n');
  });

  it('run-script shows the traceback with the script name and line, and exits 1', async () => {
    const t = terminal();
    expect(await run(['crash.py', '--port', board.path, '--no-raw-paste'], t.io)).toBe(EXIT.failed);
    expect(t.text()).toContain('File "crash.py", line 4, in <module>');
    expect(t.text()).toContain('IndexError');
  });

  it('stop-script stops a run-script of the same bridge, which exits 130', async () => {
    const t = terminal();
    const running = run(['forever.py', '--port', board.path, '--no-raw-paste'], t.io);
    await printed(t, 'tick', running);
    const stop = terminal();
    expect(await commands.get('stop-script')!(['--port', board.path], stop.io)).toBe(EXIT.ok);
    expect(stop.text()).toBe(`stopped the script running on ${board.path}\n`);
    expect(await running).toBe(EXIT.stopped);
    expect(t.text()).toContain('KeyboardInterrupt');
  });

  it('stop-script stops a script left running on the board by an earlier connection', async () => {
    // Start a loop through the raw REPL and walk away without stopping it.
    const link = await openSerialLink(board.path);
    const repl = new RawRepl(link, { rawPaste: false });
    await repl.enter();
    // The loop says it runs before we walk away: a fixed wait could leave before the board had the script.
    let said = '';
    let ended = false;
    const started = repl
      .exec('import time\nprint("looping")\nwhile True:\n    time.sleep_ms(20)\n', { onStdout: (text) => (said += text) })
      .catch(() => undefined)
      .finally(() => (ended = true));
    while (!said.includes('looping')) {
      if (ended) throw new Error(`the loop ended before it said it was running: ${JSON.stringify(said)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    repl.dispose();
    await link.close();
    await started;
    const stop = terminal();
    expect(await commands.get('stop-script')!(['--port', board.path], stop.io)).toBe(EXIT.ok);
    expect(stop.text()).toMatch(new RegExp(`^sent Ctrl-C to ${board.path}; the board answered:\n[\\s\\S]*KeyboardInterrupt`));
    const next = terminal();
    expect(await run(['blink.py', '--port', board.path, '--no-raw-paste'], next.io)).toBe(EXIT.ok);
  });

  it('killing the terminal stops the script and releases the port', async () => {
    const controller = new AbortController();
    const t = terminal(controller.signal);
    const running = run(['forever.py', '--port', board.path, '--no-raw-paste'], t.io);
    await printed(t, 'tick', running);
    controller.abort();
    expect(await running).toBe(EXIT.stopped);
    const next = terminal();
    expect(await run(['blink.py', '--port', board.path, '--no-raw-paste'], next.io)).toBe(EXIT.ok);
  });

  it('run-script --timeout stops a script that runs too long and exits 124', async () => {
    const t = terminal();
    expect(await run(['forever.py', '--port', board.path, '--timeout', '0.4', '--no-raw-paste'], t.io)).toBe(EXIT.timedOut);
    expect(t.text()).toContain(`stopped forever.py on ${board.path} after 0.4 s`);
  });

  it('explains a missing file, a missing port and an unknown option', async () => {
    const missing = terminal();
    expect(await run(['nope.py', '--port', board.path], missing.io)).toBe(EXIT.failed);
    expect(missing.text()).toBe(`cannot read ${join(workspace, 'nope.py')}: no such file\n`);
    // A FIFO in place of the script is refused at once, not waited on.
    execFileSync('mkfifo', [join(workspace, 'pipe.py')]);
    const fifo = terminal();
    expect(await run(['pipe.py', '--port', board.path], fifo.io)).toBe(EXIT.failed);
    expect(fifo.text()).toBe(`cannot read ${join(workspace, 'pipe.py')}: a FIFO (named pipe), not a regular file\n`);
    const noPort = terminal();
    expect(await run(['blink.py'], noPort.io)).toBe(EXIT.usage);
    expect(noPort.text()).toContain('--port is required\nusage: boardbridge run-script <file> --port <port>');
    const unknown = terminal();
    expect(await commands.get('camera-info')!(['--port', board.path, '--colour'], unknown.io)).toBe(EXIT.usage);
    expect(unknown.text()).toContain("Unknown option '--colour'");
  });

  it('names a port that does not exist', async () => {
    const t = terminal();
    expect(await run(['blink.py', '--port', join(workspace, 'ttyNONE')], t.io)).toBe(EXIT.failed);
    expect(t.text()).toContain(`cannot open ${join(workspace, 'ttyNONE')}`);
  });
});

describe('camera-info over the raw REPL on the micro:bit firmware in qemu-system-arm', () => {
  let board: EmulatedBoard | undefined;
  afterEach(async () => {
    await board?.stop();
  });

  it('reports MicroPython and the machine, and that it is not OpenMV firmware', async () => {
    board = await startMicrobit();
    const t = terminal();
    expect(await micropythonCommands(personSaysYes).get('camera-info')!(['--port', board.path, '--json'], t.io)).toBe(EXIT.ok);
    const info = JSON.parse(t.text());
    expect(info).toMatchObject({ port: board.path, protocol: 'repl', micropython: expect.stringMatching(/^1\.9/), machine: expect.stringMatching(/micro:bit/) });
    expect(info.board).toBeUndefined();
  });

  it('run-script uses plain raw mode after the board declines raw-paste', async () => {
    board = await startMicrobit();
    const t = terminal();
    expect(await micropythonCommands(personSaysYes).get('run-script')!(['blink.py', '--port', board.path], t.io)).toBe(EXIT.ok);
    expect(t.text()).toBe('blink 0\nblink 1\n');
  });
});

describe('run-script when the board stops answering (the WebAssembly build in a loop that never yields)', () => {
  let board: EmulatedBoard | undefined;
  afterEach(async () => {
    await board?.stop();
  });

  it('gives up after the answer time-out with an error naming the port, and releases the port', async () => {
    board = await startWasmBoard();
    // A loop that never calls out: the stand-in UART interrupt cannot fire, so Ctrl-C goes unheard.
    writeFileSync(join(workspace, 'hang.py'), 'while True:\n    pass\n');
    // Boot it with the default patience first; the short time-out is for the hang only.
    expect(await micropythonCommands(personSaysYes).get('run-script')!(['blink.py', '--port', board.path, '--no-raw-paste'], terminal().io)).toBe(EXIT.ok);
    const commands = micropythonCommands({ ...personSaysYes, answerTimeoutMs: 800 });
    const t = terminal();
    expect(await commands.get('run-script')!(['hang.py', '--port', board.path, '--timeout', '0.3', '--no-raw-paste'], t.io)).toBe(EXIT.failed);
    expect(t.text()).toContain(`the device on ${board.path} stopped answering: it did not stop the script after Ctrl-C within 0.8 s`);
    const again = await openSerialLink(board.path);
    await again.close();
  });
});

describe('script output line ends', () => {
  it('turns \\r\\n into \\n even when a serial read splits the pair', () => {
    const output = crlfToLf();
    const pieces = ['blink 0\r', '\nblink 1\r\n', 'tick\r', 'x\r'].map((chunk) => output.push(chunk));
    expect(pieces.join('') + output.end()).toBe('blink 0\nblink 1\ntick\rx\r');
    expect(pieces[0]).toBe('blink 0');
  });
});
