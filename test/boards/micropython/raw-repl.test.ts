import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSerialLink, type ByteLink } from '../../../boards/micropython/link.js';
import { RawRepl, ReplError, type RawReplOptions } from '../../../boards/micropython/raw-repl.js';
import { mapTraceback } from '../../../boards/micropython/traceback.js';
import { startMicrobit, startWasmBoard, type EmulatedBoard } from './emulated-boards.js';

const GREETING = 'for i in range(3):\n    print("frame", i)\n';
const FAILING = 'limit = 10\n\ndef ratio(a):\n    return limit / a\n\nprint("start")\nprint(ratio(0))\n';

const targets: Array<{ name: string; start: () => Promise<EmulatedBoard>; options: RawReplOptions; loop: string; version: RegExp }> = [
  {
    name: 'MicroPython 1.9.2 for the micro:bit in qemu-system-arm',
    start: startMicrobit,
    options: {},
    // The UART interrupt stops even a loop that never calls out.
    loop: 'n = 0\nwhile True:\n    n += 1\n',
    version: /^1\.9/,
  },
  {
    name: 'the MicroPython WebAssembly build behind socat',
    start: startWasmBoard,
    // Its raw-paste reader ends the transfer at once; plain raw mode works.
    options: { rawPaste: false },
    // The stand-in UART interrupt fires when the script calls out (time, output).
    loop: 'import time\nn = 0\nwhile True:\n    n += 1\n    time.sleep_ms(5)\n',
    version: /^1\.27/,
  },
];

describe.each(targets)('raw REPL runner on $name', ({ start, options, loop, version }) => {
  let board: EmulatedBoard | undefined;
  let link: ByteLink | undefined;
  let repl: RawRepl | undefined;

  beforeEach(async () => {
    board = await start();
    link = await openSerialLink(board.path);
    repl = new RawRepl(link, options);
    await repl.enter();
  });

  afterEach(async () => {
    repl?.dispose();
    await link?.close();
    await board?.stop();
  });

  it('runs a script and streams its output as it arrives', async () => {
    const chunks: string[] = [];
    const result = await repl!.exec(GREETING, { onStdout: (text) => chunks.push(text) });
    expect(result.stdout.replace(/\r\n/g, '\n')).toBe('frame 0\nframe 1\nframe 2\n');
    expect(chunks.join('')).toBe(result.stdout);
    expect(result).toMatchObject({ stderr: '', interrupted: false, timedOut: false });
    const again = await repl!.exec('import sys\nprint(".".join(str(n) for n in sys.implementation.version))\n');
    expect(again.stdout.trim()).toMatch(version);
  });

  it('maps a traceback to the script lines that raised it', async () => {
    const result = await repl!.exec(FAILING);
    expect(result.stdout.trim()).toBe('start');
    const traceback = mapTraceback(result.stderr, { name: 'main.py', text: FAILING });
    expect(traceback?.error).toMatch(/^ZeroDivisionError: divi/);
    expect(traceback?.frames).toEqual([
      { file: 'main.py', line: 7, function: '<module>', source: 'print(ratio(0))' },
      { file: 'main.py', line: 4, function: 'ratio', source: 'return limit / a' },
    ]);
    expect(traceback?.text).toContain('File "main.py", line 4, in ratio');
  });

  it('stops an infinite loop with Ctrl-C and is ready for the next script', async () => {
    const controller = new AbortController();
    const running = repl!.exec(loop, { signal: controller.signal });
    setTimeout(() => controller.abort(), 500);
    const result = await running;
    expect(result.interrupted).toBe(true);
    expect(mapTraceback(result.stderr, { name: 'loop.py', text: loop })?.error).toMatch(/^KeyboardInterrupt/);
    expect((await repl!.exec('print(6 * 7)\n')).stdout.trim()).toBe('42');
  });

  it('stops a script that outlives its time limit', async () => {
    const result = await repl!.exec(loop, { timeoutMs: 300 });
    expect(result).toMatchObject({ interrupted: true, timedOut: true });
  });

  it('reports an unplugged board as an error naming the port', async () => {
    const outcome = repl!.exec(loop).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await board!.stop();
    const error = await outcome;
    expect(error).toBeInstanceOf(ReplError);
    expect((error as ReplError).message).toContain(link!.path);
  });
});

describe('raw REPL runner on a port where nothing answers', () => {
  it('times out with an error saying what to check, and the port can be opened again', async () => {
    // A linked pty pair: our end is a real tty, the other end is never read.
    const dir = mkdtempSync(join(tmpdir(), 'silent-'));
    const ours = join(dir, 'ttyHOST');
    const socat = spawn('socat', [`pty,raw,echo=0,link=${ours}`, `pty,raw,echo=0,link=${join(dir, 'ttyDEAD')}`], { stdio: 'ignore' });
    try {
      while (!existsSync(ours)) await new Promise((resolve) => setTimeout(resolve, 20));
      const link = await openSerialLink(ours);
      const repl = new RawRepl(link, { answerTimeoutMs: 600 });
      const error = await repl.enter().catch((e: unknown) => e);
      repl.dispose();
      await link.close();
      expect(error).toBeInstanceOf(ReplError);
      expect((error as Error).message).toMatch(/stopped answering: it did not enter the raw REPL within 0\.6 s; it sent nothing — check that a MicroPython board is connected/);
      const reopened = await openSerialLink(ours);
      await reopened.close();
    } finally {
      socat.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
