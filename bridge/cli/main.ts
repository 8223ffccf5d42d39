#!/usr/bin/env node
// The boardbridge command line: faces for people and scripts over the bridge core. Bundled
// (scripts/bundle-cli.mjs), this file is shell.cjs, which the bin (boardbridge.cjs) requires once
// it has turned Node's compile cache on: a CommonJS script with the stored-context path and the
// code cache inlined (their imports below are evaluated only when reached): a plain `boardbridge
// context` needs no ES module loader, which costs a start some milliseconds before it loads
// anything, nor the ES module view of node:fs, whose fs.promises loads streams and readline;
// every other command imports program.ts, an ES module.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { markOneCommandProcess } from '../../platform/one-command.js';

// V8 keeps the code it compiled for the next start where the runtime can (Node >= 22.1); the
// commands' chunks, loaded below, are what it saves (bundled, the bin turned it on already, and
// this call does nothing). Older runtimes have no such function.
const requireBuiltin = createRequire(import.meta.url);
(requireBuiltin('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/**
 * The V8 flags of a first context: no TurboFan, and no Maglev where V8 has that flag (V8 11 on, Node
 * 20 and later; off by default before Node 24, where the flag changes nothing). An unknown flag
 * would be an error on stderr, so older runtimes are given none. WebAssembly (the boards.txt
 * scanner, properties-scan.wat, and the C lexer's, c-tokens.wat) stays in its baseline compiler,
 * Liftoff: its tier-up to TurboFan, a compile job a scan of pico's boards.txt sometimes waits 2 ms
 * for, gains it 0.3 ms when it does not. `--liftoff-only` keeps it there up to Node 22; Node 24's V8
 * (13.6) reads that flag only as it starts, so there the tier-up budget is made out of reach (a
 * Nucleo's first context compiled both scanners again with TurboFan on another thread: 17.8 M
 * instructions, callgrind).
 */
const FIRST_CONTEXT_FLAGS = Number(process.versions.v8.split('.')[0]) >= 11 ? ['--no-opt', '--no-maglev', '--liftoff-only', '--wasm-tiering-budget=2000000000'] : ['--no-opt'];

/**
 * Sets V8 flags for the rest of this process. node:v8 loads Node's streams (for its heap snapshot
 * streams): 1 ms of a first context on Node 22. Before Node 24 the same function is also V8's own
 * binding, which loads nothing: it is taken there, with the deprecation warning that reaching for it
 * prints (DEP0111) held back for that one call, as nothing else of this process uses the binding.
 * Node 24 has no such binding, and a runtime that refuses it (the permission model) throws: node:v8 then.
 */
function setV8Flags(flags: string): void {
  const held = process.noDeprecation;
  let binding: { setFlagsFromString?: (flags: string) => void } | undefined;
  try {
    process.noDeprecation = true;
    binding = (process as unknown as { binding(name: string): typeof binding }).binding('v8');
  } catch {
    // No binding here: node:v8 below.
  } finally {
    process.noDeprecation = held;
  }
  if (typeof binding?.setFlagsFromString === 'function') binding.setFlagsFromString(flags);
  else (requireBuiltin('node:v8') as typeof import('node:v8')).setFlagsFromString(flags);
}

async function main(): Promise<void> {
  // A stored context is printed before commander or any command module is loaded; a plain
  // command line (a path, --fqbn or --board, --json) whose context is not stored is built without
  // commander too. Any other `context` command line is commander's to read (help, -w, errors).
  if (process.argv[2] === 'context') {
    const { plainContextRequest, printStoredContext } = await import('./stored-context.js');
    const args = process.argv.slice(3);
    const stored = printStoredContext(args);
    if (stored === 'printed') return exitOnceWritten();
    const plain = plainContextRequest(args);
    if (plain) {
      // A context none was stored for reads the board's platform, pin map and libraries (or is told
      // not to keep them): in a process of some tens of milliseconds V8's optimizing compilers
      // would spend more compiling the preprocessor than their faster code gives back (TurboFan, on
      // every runtime from 18 on: processFile alone took it 45 ms on a Nucleo; Maglev, which Node 24
      // turns on: 3–6 ms of a 32-bit board's first context), on the main thread's time or the other
      // core's; the interpreter and the baseline compiler carry it (FIRST_CONTEXT_FLAGS). An
      // edited sketch's context (stored, out of date) finds its board and pin map stored: a short
      // run whose few long loops TurboFan replaces on the stack, and no node:v8 to load (its streams
      // cost what TurboFan saves there). Set before context.cjs is compiled, and its code cache kept
      // apart, so each kind of run finds a cache made under its own flags. node:v8 is required, not
      // imported: import() would start the ES module loader this shell does without.
      markOneCommandProcess();
      const fresh = stored === 'absent';
      // Bundled, the command is also a CommonJS file beside this one, run with V8's code cache
      // (code-cache.ts); the unbundled build has none and imports the module. It is loaded before the
      // flag is set: V8 refuses code cached under other flags, Node's own for its built-in modules too,
      // and node:vm compiled from source after it cost a Nucleo's context 0.4 ms.
      const { loadCachedBundle } = await import('./code-cache.js');
      if (fresh) setV8Flags(FIRST_CONTEXT_FLAGS.join(' '));
      const flagsName = FIRST_CONTEXT_FLAGS.map((flag) => flag.slice(2)).join('-');
      const bundled = loadCachedBundle<typeof import('./context.js')>(fileURLToPath(new URL('./context.cjs', import.meta.url)), fresh ? flagsName : undefined);
      const { printContext } = bundled?.exports ?? (await import('./context.js'));
      // The kind of run is the board's platform (vendor:architecture): each core has its own tables and checks (a
      // Nucleo's first context with a cache the Uno's runs wrote: 298 M instructions against 283 M with its own, Node 22).
      // It is read from the context printed, whoever named the board (--fqbn, the sketch's sketch.yaml, the IDE's last
      // choice); an MPLAB X project or an OpenMV script is a kind of its own. A failed run (no such board, an unreadable
      // sketch) stopped part of the way: it covers no kind.
      let kind: string | undefined;
      process.exitCode = await printContext(plain.target, { board: plain.board, json: plain.json }, (context) => {
        kind = (context.kind === 'arduino' ? context.board.id.split(':').slice(0, 2).join(':') : context.kind) || '(no board)';
      });
      bundled?.save(process.exitCode === 0 ? kind : undefined);
      return exitOnceWritten();
    }
  }
  await (await import('./program.js')).runProgram(process.argv);
}

// The context command's work is synchronous once printed (its caches are written before it
// prints, the code cache just after), and a context it printed is written already (writeAll):
// the process ends at once instead of freeing its heap object by object first, as an ordinary
// exit does. A failure's message went to process.stderr, which may still hold it (a pipe on
// macOS): then it ends once stdout and stderr have taken what they hold.
function exitOnceWritten(): void {
  if (!process.exitCode) process.exit();
  process.stdout.write('', () => process.stderr.write('', () => process.exit()));
}

main().catch(async (error: unknown) => {
  (await import('./program.js')).printError(error);
  process.exitCode = 1;
});
