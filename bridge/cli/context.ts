// `boardbridge context [path]`: prints what the agent will be told about the
// board, as compact markdown or (--json) the whole HardwareContext.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { HardwareContext } from '../../context-providers/types.js';
import { writeAll } from './direct-output.js';
import { EXIT, printError } from './errors.js';
import { contextText } from './stored-context.js';
import { addWorkspaceOption, workspaceOf } from './workspace-option.js';

interface ContextFlags {
  workspace?: string;
  fqbn?: string;
  board?: string;
  conf?: string;
  json?: boolean;
}

export function registerContext(program: Command): void {
  const command = program
    .command('context')
    .description('print the hardware context the agent gets for a sketch, MPLAB X project or OpenMV script')
    .argument('[path]', 'sketch folder, .ino, project.X folder or .py script (default: the current folder); same as -w')
    .option('--fqbn <fqbn>', 'Arduino board, e.g. arduino:avr:mega:cpu=atmega2560')
    .option('--board <id>', 'board selection (FQBN, device or OpenMV board such as OPENMV4)')
    .option('--conf <name>', 'MPLAB X configuration')
    .option('--json', 'print the whole HardwareContext as JSON');
  addWorkspaceOption(command, false).action(async (target: string | undefined, flags: ContextFlags) => {
    process.exitCode = await printContext(workspaceOf(command, target, flags), flags);
  });
}

/**
 * Prints the context of the project at `target` (a folder or a file in it); the exit code. main.ts
 * calls it without commander for the plain command lines stored-context.ts reads; `printed`, if
 * given, is shown the context once it is printed.
 */
export async function printContext(target: string | undefined, flags: ContextFlags, printed?: (context: HardwareContext) => void): Promise<number> {
  const where = path.resolve(target ?? process.cwd());
  const isFile = (() => {
    try {
      return statSync(where).isFile();
    } catch {
      return false;
    }
  })();
  const [{ ContextService }, { allProviders }] = await Promise.all([import('../context/context-service.js'), import('../../context-providers/index.js')]);
  const service = new ContextService(allProviders());
  const selection = { board: flags.board ?? flags.fqbn, configuration: flags.conf, files: isFile ? [where] : undefined };
  try {
    const loaded = (await service.load(where, selection)) ?? (isFile ? await service.load(path.dirname(where), selection) : undefined);
    if (!loaded) {
      process.stderr.write(
        `boardbridge: ${where} is not a project boardbridge recognises\n  → an Arduino sketch folder (Name/Name.ino), an MPLAB X project (name.X with nbproject/), or an OpenMV script (.py)\n`,
      );
      return EXIT.error;
    }
    writeAll(1, contextText(loaded.context, loaded.markdown, flags.json));
    printed?.(loaded.context);
    return EXIT.ok;
  } catch (error) {
    printError(error);
    return EXIT.error;
  }
}
