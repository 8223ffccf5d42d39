// Board commands for people, generated from BOARD_OPERATIONS: compile, upload, monitor, ports,
// simulate, sim … (Arduino), build and program (MPLAB), run-script, stop-script, camera-info
// (MicroPython/OpenMV). Each command's arguments and options come from its operation's input
// schema; the run is the operation's own, the one the agent reaches through terminals and MCP.
import path from 'node:path';
import readline from 'node:readline';
import { Command, Option } from 'commander';
import type { DeviceConsent } from '../mcp/hardware-tool.js';
import { BOARD_OPERATIONS, offers, type AnyOperation } from '../../boards/operations.js';
import { errorText, fieldsOf, inputOf, runParsed, USAGE_EXIT, type FieldShape } from '../../boards/operation-faces.js';
import { addWorkspaceOption } from './workspace-option.js';

export function registerBoardCommands(program: Command): void {
  const groups = new Map<string, Command>();
  for (const operation of BOARD_OPERATIONS) {
    if (!offers(operation, 'command')) continue;
    const words = operation.name.split(' ');
    let parent = program;
    if (words.length > 1) {
      parent = groups.get(words[0]) ?? addWorkspaceOption(program.command(words[0]).description(`${words[0]} steps: ${BOARD_OPERATIONS.filter((o) => o.name.startsWith(`${words[0]} `)).map((o) => o.name.slice(words[0].length + 1)).join(', ')}`), false);
      groups.set(words[0], parent);
    }
    commandOf(parent, operation, words[words.length - 1]);
  }
}

function commandOf(parent: Command, operation: AnyOperation, word: string): Command {
  const command = parent.command(word).description(operation.details ? `${operation.help}. ${operation.details}` : operation.help);
  const fields = fieldsOf(operation);
  for (const key of operation.args ?? []) {
    const field = fields.find((f) => f.key === key)!;
    const name = `${field.key}${field.array ? '...' : ''}`;
    command.argument(field.optional ? `[${name}]` : `<${name}>`, field.description ?? '');
  }
  const options = new Map<string, Option>();
  for (const field of fields.filter((f) => !f.positional)) {
    const option = new Option(`${field.short ? `-${field.short}, ` : ''}--${field.flag}${field.kind === 'boolean' ? '' : ` <${field.key}>`}`, field.description ?? '');
    if (field.choices) option.choices(field.choices);
    if (field.array) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    command.addOption(option);
    options.set(field.key, option);
  }
  command.option('--json', 'print the result as one line of JSON');
  command.option('-y, --yes', 'agree to device changes without asking (for scripts)');
  // The operation's own paths (a sketch, a project, a script) are read from this folder; a step
  // of a group (`sim start`) takes it on the group too (`boardbridge sim -w <dir> start`).
  addWorkspaceOption(command, false);
  command.action(async (...given: unknown[]) => {
    const self = given[given.length - 1] as Command;
    const flags = self.optsWithGlobals<Record<string, string | boolean | string[] | undefined>>();
    const positionals = (given.slice(0, -2) as Array<string | string[] | undefined>).flatMap((p) => (p === undefined ? [] : Array.isArray(p) ? p : [p]));
    const values = Object.fromEntries(fields.map((f: FieldShape) => [f.key, options.has(f.key) ? flags[options.get(f.key)!.attributeName()] : undefined]));
    const workspace = typeof flags.workspace === 'string' ? flags.workspace : '.';
    process.exitCode = await runBoardOperation(operation, values, positionals, flags.json === true, flags.yes === true, path.resolve(workspace));
  });
  return command;
}

async function runBoardOperation(operation: AnyOperation, values: Record<string, string | boolean | string[] | undefined>, positionals: string[], json: boolean, yes: boolean, cwd: string): Promise<number> {
  let input: unknown;
  try {
    input = inputOf(operation, values, positionals);
  } catch (error) {
    process.stderr.write(errorText(operation, error));
    return USAGE_EXIT;
  }
  const { BridgeHardware } = await import('../hardware/bridge-hardware.js');
  const hardware = new BridgeHardware();
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.on('SIGINT', onSigint);
  try {
    return await runParsed(operation, input, json, hardware.context(askOnTerminal(yes), 'CLI'), {
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
