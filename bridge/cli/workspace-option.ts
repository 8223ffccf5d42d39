// One way to name the folder a command works in, on every command that works in one: a
// positional path (`boardbridge chat ~/Blink`) or `-w/--workspace` (`boardbridge chat -w ~/Blink`).
import path from 'node:path';
import type { Command } from 'commander';

export const WORKSPACE_HELP = 'the sketch or project folder (default: the current folder)';

/** `-w, --workspace <dir>`; with `positional`, also the `[path]` argument that means the same. */
export function addWorkspaceOption(command: Command, positional: boolean): Command {
  if (positional) command.argument('[path]', `${WORKSPACE_HELP}; same as -w`);
  return command.option('-w, --workspace <dir>', WORKSPACE_HELP);
}

/** The folder named by the positional path or by -w; both may name it, but not two folders (a usage error). */
export function workspaceOf(command: Command, positional: string | undefined, flags: { workspace?: string }): string | undefined {
  if (positional === undefined) return flags.workspace;
  if (flags.workspace !== undefined && path.resolve(flags.workspace) !== path.resolve(positional)) {
    command.error(`error: two workspaces, ${positional} and -w ${flags.workspace}: name the folder once, as a path or with -w`, { exitCode: 2 });
  }
  return positional;
}
