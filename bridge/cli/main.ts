#!/usr/bin/env node
// The boardbridge command line: faces for people and scripts over the bridge core.
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';

// V8 keeps the code it compiled for the next start where the runtime can (Node >= 22.1); the
// commands' chunks, loaded below, are what it saves. Older runtimes have no such function.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

type Register = (program: Command) => void;

// Each command's module, in the order `--help` lists them. Only the module of the command named
// is loaded (loading them all is most of a cached `boardbridge context`'s time); help, no
// command or an unknown one loads them all, so commander can list them or suggest the nearest.
// The board commands (`undefined`: whatever BOARD_OPERATIONS names) are generated from their
// table, which is not read for the others: a name no other module has loads them, and all the
// rest too if the table has no such command.
const MODULES: ReadonlyArray<readonly [names: readonly string[] | undefined, load: () => Promise<Register>]> = [
  [['chat'], async () => (await import('./chat.js')).registerChat],
  [['run'], async () => (await import('./run.js')).registerRun],
  [['context'], async () => (await import('./context.js')).registerContext],
  [['agents', 'doctor'], async () => (await import('./agents.js')).registerAgents],
  [['undo'], async () => (await import('./undo.js')).registerUndo],
  [['mcp'], async () => (await import('./mcp.js')).registerMcp],
  [['serve'], async () => (await import('./serve.js')).registerServe],
  [undefined, async () => (await import('./board.js')).registerBoardCommands],
  [['acp'], async () => (await import('./acp.js')).registerAcp],
  [['setup'], async () => (await import('./setup.js')).registerSetup],
];

async function main(): Promise<void> {
  const named = process.argv[2];
  // A stored context is printed before commander or any command module is loaded; a plain
  // command line (a path, --fqbn or --board, --json) whose context is not stored is built without
  // commander too. Any other `context` command line is commander's to read (help, -w, errors).
  if (named === 'context') {
    const stored = await import('./stored-context.js');
    const args = process.argv.slice(3);
    if (stored.printStoredContext(args)) return exitOnceWritten();
    const plain = stored.plainContextRequest(args);
    if (plain) {
      // Bundled, the command is also a CommonJS file beside this one, run with V8's code cache
      // (code-cache.ts); the unbundled build has none and imports the module.
      const { loadCachedBundle } = await import('./code-cache.js');
      const bundled = loadCachedBundle<typeof import('./context.js')>(fileURLToPath(new URL('./context.cjs', import.meta.url)));
      const { printContext } = bundled?.exports ?? (await import('./context.js'));
      process.exitCode = await printContext(plain.target, { board: plain.board, json: plain.json });
      // The kind of run is the board's platform (vendor:architecture): each core has its own tables and checks.
      bundled?.save(plain.board?.split(':').slice(0, 2).join(':') ?? '(board not named)');
      return exitOnceWritten();
    }
  }
  const { Command } = await import('commander');
  const program = new Command()
    .name('boardbridge')
    .description('AI coding agents (any ACP agent) that know your board: pins, limits, toolchain, serial port')
    .version('0.1.0')
    .showHelpAfterError();
  const chosen = MODULES.filter(([names]) => names?.includes(named));
  const board = MODULES.filter(([names]) => names === undefined);
  let loading = named === '--version' || named === '-V' ? [] : chosen.length > 0 ? chosen : named && !named.startsWith('-') ? board : MODULES;
  let registers = await Promise.all(loading.map(([, load]) => load()));
  for (const register of registers) register(program);
  if (loading === board && !program.commands.some((c) => c.name() === named)) {
    loading = MODULES.filter((m) => !board.includes(m));
    registers = await Promise.all(loading.map(([, load]) => load()));
    for (const register of registers) register(program);
  }
  await program.parseAsync(process.argv);
}

// The context command's work is synchronous once printed (its caches are written before it
// prints, the code cache just after): once stdout and stderr have taken the output, the process
// ends at once instead of freeing its heap object by object first, as an ordinary exit does.
function exitOnceWritten(): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit()));
}

main().catch(async (error: unknown) => {
  (await import('./errors.js')).printError(error);
  process.exitCode = 1;
});
