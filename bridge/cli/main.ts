#!/usr/bin/env node
// The boardbridge command line: faces for people and scripts over the bridge core.
import { Command } from 'commander';
import { registerAcp } from './acp.js';
import { registerAgents } from './agents.js';
import { registerBoardCommands } from './board.js';
import { registerChat } from './chat.js';
import { registerContext } from './context.js';
import { printError } from './errors.js';
import { registerRun } from './run.js';
import { registerMcp } from './mcp.js';
import { registerServe } from './serve.js';
import { registerSetup } from './setup.js';
import { registerUndo } from './undo.js';

const program = new Command()
  .name('boardbridge')
  .description('AI coding agents (any ACP agent) that know your board: pins, limits, toolchain, serial port')
  .version('0.1.0')
  .showHelpAfterError();

registerChat(program);
registerRun(program);
registerContext(program);
registerAgents(program);
registerUndo(program);
registerMcp(program);
registerServe(program);
registerBoardCommands(program);
registerAcp(program);
registerSetup(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  printError(error);
  process.exitCode = 1;
});
