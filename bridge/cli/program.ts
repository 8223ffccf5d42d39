// The boardbridge command line's commands, read by commander: everything main.ts does not print
// itself. An ES module of its own, imported by main.ts (bundled: a CommonJS file, so the context
// command's path needs no ES module loader at all), with the command modules it loads by name.
import type { Command } from 'commander';

// main.ts prints a failure with it, from this module, so the CommonJS shell does not hold errors.ts too.
export { printError } from './errors.js';

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

/** Parses `argv` (process.argv) with the commands it names registered, and runs the one named. */
export async function runProgram(argv: readonly string[]): Promise<void> {
  const named = argv[2];
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
  await program.parseAsync([...argv]);
}
