// The board commands by name, for the bridge's terminal service (`boardbridge <cmd> …` run
// in-process) and the CLI, so all of them share one implementation and one serial hub.
import type { CommandTable } from '../command.js';
import { compileCommand } from './compile-command.js';
import type { BoardCommandDeps } from './deps.js';
import { monitorCommand } from './monitor-command.js';
import { portsCommand } from './ports-command.js';
import { simCommand } from './sim-command.js';
import { simulateCommand } from './simulate-command.js';
import { uploadCommand } from './upload-command.js';

export function boardCommands(deps: BoardCommandDeps): CommandTable {
  return new Map([
    ['compile', compileCommand(deps)],
    ['upload', uploadCommand(deps)],
    ['monitor', monitorCommand(deps)],
    ['ports', portsCommand(deps)],
    ['simulate', simulateCommand(deps)],
    ['sim', simCommand(deps)],
  ]);
}
