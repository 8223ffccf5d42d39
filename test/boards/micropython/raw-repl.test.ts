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
    // The UART interrupt stops even a loop that never calls out (it says it runs, then is silent).
    // `n` is set before it says so: a stop that follows "looping" then always finds `n` defined.
    loop: 'n = 0\nprint("looping")\nwhile True:\n    n += 1\n',
    version: /^1\.9/,
  },
  {
    name: 'the MicroPython WebAssembly build behind socat',
    start: startWasmBoard,
    // Its raw-paste reader ends the transfer at once; plain raw mode works.
    options: { rawPaste: false },
    // The stand-in UART interrupt fires when the script calls out (time, output).
    loop: 'import time\nn = 0\nprint("looping")\nwhile True:\n    n += 1\n    time.sleep_ms(5)\n',
    version: /^1\.27/,
  },
];

/** Starts `loop`; `looping` resolves once it has said it runs (a stop then meets a running script). */
function startLoop(repl: RawRepl, loop: string, signal?: AbortSignal): { running: Promise<unknown>; looping: Promise<void> } {
  let said: () => void = () => undefined;
  const looping = new Promise<void>((resolve) => (said = resolve));
  let out = '';
  const running = repl.exec(loop, { signal, onStdout: (text) => ((out += text), out.includes('looping') && said()) });
  return { running, looping: Promise.race([looping, running.then((r) => Promise.reject(new Error(`the loop ended before it ran: ${JSON.stringify(r)}`)))]) };
}

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
    const { running, looping } = startLoop(repl!, loop, controller.signal);
    await looping;
    controller.abort();
    const result = (await running) as Awaited<ReturnType<RawRepl['exec']>>;
    expect(result.interrupted).toBe(true);
    expect(mapTraceback(result.stderr, { name: 'loop.py', text: loop })?.error).toMatch(/^KeyboardInterrupt/);
    expect((await repl!.exec('print(6 * 7)\n')).stdout.trim()).toBe('42');
  });

  it("leaves only the script's own names in the board's globals when it is stopped mid-run", async () => {
    const names = async () => JSON.parse((await repl!.exec("print(repr(sorted(globals())).replace(\"'\", '\"'))\n")).stdout.trim()) as string[];
    const before = await names();
    // The script runs among the board's globals as if sent directly: none of the runner's are there.
    expect(before.filter((name) => /^_[^_]/.test(name))).toEqual([]);
    const controller = new AbortController();
    const { running, looping } = startLoop(repl!, loop, controller.signal);
    await looping;
    controller.abort();
    expect(((await running) as Awaited<ReturnType<RawRepl['exec']>>).interrupted).toBe(true);
    // `n` is the loop's own, as it would be run directly; `time` the stand-in loop's import.
    const own = loop.includes('import time') ? ['n', 'time'] : ['n'];
    expect(await names()).toEqual([...before, ...own].sort());
  });

  it('stops a script that outlives its time limit', async () => {
    const result = await repl!.exec(loop, { timeoutMs: 300 });
    expect(result).toMatchObject({ interrupted: true, timedOut: true });
  });

  it('reports an unplugged board as an error naming the port', async () => {
    // Unplugged once the loop has said it runs.
    const { running, looping } = startLoop(repl!, loop);
    const outcome = running.catch((e: unknown) => e);
    await looping;
    await board!.stop();
    const error = await outcome;
    expect(error).toBeInstanceOf(ReplError);
    expect((error as ReplError).message).toContain(link!.path);
  });
});

/** A link that loses one byte out of each of its first `damaged` writes of at least `minBytes`, as a starved UART does. */
function lossyLink(link: ByteLink, damaged: number, minBytes = 8): ByteLink & { dropped: () => number } {
  let dropped = 0;
  return {
    path: link.path,
    onData: (listener) => link.onData(listener),
    onClose: (listener) => link.onClose(listener),
    close: () => link.close(),
    dropped: () => dropped,
    write: (bytes) => {
      if (dropped < damaged && bytes.length >= minBytes) {
        dropped++;
        const at = Math.floor(bytes.length / 2);
        return link.write(Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]));
      }
      return link.write(bytes);
    },
  };
}

describe('plain raw mode on a link that loses bytes (the WebAssembly build behind socat)', () => {
  let board: EmulatedBoard | undefined;
  let link: ByteLink | undefined;
  afterEach(async () => {
    await link?.close();
    await board?.stop();
  });

  const LONG = Array.from({ length: 30 }, (_, i) => `print("line ${i}", 'caf\u00e9', "\\\\", ${i} * 2)`).join('\n') + '\nprint(limit)\n';

  it('resends damaged pieces: the script runs whole, its output and traceback as if sent directly', async () => {
    board = await startWasmBoard();
    const lossy = lossyLink(await openSerialLink(board.path), 3);
    link = lossy;
    const repl = new RawRepl(lossy, { rawPaste: false });
    await repl.enter();
    const chunks: string[] = [];
    const result = await repl.exec(LONG, { onStdout: (text) => chunks.push(text) });
    repl.dispose();
    expect(lossy.dropped()).toBe(3);
    const expected = Array.from({ length: 30 }, (_, i) => `line ${i} caf\u00e9 \\ ${i * 2}\n`).join('');
    expect(result.stdout.replace(/\r\n/g, '\n')).toBe(expected);
    expect(chunks.join('')).toBe(result.stdout);
    const traceback = mapTraceback(result.stderr, { name: 'long.py', text: LONG });
    expect(traceback?.frames).toEqual([{ file: 'long.py', line: 31, function: '<module>', source: 'print(limit)' }]);
    expect(traceback?.error).toMatch(/^NameError: name 'limit' is/);
  });

  it('gives up with an error naming the port when every try is damaged', async () => {
    board = await startWasmBoard();
    link = lossyLink(await openSerialLink(board.path), 1000);
    const repl = new RawRepl(link, { rawPaste: false, answerTimeoutMs: 2000 });
    await repl.enter();
    const error = await repl.exec(GREETING).catch((e: unknown) => e);
    repl.dispose();
    expect(error).toBeInstanceOf(ReplError);
    expect((error as Error).message).toMatch(new RegExp(`^the device on ${link.path} kept receiving part 1 of 1 of the script damaged \\(5 attempts`));
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
