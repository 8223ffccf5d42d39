// Whether this process runs a single command and exits (the context command line marks itself so).
// What a longer-lived process keeps for later commands (a stamp of every file a value was built
// from, a copy of a shared value before a caller changes it) a one-command process does without:
// no later command in it reads the value again.
//
// Set on the process, not in this module: the command line's shell and the context script it runs
// each hold a copy of this module (scripts/bundle-cli.mjs).
const ONE_COMMAND = Symbol.for('boardbridge.oneCommandProcess');

/** Marks this process as one that runs a single command and exits. */
export function markOneCommandProcess(): void {
  (process as unknown as Record<symbol, boolean>)[ONE_COMMAND] = true;
}

export function inOneCommandProcess(): boolean {
  return (process as unknown as Record<symbol, boolean | undefined>)[ONE_COMMAND] === true;
}
