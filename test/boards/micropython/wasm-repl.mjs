// The MicroPython WebAssembly build as a serial device: bytes from stdin go to its REPL one at a
// time, its output goes to stdout. Run behind `socat pty,raw,echo=0,link=P EXEC:"node wasm-repl.mjs"`
// it is a MicroPython board on a pty.
//
// A real board receives bytes in a UART interrupt while a script runs, so Ctrl-C can stop it.
// Here the interpreter runs in a worker thread; the main thread stores incoming bytes in shared
// memory, and the worker looks at them whenever the script calls out to JavaScript (output, time),
// turning Ctrl-C into MicroPython's keyboard interrupt the way the UART interrupt would.
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

const RING_BYTES = 1 << 20;
const CTRL_C = 3;

if (isMainThread) {
  const control = new SharedArrayBuffer(8); // [written, read] byte counts
  const data = new SharedArrayBuffer(RING_BYTES);
  const counts = new Int32Array(control);
  const ring = new Uint8Array(data);
  const worker = new Worker(new URL(import.meta.url), { workerData: null });
  worker.postMessage({ control, data });
  worker.on('message', (bytes) => process.stdout.write(Buffer.from(bytes)));
  worker.on('error', (error) => {
    process.stderr.write(`wasm-repl: ${error.stack ?? error}\n`);
    process.exit(1);
  });
  process.stdin.on('data', (chunk) => {
    let written = Atomics.load(counts, 0);
    for (const byte of chunk) {
      ring[written % RING_BYTES] = byte;
      written = (written + 1) | 0;
    }
    Atomics.store(counts, 0, written);
    Atomics.notify(counts, 0);
  });
  // socat closing the pty side ends stdin: the "board" is unplugged.
  process.stdin.on('end', () => process.exit(0));
} else {
  parentPort.once('message', async ({ control, data }) => {
    const counts = new Int32Array(control);
    const ring = new Uint8Array(data);
    const pending = [];
    let output = [];
    let lastFlush = 0;
    const realNow = Date.now.bind(Date);

    const flush = () => {
      if (output.length === 0) return;
      parentPort.postMessage(Uint8Array.from(output));
      output = [];
      lastFlush = realNow();
    };
    const takeAvailable = () => {
      const written = Atomics.load(counts, 0);
      let read = Atomics.load(counts, 1);
      while (read !== written) {
        pending.push(ring[read % RING_BYTES]);
        read = (read + 1) | 0;
      }
      Atomics.store(counts, 1, read);
    };
    let mp;
    // What the UART interrupt does while a script runs.
    const poll = () => {
      takeAvailable();
      const interruptChar = mp._module._mp_hal_get_interrupt_char();
      const at = interruptChar === CTRL_C ? pending.indexOf(CTRL_C) : -1;
      if (at >= 0) {
        pending.splice(at, 1);
        mp._module._mp_sched_keyboard_interrupt();
      }
      if (realNow() - lastFlush > 5) flush();
    };

    // The next received byte, waiting for one like a UART read does.
    const nextByte = () => {
      for (;;) {
        if (pending.length === 0) takeAvailable();
        if (pending.length > 0) return pending.shift();
        flush();
        Atomics.wait(counts, 0, Atomics.load(counts, 1));
      }
    };

    const { loadMicroPython } = await import('@micropython/micropython-webassembly-pyscript');
    mp = await loadMicroPython({
      linebuffer: false,
      // Reads inside the interpreter (raw-paste mode, input()) come from the same byte stream;
      // without this Emscripten would read the process's stdin behind the main thread's back.
      stdin: nextByte,
      stdout: (bytes) => {
        for (const byte of bytes) output.push(byte);
        poll();
      },
    });
    Date.now = () => {
      poll();
      return realNow();
    };
    mp.replInit();
    flush();
    for (;;) {
      // A non-zero result is a soft reset request (Ctrl-D at the friendly prompt): start again.
      if (mp.replProcessChar(nextByte())) mp.replInit();
      if (pending.length === 0) flush();
    }
  });
}
