// The MicroPython WebAssembly build as a serial device: bytes from stdin go to its REPL one at a
// time, its output goes to stdout. Run behind `socat pty,raw,echo=0,link=P EXEC:"node wasm-repl.mjs"`
// it is a MicroPython board on a pty.
//
// The interpreter runs in a worker thread and the two directions go through shared memory, the
// way a UART's registers do: every byte the interpreter prints is visible to the main thread at
// once (even while a script runs without pause), and bytes received while a script runs are seen
// whenever the script calls out to JavaScript (output, time), where Ctrl-C becomes MicroPython's
// keyboard interrupt as the UART receive interrupt would make it.
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

const RING_BYTES = 1 << 20;
const CTRL_C = 3;

/** A byte ring in shared memory: counts[0] bytes written, counts[1] bytes read. */
function ring(shared) {
  return { counts: new Int32Array(shared.control), bytes: new Uint8Array(shared.data) };
}

function newRing() {
  return { control: new SharedArrayBuffer(8), data: new SharedArrayBuffer(RING_BYTES) };
}

if (isMainThread) {
  const input = newRing();
  const output = newRing();
  const worker = new Worker(new URL(import.meta.url));
  worker.postMessage({ input, output });
  worker.on('error', (error) => {
    process.stderr.write(`wasm-repl: ${error.stack ?? error}\n`);
    process.exit(1);
  });
  const rx = ring(input);
  process.stdin.on('data', (chunk) => {
    let written = Atomics.load(rx.counts, 0);
    for (const byte of chunk) {
      rx.bytes[written % RING_BYTES] = byte;
      written = (written + 1) | 0;
    }
    Atomics.store(rx.counts, 0, written);
    Atomics.notify(rx.counts, 0);
  });
  // socat closing the pty side ends stdin: the "board" is unplugged.
  process.stdin.on('end', () => process.exit(0));
  const tx = ring(output);
  for (;;) {
    const written = Atomics.load(tx.counts, 0);
    let read = Atomics.load(tx.counts, 1);
    if (written === read) {
      await Atomics.waitAsync(tx.counts, 0, written).value;
      continue;
    }
    const chunk = [];
    while (read !== written) {
      chunk.push(tx.bytes[read % RING_BYTES]);
      read = (read + 1) | 0;
    }
    Atomics.store(tx.counts, 1, read);
    Atomics.notify(tx.counts, 1);
    if (!process.stdout.write(Buffer.from(chunk))) await new Promise((resolve) => process.stdout.once('drain', resolve));
    // Let received bytes in even while the interpreter prints without pause.
    else await new Promise((resolve) => setImmediate(resolve));
  }
} else {
  parentPort.once('message', async ({ input, output }) => {
    const rx = ring(input);
    const tx = ring(output);
    const pending = [];
    let mp;

    const takeAvailable = () => {
      const written = Atomics.load(rx.counts, 0);
      let read = Atomics.load(rx.counts, 1);
      while (read !== written) {
        pending.push(rx.bytes[read % RING_BYTES]);
        read = (read + 1) | 0;
      }
      Atomics.store(rx.counts, 1, read);
    };
    // What the UART receive interrupt does while a script runs.
    const poll = () => {
      takeAvailable();
      const at = mp._module._mp_hal_get_interrupt_char() === CTRL_C ? pending.indexOf(CTRL_C) : -1;
      if (at >= 0) {
        pending.splice(at, 1);
        mp._module._mp_sched_keyboard_interrupt();
      }
    };
    const transmit = (byte) => {
      // A full transmit ring holds the interpreter until the host reads, as a UART would.
      while ((Atomics.load(tx.counts, 0) - Atomics.load(tx.counts, 1)) >>> 0 >= RING_BYTES) {
        Atomics.wait(tx.counts, 1, Atomics.load(tx.counts, 1), 50);
      }
      const written = Atomics.load(tx.counts, 0);
      tx.bytes[written % RING_BYTES] = byte;
      Atomics.store(tx.counts, 0, (written + 1) | 0);
      Atomics.notify(tx.counts, 0);
    };
    // The next received byte, waiting for one like a UART read does.
    const nextByte = () => {
      for (;;) {
        if (pending.length === 0) takeAvailable();
        if (pending.length > 0) return pending.shift();
        Atomics.wait(rx.counts, 0, Atomics.load(rx.counts, 1));
      }
    };

    const { loadMicroPython } = await import('@micropython/micropython-webassembly-pyscript');
    mp = await loadMicroPython({
      linebuffer: false,
      // Reads inside the interpreter come from the same byte stream; without this Emscripten
      // would read the process's stdin behind the main thread's back.
      stdin: nextByte,
      stdout: (bytes) => {
        for (const byte of bytes) transmit(byte);
        poll();
      },
    });
    const realNow = Date.now.bind(Date);
    Date.now = () => {
      poll();
      return realNow();
    };
    mp.replInit();
    for (;;) {
      // A non-zero result is a soft reset request (Ctrl-D at the friendly prompt): start again.
      if (mp.replProcessChar(nextByte())) mp.replInit();
    }
  });
}
