// Board commands for people: compile, upload, monitor, ports (Arduino), build and
// program (MPLAB X), run-script, stop-script, camera-info (MicroPython/OpenMV).
// The same implementation the agent reaches through terminals and MCP.
import path from 'node:path';
import readline from 'node:readline';
import type { Command } from 'commander';
import type { DeviceConsent } from '../mcp/hardware-tool.js';
import { BOARD_OPERATIONS } from '../../boards/operations.js';
import { EXIT } from './errors.js';
import { addWorkspaceOption } from './workspace-option.js';

export function registerBoardCommands(program: Command): void {
  for (const { command: name, help } of BOARD_OPERATIONS) {
    if (!name) continue;
    const command = program
      .command(name)
      .description(help)
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .option('-y, --yes', 'agree to device changes without asking (for scripts)')
      .argument('[args...]');
    // The command's own positional path (a sketch, a project) is read where it runs, from this folder.
    addWorkspaceOption(command, false).action(async (args: string[], flags: { yes?: boolean; workspace?: string }) => {
      // The options are the command's own (parsed where it runs), so help is asked for here:
      // `--help` before a `--` never reaches the command (run-script would run a file of that name).
      const end = args.indexOf('--');
      if ((end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h')) {
        command.outputHelp();
        return;
      }
      process.exitCode = await runBoardCommand(name, args, Boolean(flags.yes), path.resolve(flags.workspace ?? '.'));
    });
  }
}

async function runBoardCommand(name: string, argv: string[], yes: boolean, cwd: string): Promise<number> {
  const { BridgeHardware } = await import('../hardware/bridge-hardware.js');
  const hardware = new BridgeHardware();
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.on('SIGINT', onSigint);
  try {
    const command = hardware.commands(askOnTerminal(yes), 'CLI').get(name);
    if (!command) return EXIT.usage;
    return await command(argv, {
      write: (text) => process.stdout.write(text),
      signal: controller.signal,
      cwd,
      env: process.env as Record<string, string>,
    });
  } finally {
    process.off('SIGINT', onSigint);
    await hardware.close();
  }
}

// A person at the terminal agrees to each device change; scripts pass --yes. The project's own
// build scripts need no question here: the person who typed `boardbridge build` ran them, as with `make`.
function askOnTerminal(yes: boolean): DeviceConsent {
  return async (_tool, question, kind) => {
    if (yes || kind === 'project-code') return { granted: true };
    if (!process.stdin.isTTY) return { granted: false, reason: 'no terminal to ask on; pass --yes to agree in scripts' };
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
    const answer = await new Promise<string>((resolve) => rl.question(`${question[0].toUpperCase()}${question.slice(1)} [y/N] `, resolve));
    rl.close();
    return /^y(es)?$/i.test(answer.trim()) ? { granted: true } : { granted: false, reason: 'answered no' };
  };
}
